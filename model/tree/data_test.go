package tree

import (
	"math"
)

// rng is a SplitMix64 stream: tests and benchmarks need data that is the
// same on every Go version (math/rand's streams may change), so that the
// CSV written for the scikit-learn comparison is the data the benchmarks
// fit.
type rng struct{ state uint64 }

func (r *rng) uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	x := r.state
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// float64 is uniform in [0, 1).
func (r *rng) float64() float64 { return float64(r.uint64()>>11) / (1 << 53) }

func (r *rng) intn(n int) int { return int(r.uint64() % uint64(n)) }

// normal is a standard normal deviate (Box-Muller).
func (r *rng) normal() float64 {
	u := 1 - r.float64()
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.float64())
}

// levelFeatures are the 27 features of seed 004 §7.2: graph size (2), the
// five-number summary, mean and standard deviation of the absolute, in and
// out degrees (21), and the frontier and discovered vertices of the BFS
// level, absolute and relative (4).
var levelFeatures = func() []string {
	names := []string{"vertices", "edges"}
	for _, kind := range []string{"abs", "in", "out"} {
		for _, stat := range []string{"min", "q1", "mean", "median", "q3", "max", "stddev"} {
			names = append(names, kind+"_degree_"+stat)
		}
	}
	return append(names, "frontier_abs", "frontier_rel", "discovered_abs", "discovered_rel")
}()

// implementations are the classes of the synthetic level data: the fastest
// of 8 BFS implementations (names from seed 004 table 7.1).
var implementations = []string{
	"vertex-push", "vertex-pull", "vertex-push-warp", "vertex-pull-warp",
	"edge-list", "struct-edge-list", "reverse-edge-list", "reverse-struct-edge-list",
}

// levelData is a synthetic stand-in for seed 004 §7.2's dataset: n BFS
// levels with the 27 features of levelFeatures (row-major), the fastest
// implementation as label and the level's run time in ms as weight. The
// label is a fixed function of frontier_rel, discovered_rel, the mean
// degree and the degree stddev, with 5% of the labels replaced at random, so
// that a tree can learn most of it but not all. Only the shape matters; the
// numbers are not measurements.
func levelData(n int, seed uint64) (X []float64, y []int, w []float64) {
	r := &rng{seed}
	nf := len(levelFeatures)
	X = make([]float64, n*nf)
	y = make([]int, n)
	w = make([]float64, n)
	for i := range n {
		row := X[i*nf : (i+1)*nf]
		vertices := math.Round(math.Exp(5 + 12*r.float64()))
		meanDegree := math.Exp(4 * r.float64())
		row[0] = vertices
		row[1] = math.Round(vertices * meanDegree)
		for k := range 3 {
			base := 2 + 7*k
			spread := math.Exp(2 * r.float64())
			row[base+0] = math.Floor(meanDegree / (1 + spread))                      // min
			row[base+1] = meanDegree / (1 + spread/2)                                // q1
			row[base+2] = meanDegree                                                 // mean
			row[base+3] = meanDegree / (1 + spread/4)                                // median
			row[base+4] = meanDegree * (1 + spread/4)                                // q3
			row[base+5] = math.Round(meanDegree * (1 + spread) * (1 + vertices/1e3)) // max
			row[base+6] = meanDegree * spread                                        // stddev
		}
		frontierRel := math.Exp(-8 * r.float64())
		discoveredRel := r.float64()
		row[23] = math.Round(frontierRel * vertices)
		row[24] = frontierRel
		row[25] = math.Round(discoveredRel * vertices)
		row[26] = discoveredRel
		var label int
		switch {
		case frontierRel < 0.001:
			label = 0 // small frontier: push
			if meanDegree > 10 {
				label = 2
			}
		case discoveredRel > 0.6:
			label = 1 // mostly discovered: pull
			if row[8] > 5*meanDegree {
				label = 3
			}
		case row[1] > 1e6:
			label = 4 + int(2*discoveredRel) // big graphs: edge lists
		default:
			label = 6 + int(frontierRel*2)%2
		}
		if r.float64() < 0.05 {
			label = r.intn(len(implementations))
		}
		y[i] = label
		w[i] = math.Exp(2 * r.normal()) // level run time in ms, log-normal
	}
	return X, y, w
}

// rows splits a row-major matrix into rows.
func rows(X []float64, nf int) [][]float64 {
	out := make([][]float64, len(X)/nf)
	for r := range out {
		out[r] = X[r*nf : (r+1)*nf : (r+1)*nf]
	}
	return out
}

// randomSmall is random data for the brute-force comparison: values from a
// few levels so that duplicates (and ties) are common, integer weights so
// that the sums are exact.
func randomSmall(r *rng, n, nf, nc, levels int, weighted bool) ([][]float64, []int, []float64) {
	X := make([][]float64, n)
	y := make([]int, n)
	var w []float64
	if weighted {
		w = make([]float64, n)
	}
	for i := range X {
		X[i] = make([]float64, nf)
		for f := range X[i] {
			X[i][f] = float64(r.intn(levels)) - float64(levels)/2
		}
		y[i] = r.intn(nc)
		if weighted {
			w[i] = float64(r.intn(4)) // zero weights included
		}
	}
	return X, y, w
}
