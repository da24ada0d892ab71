// Package props computes the graph and BFS-level properties that seed 004
// §7.2 uses as decision-tree features: degree summaries, components, a
// diameter estimate, and per-level frontier, discovered and edge counts from
// the reference BFS.
package props
