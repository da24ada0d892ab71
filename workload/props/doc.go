// Package props computes the graph and BFS-level properties that seed 004
// §7.2 uses as decision-tree features: degree summaries, components, a
// diameter estimate, and per-level frontier, discovered and edge counts from
// the reference BFS.
//
// "graphperf graph" renders three results of this package: Compute (stats,
// with Graph.DegreeSummaries for the degree table), ReportLevels (levels:
// a LevelReport from one root) and RootRequest.Pick (roots: the Roots of a
// RootRequest, checked with Validate before a graph is loaded). ParseRoot
// turns a root spec ("max", "random" or an id) into a vertex for every
// command that takes one.
package props
