// Package aggregate compares BFS implementations over many inputs with the
// aggregate tables of seed 004 §4.3: per implementation its normalised total,
// average slowdown, share of inputs within 1-2x, beyond 5x and 20x of the
// optimum, and worst slowdown, against either the fastest single
// implementation per input (table 4.5) or the per-level oracle that takes
// the fastest implementation at every BFS level (table 4.6).
//
// # Definitions
//
// Line numbers refer to /work/shared/seeds/004_ff26f255863e60c4.txt.
//
// An input is a (graph, root) pair. The thesis normalises per "variant"
// (line 1084), "one, algorithm specific, configuration for a graph"
// (footnote, line 1082), "such as root nodes for Breadth-First Search"
// (line 670): for BFS a variant is a graph with one root, so every
// optimum, ratio and share here is per (graph, root), and a graph measured
// from 5 roots counts as 5 inputs.
//
// The time of an implementation on an input is the runner's median over its
// timed repetitions (median_ns, kernels/cuda/README.md). The thesis sums
// mean times (line 1097); the median is used here because a few
// repetitions are slow outliers (over the H100 dataset's 27,730 total lines
// max/median is 1.03 in the median line and up to 7.0, mean/median up to
// 2.6). With AgainstTotal the time is the total line's median_ns (the
// median of the per-repetition sums of level times); with AgainstLevels it
// is the sum of the level lines' median_ns, the same basis as the per-level
// oracle, so that no implementation can beat the oracle through the
// difference between a median of sums and a sum of medians (on the H100
// dataset the sum of level medians is from 22% below to 7% above the
// total's median, 0.2% below in the median run).
//
// The optimum of an input, "the fastest time possible for that variant,
// based on the times in our dataset" (line 1072), is:
//
//   - AgainstTotal: the least time of any implementation on the input,
//     "simply the time of the fastest implementation" (line 1609), as in
//     table 4.5;
//   - AgainstLevels: the sum over levels L of the least level-L time of any
//     implementation, "the fastest implementation at every BFS step of a
//     variant" added together (line 1072; "the best possible implementation
//     at every level", line 1620), as in table 4.6. It ignores the cost of
//     switching implementations between levels (seed 004 §7.3.2 measures
//     that cost).
//
// "Best Non-switching" is "our old optimal — i.e., picking the best
// implementation for each graph and using it for all levels" (line 1620;
// "an oracle to pick the fastest non-switching implementation for each
// graph", line 2451). The old optimal was per variant (lines 1072, 1609),
// so it is taken per input: the least whole-traversal time of any single
// implementation on that input. Against the total it equals the optimum.
//
// The columns of a Row, for an implementation with time t_i on its inputs
// i = 1..k and optimum o_i, ratio r_i = t_i / o_i:
//
//   - Total, the normalised total (line 1074): sum t_i / sum o_i;
//   - Avg, the average error (line 1086): (1/k) sum r_i;
//   - Within2x, Over5x, Over20x (line 1088): the shares of inputs with
//     r_i <= 2 ("1-2x"; r_i >= 1 always), r_i > 5 and r_i > 20;
//   - Worst (line 1088): max r_i.
//
// # Spread
//
// Every row also says how much the times behind it vary (Row.Spread; issue
// 13 item 8: "spread, not only centres"), as two coefficients of
// variation, standard deviation over mean:
//
//   - CVReps, over the timed repetitions: per input, the total line's
//     stddev_ns / mean_ns (10 repetitions per run in the H100 dataset);
//     the row shows the median over its inputs;
//   - CVRoots, over the roots: per graph, the sample standard deviation of
//     the row's times on the graph's roots (5 in the H100 dataset) over
//     their mean; the row shows the median over its graphs.
//
// Spread's doc comment gives the details (the per-level oracle, missing
// values). Rates carry the least and greatest repetition time (MinNs,
// MaxNs) and the same two coefficients.
//
// Only inputs the implementation has count: an implementation missing on
// some input is compared over the inputs it has, and the table says so in
// its warnings. The optimum is taken over every implementation present on
// the input, whichever rows are shown.
//
// Runs that were not validated are left out before anything is compared: a
// total line with "verified": false, one that an error line concerns, and,
// when the results directory has a manifest, the graphs it marks
// "validated": false and runs whose depth hash differs from its Go
// reference hash.
package aggregate
