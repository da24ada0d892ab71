package predict

import "math"

// LevelDiagnosis is one held-out level as Mix-and-Match saw it: the
// implementation it picked, the per-level optimum and the input's best
// non-switching implementation, each with its predicted and measured time.
// It is what "predict evaluate --levels FILE" writes, to find where a
// model's picks lose time.
type LevelDiagnosis struct {
	Graph                string
	Root                 int64
	Level, Levels        int
	Frontier, EdgesFront int64
	Vertices, Edges      int64
	Pick, Opt, BNS       string
	PickPred, PickNs     float64
	OptPred, OptNs       float64
	BNSPred, BNSNs       float64
	PickBase, BNSBase    float64
	PickRank, Candidates int // the pick's rank by measured time (0 = the optimum) among the measured implementations
}

// DiagnoseLevels returns a LevelDiagnosis per level row of levels with
// predictions pred (as PredictDataset returns them). The best
// non-switching implementation of an input is the one with the least sum
// of measured level times over the input's levels among those measured at
// every level (ds.Ns, the medians Mix-and-Match is charged).
func DiagnoseLevels(ds *Dataset, levels []int, pred []float64) []LevelDiagnosis {
	k := ds.K()
	var out []LevelDiagnosis
	for start := 0; start < len(levels); {
		end := start
		in := ds.Levels[levels[start]].Input()
		for end < len(levels) && ds.Levels[levels[end]].Input() == in {
			end++
		}
		sum := make([]float64, k)
		for _, r := range levels[start:end] {
			for j := range k {
				sum[j] += ds.Ns[r*k+j] // NaN stays NaN
			}
		}
		bns := -1
		for j := range k {
			if !math.IsNaN(sum[j]) && (bns < 0 || sum[j] < sum[bns]) {
				bns = j
			}
		}
		for _, r := range levels[start:end] {
			row := &ds.Levels[r]
			d := LevelDiagnosis{Graph: row.Graph, Root: row.Root, Level: row.Level, Levels: end - start,
				Vertices: ds.Traversal[r].Vertices, Frontier: ds.Traversal[r].Frontier}
			d.Edges = ds.Data.Props[row.Graph].Edges
			d.EdgesFront = int64(ds.X[(r*k)*len(FeatureNames)+featureIndex("edges_frontier")])
			pick, opt := -1, -1
			for j := range k {
				if p := pred[r*k+j]; !math.IsNaN(p) && (pick < 0 || p < pred[r*k+pick]) {
					pick = j
				}
				if ns := ds.Ns[r*k+j]; !math.IsNaN(ns) && (opt < 0 || ns < ds.Ns[r*k+opt]) {
					opt = j
				}
			}
			if pick < 0 || opt < 0 {
				continue
			}
			d.Pick, d.PickPred, d.PickNs, d.PickBase = ds.Kernels[pick].Name, pred[r*k+pick], ds.Ns[r*k+pick], ds.Base[r*k+pick]
			d.Opt, d.OptPred, d.OptNs = ds.Kernels[opt].Name, pred[r*k+opt], ds.Ns[r*k+opt]
			if bns >= 0 {
				d.BNS, d.BNSPred, d.BNSNs, d.BNSBase = ds.Kernels[bns].Name, pred[r*k+bns], ds.Ns[r*k+bns], ds.Base[r*k+bns]
			}
			for j := range k {
				if ns := ds.Ns[r*k+j]; !math.IsNaN(ns) {
					d.Candidates++
					if ns < d.PickNs {
						d.PickRank++
					}
				}
			}
			out = append(out, d)
		}
		start = end
	}
	return out
}

func featureIndex(name string) int {
	for i, n := range FeatureNames {
		if n == name {
			return i
		}
	}
	panic("predict: no feature " + name)
}
