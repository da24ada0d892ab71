package predict

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/cost"
)

// Physics holds the machine constants the physical base time uses, all from
// a machine description file (model/machine), never fitted to the levels
// the model is scored on.
type Physics struct {
	// OverheadNs is T_0, the fixed time of one level as the runner times it
	// (the machine file's level_overhead latency).
	OverheadNs float64
	// BytesPerNs is the measured DRAM read bandwidth (ceilings.read_bandwidth).
	BytesPerNs float64
	// LatencyNs is one DRAM load's latency with nothing else in flight
	// (latencies: dram).
	LatencyNs float64
	// Warps is the resident warp slots of the GPU: SMs x warps per SM.
	Warps float64
	// SectorBytes is the L2 sector size: the unit of a random access.
	SectorBytes float64
	// L2Bytes, L2BytesPerNs and L2LatencyNs are the L2's size, its read
	// bandwidth (ceilings.l2_bandwidth) and its hit latency (latencies:
	// l2_hit); zero where the machine file lacks them. Base "l2" uses them.
	L2Bytes, L2BytesPerNs, L2LatencyNs float64
}

// BaseVariant selects the physical base time kernelFeatures computes
// (an experiment switch, see docs/ACCURACY.md): "" (every access a random
// DRAM sector), "l2" (the same with the L2's bandwidth and latency when the
// graph's arrays fit in the L2), "bytes" (the workload's bytes at DRAM
// bandwidth: the coalesced bound) or "l2bytes" (both).
var BaseVariant = ""

// NewPhysics reads the constants of m. Every one must be present.
func NewPhysics(m *machine.Machine) (Physics, error) {
	p := Physics{
		BytesPerNs: float64(m.Ceilings.ReadBandwidth) / 1e9,
		Warps:      float64(m.PhysicalWarps()),
	}
	for _, l := range m.Latencies {
		switch l.Name {
		case "level_overhead":
			p.OverheadNs = float64(l.Time)
		case "dram":
			p.LatencyNs = float64(l.Time)
		}
	}
	if m.L2 != nil {
		p.SectorBytes = float64(m.L2.Sector)
		p.L2Bytes = float64(m.L2.Size)
	}
	p.L2BytesPerNs = float64(m.Ceilings.L2Bandwidth) / 1e9
	for _, l := range m.Latencies {
		if l.Name == "l2_hit" {
			p.L2LatencyNs = float64(l.Time)
		}
	}
	switch {
	case p.OverheadNs <= 0:
		return p, fmt.Errorf("predict: machine %s has no level_overhead latency", m.Name)
	case p.LatencyNs <= 0:
		return p, fmt.Errorf("predict: machine %s has no dram latency", m.Name)
	case p.BytesPerNs <= 0:
		return p, fmt.Errorf("predict: machine %s has no read_bandwidth ceiling", m.Name)
	case p.Warps <= 0:
		return p, fmt.Errorf("predict: machine %s has no SM or warp count", m.Name)
	case p.SectorBytes <= 0:
		return p, fmt.Errorf("predict: machine %s has no L2 sector size", m.Name)
	}
	return p, nil
}

// graphFeatureNames are the graph columns: seed 004 §7.2's 23 properties,
// then whether the graph is directed.
var graphFeatureNames = func() []string {
	names := []string{"vertices", "edges"}
	for _, d := range []string{"abs", "in", "out"} {
		for _, s := range []string{"min", "lq", "mean", "median", "uq", "max", "stddev"} {
			names = append(names, d+"_"+s)
		}
	}
	return append(names, "directed")
}()

// levelFeatureNames are the level columns, each a quantity of
// cost.BFSLevel (relative ones divide by n or m). The level's index is not
// one of them: it is no physical quantity of the level's work, and a long
// BFS (a road graph's 781 levels) reaches indices no training graph has,
// where trees cannot extrapolate; dropping it was chosen on validation
// graphs only (docs/ACCURACY.md, issue 12).
var levelFeatureNames = []string{
	"frontier", "frontier_rel", "discovered", "discovered_rel", "unvisited_rel",
	"edges_frontier", "edges_frontier_rel", "edges_unexplored_rel", "next_rel", "edges_to_next_rel",
	"in_edges_unvisited_rel", "max_frontier_degree", "max_unvisited_in_degree",
	"push_rounds_1", "push_rounds_4", "push_rounds_32", "pull_rounds_1", "pull_rounds_4", "pull_rounds_32",
	"pull_scan_1_rel",
}

