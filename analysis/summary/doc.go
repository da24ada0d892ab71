// Package summary computes a report's headline numbers (the time model
// against its baselines on held-out and real graphs, the operator machine's
// accuracy, the fastest implementation) and writes them as one paragraph
// whose every sentence, and every comparison in it, comes from those
// numbers.
package summary
