// Package gen generates synthetic graphs deterministically from a seed: R-MAT
// and Graph500 Kronecker graphs, Erdős-Rényi G(n, m), Watts-Strogatz small
// worlds, Barabási-Albert preferential attachment, road-like grids, the
// configuration model for a target degree distribution, checked with the
// Kolmogorov-Smirnov test of seed 004 §5.3, and three families with the
// structure of real networks: Holme-Kim power-law cluster graphs (clustered
// social and collaboration networks), the forest-fire model (directed,
// densifying citation and web graphs) and a degree-corrected
// planted-partition graph (power-law degrees with communities of
// contiguous ids, mixing parameter as in LFR).
//
// # Determinism
//
// Every generator is a function of its parameters and a uint64 seed only:
// the same seed gives the same edge list, in the same order, on any machine
// and for any GOMAXPROCS. Random numbers come from math/rand/v2 PCG streams,
// each seeded from (seed, purpose, index) through the SplitMix64 finalizer,
// so that independent parts of one generator (R-MAT edge blocks, the vertex
// permutation, the degree sequence, the stub shuffle) never share a stream.
// Generators that run in parallel (R-MAT, Erdős-Rényi) split their work into
// blocks of fixed size, one stream per block, and write each block to a
// fixed place; the number of goroutines only changes the speed.
//
// # Building
//
// A Generator returns a graph.EdgeList. Undirected reports whether the family
// is meant to be symmetrised; build with
//
//	graph.Build(el, graph.BuildOptions{Undirected: gen.Undirected()})
//
// Erdős-Rényi, Watts-Strogatz, Barabási-Albert, Road, Configuration,
// HolmeKim, ForestFire and SBM emit simple graphs (no self-loops, no repeated edge, each undirected edge
// listed once), so they need neither DropSelfLoops nor DropDuplicates. R-MAT
// emits self-loops and repeated edges, as the Graph500 generator does; set
// the two Drop options to get a simple graph.
//
// # The command
//
// "graphperf graph gen" fills a Spec from its flags, checks them with
// CheckFields, makes the Generator with Spec.Generator, builds it with
// BuildGraph and renders the graph's Summary (Summarize: size, and for a
// target-degree kind the KSSummary of its fit, with Thresholds for the
// table 5.1 rows); its figure draws PMF of the target against the degrees.
package gen
