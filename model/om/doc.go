// Package om implements the operator machine of seed 000: a graph round as
// a closed queueing network of servers, its operational analysis, and its
// mappings to a CPU's caches and a GPU's memory system.
package om
