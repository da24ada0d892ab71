// Package store keeps measurements and their provenance in one SQLite
// database (seed 004 §3.2-3.3, appendix A): platforms, datasets, graphs and
// their properties, algorithms, implementations, variants (graph + root),
// run configurations, runs with their per-level timings, counters and
// trained models, behind a versioned schema with forward migrations.
package store