// kernelFeatureNames are the implementation columns: what the
// implementation is (family, width, aggregation, direction) and what it
// must do at the level (the concrete workload model of workload/cost, its
// lockstep rounds, and the physical base time).
var kernelFeatureNames = []string{
	"family", "width", "aggregation", "bottom_up", "converts",
	"threads", "reads", "writes", "atomics", "bytes", "ops_per_thread",
	"own_rounds", "own_rounds_per_warp_slot", "base_bandwidth_ns", "base_latency_ns", "base_ns",
}

// FeatureNames are the columns of a feature vector, in order.
var FeatureNames = append(append(append([]string{}, graphFeatureNames...), levelFeatureNames...), kernelFeatureNames...)

// Graph is what the model knows of a graph before running anything.
type Graph struct {
	Name  string
	Props kernels.GraphPropsJSON
}

func (g *Graph) features(dst []float64) []float64 {
	p := &g.Props
	dst = append(dst, float64(p.Vertices), float64(p.Edges))
	for _, s := range []kernels.DegreeStatsJSON{p.AbsDegree, p.InDegree, p.OutDegree} {
		dst = append(dst, s.Min, s.LowerQuartile, s.Mean, s.Median, s.UpperQuartile, s.Max, s.StdDev)
	}
	return append(dst, b2f(p.Directed))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func ratio(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func levelFeatures(dst []float64, l *cost.BFSLevel) []float64 {
	n, m := l.Vertices, l.Edges
	return append(dst,
		float64(l.Frontier), ratio(l.Frontier, n), float64(l.Discovered), ratio(l.Discovered, n),
		ratio(l.Unvisited(), n),
		float64(l.EdgesFrontier), ratio(l.EdgesFrontier, m), ratio(l.EdgesUnexplored, m), ratio(l.Next, n),
		ratio(l.EdgesToNext, m), ratio(l.InEdgesUnvisited, m),
		float64(l.MaxFrontierDegree), float64(l.MaxUnvisitedInDegree),
		float64(l.PushRounds[0]), float64(l.PushRounds[2]), float64(l.PushRounds[5]),
		float64(l.PullRounds[0]), float64(l.PullRounds[2]), float64(l.PullRounds[5]),
		ratio(l.PullScan[0], m),
	)
}

// Kernel is one implementation as the model sees it.
type Kernel struct {
	Name   string
	Kernel cost.BFSKernel
}

// ParseKernels parses runner implementation names.
func ParseKernels(names []string) ([]Kernel, error) {
	ks := make([]Kernel, len(names))
	for i, name := range names {
		k, err := cost.ParseBFSKernel(name)
		if err != nil {
			return nil, fmt.Errorf("predict: %w", err)
		}
		ks[i] = Kernel{Name: name, Kernel: k}
	}
	return ks, nil
}

// pushSide says whether a family walks out-edges of the frontier, pullSide
// whether it scans the in-edges of unvisited vertices; edge lists do
// neither per vertex.
func pushSide(f cost.BFSFamily) bool {
	return f == cost.BFSTopo || f == cost.BFSVertexPush || f == cost.BFSVertexPushWarp || f == cost.BFSQueue
}

func pullSide(f cost.BFSFamily) bool {
	return f == cost.BFSVertexPull || f == cost.BFSVertexPullWarp
}

// rounds returns the lockstep edge-loop rounds of the level's warps for k
// (cost.BFSLevel.PushRounds or PullRounds at k's width) and the longest
// single chain of dependent rounds, the hub a single thread (or W lanes)
// must walk: ⌈d_max / W⌉. Edge lists have no per-vertex loop: one round
// per thread, so rounds = m / 32 warps and a chain of 1.
func rounds(k cost.BFSKernel, l *cost.BFSLevel, bottomUp bool) (total, chain float64) {
	w := max(k.Width, 1)
	i := bits.TrailingZeros(uint(w))
	switch {
	case k.Family == cost.BFSDOBFS && bottomUp:
		return float64(l.PullRounds[0]), float64(l.MaxUnvisitedInDegree)
	case k.Family == cost.BFSDOBFS:
		// Top-down dobfs levels are queue levels: a thread per frontier
		// vertex, packed, so about n_f/32 warps of the frontier's degrees.
		return float64(l.PushRounds[0]), float64(l.MaxFrontierDegree)
	case pushSide(k.Family):
		return float64(l.PushRounds[i]), math.Ceil(float64(l.MaxFrontierDegree) / float64(w))
	case pullSide(k.Family):
		return float64(l.PullRounds[i]), math.Ceil(float64(l.MaxUnvisitedInDegree) / float64(w))
	}
	return math.Ceil(float64(l.Edges) / 32), 1
}

// kernelFeatures appends k's columns at level l, whose concrete workload
// is lc (cost.EvaluateBFS), and returns them with the physical base time.
//
// The base time is a deliberately simple physical bound, the quantity the
// regression corrects (Model.Target "log-residual"):
//
//	base = T_0 + B/β + c L / W_res ... written as
//	base = T_0 + (reads + writes + atomics) s / β + max(R/W_res, C) L
//
// with T_0 the level overhead, s the sector size (every access a random
// 32-byte sector: the pessimistic count for coalesced scans), β the
// measured DRAM read bandwidth, R the level's lockstep warp rounds, W_res
// the GPU's resident warps, C the longest chain of rounds one warp walks
// (a hub) and L the DRAM latency: a latency-bound level needs at least its
// rounds spread over every resident warp, and at least its hub's chain, one
// load latency per round. O(1).
func kernelFeatures(dst []float64, k cost.BFSKernel, l *cost.BFSLevel, lc *cost.BFSLevelCost, ph Physics) ([]float64, float64) {
	c := lc.Cost
	ops := c.Reads + c.Writes + c.Atomics
	threads := threadsOf(k, l, lc.BottomUp)
	r, chain := rounds(k, l, lc.BottomUp)
	beta, latNs := ph.BytesPerNs, ph.LatencyNs
	if (BaseVariant == "l2" || BaseVariant == "l2bytes") && ph.L2Bytes > 0 && ph.L2BytesPerNs > 0 && ph.L2LatencyNs > 0 &&
		8*float64(l.Vertices+l.Edges) <= ph.L2Bytes {
		beta, latNs = ph.L2BytesPerNs, ph.L2LatencyNs
	}
	bw := float64(ops) * ph.SectorBytes / beta
	if BaseVariant == "bytes" || BaseVariant == "l2bytes" {
		bw = float64(c.Bytes()) / beta
	}
	lat := math.Max(r/ph.Warps, chain) * latNs
	base := ph.OverheadNs + bw + lat
	converts := 0.0
	if lc.Convert != "" {
		converts = 1
	}
	dst = append(dst,
		float64(k.Family), float64(k.Width), float64(k.Aggregation), b2f(lc.BottomUp), converts,
		float64(threads), float64(c.Reads), float64(c.Writes), float64(c.Atomics), float64(c.Bytes()),
		ratio(ops, threads),
		r, r/ph.Warps, bw, lat, base,
	)
	return dst, base
}

// threadsOf is the threads the level's main kernel launches work for:
// n for the vertex kernels (W n for virtual warps), m for edge lists, n_f
// for queue and top-down dobfs levels.
func threadsOf(k cost.BFSKernel, l *cost.BFSLevel, bottomUp bool) int64 {
	switch k.Family {
	case cost.BFSEdgeList, cost.BFSStructEdgeList, cost.BFSRevEdgeList, cost.BFSRevStructEdgeList:
		return l.Edges
	case cost.BFSVertexPushWarp, cost.BFSVertexPullWarp:
		return int64(k.Width) * l.Vertices
	case cost.BFSQueue:
		return max(l.Frontier, 1)
	case cost.BFSDOBFS:
		if bottomUp {
			return l.Vertices
		}
		return max(l.Frontier, 1)
	}
	return l.Vertices
}

// Features returns the feature rows of every level of one BFS (levels, as
// cost.BFSLevels gives them) for every kernel, level-major: row
// L*len(ks)+j is level L of kernel j. base[L*len(ks)+j] is that row's
// physical base time in ns. O(levels x kernels x features).
func Features(g *Graph, levels []cost.BFSLevel, ks []Kernel, ph Physics) (x []float64, base []float64) {
	nf := len(FeatureNames)
	x = make([]float64, 0, len(levels)*len(ks)*nf)
	base = make([]float64, len(levels)*len(ks))
	work := make([]*cost.BFSResult, len(ks))
	for j, k := range ks {
		work[j] = cost.EvaluateBFS(cost.Concrete, k.Kernel, levels, cost.BFSConfig{})
	}
	var gf []float64
	gf = g.features(gf)
	for L := range levels {
		lf := levelFeatures(nil, &levels[L])
		for j, k := range ks {
			x = append(x, gf...)
			x = append(x, lf...)
			var b float64
			x, b = kernelFeatures(x, k.Kernel, &levels[L], &work[j].Levels[L], ph)
			base[L*len(ks)+j] = b
		}
	}
	return x, base
}
