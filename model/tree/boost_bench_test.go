package tree

import (
	"sync"
	"testing"
)

// regressionCache keeps the synthetic regression sets between benchmarks:
// 650000 x 50 takes seconds to generate.
var regressionCache sync.Map

type regressionSet struct{ X, y []float64 }

func cachedRegressionData(n, nf int, seed uint64) regressionSet {
	key := [3]uint64{uint64(n), uint64(nf), seed}
	if v, ok := regressionCache.Load(key); ok {
		return v.(regressionSet)
	}
	X, y := regressionData(n, nf, seed)
	s := regressionSet{X, y}
	regressionCache.Store(key, s)
	return s
}

// BenchmarkFitBoost: one FitBoost of 100 trees of 31 leaves on the shape
// of the level-time data, 650000 rows x 50 features (about 650000 BFS
// levels x (level, implementation) features). One fit takes seconds, so
// run it with -benchtime=1x (or 2x); ns/op is the time of one fit,
// binning included, and rows*trees/s the throughput.
//
//	go test ./model/tree/ -run '^$' -bench FitBoost -benchtime 1x
func BenchmarkFitBoost(b *testing.B) {
	for _, bc := range []struct {
		name  string
		n, nf int
		p     BoostParams
	}{
		{"650k_x50_100trees", 650000, 50, BoostParams{Trees: 100, MaxLeaves: 31, MinLeaf: 20}},
		{"650k_x50_100trees_subsample0.5", 650000, 50, BoostParams{Trees: 100, MaxLeaves: 31, MinLeaf: 20, Subsample: 0.5, Seed: 1}},
		{"65k_x50_100trees", 65000, 50, BoostParams{Trees: 100, MaxLeaves: 31, MinLeaf: 20}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := cachedRegressionData(bc.n, bc.nf, 1)
			var m *Regressor
			for b.Loop() {
				var err error
				m, err = FitBoost(s.X, bc.nf, s.y, nil, nil, bc.p, nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bc.n)*float64(bc.p.Trees)*float64(b.N)/b.Elapsed().Seconds(), "rows*trees/s")
			b.ReportMetric(m.Loss[len(m.Loss)-1], "train-mse")
		})
	}
}

// BenchmarkRegressorPredict (BenchmarkPredict is the Classifier's): one
// prediction of 100 trees of 31 leaves fitted on
// 65000 rows x 50 features, inputs cycling through 4096 held-out rows.
func BenchmarkRegressorPredict(b *testing.B) {
	const nf = 50
	s := cachedRegressionData(65000, nf, 1)
	m, err := FitBoost(s.X, nf, s.y, nil, nil, BoostParams{Trees: 100, MaxLeaves: 31, MinLeaf: 20}, nil)
	if err != nil {
		b.Fatal(err)
	}
	test := cachedRegressionData(4096, nf, 2)
	sum, i := 0.0, 0
	for b.Loop() {
		sum += m.Predict(test.X[i*nf : (i+1)*nf])
		i = (i + 1) & 4095
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/tree")
	if sum == 0.5 {
		b.Log(sum)
	}
}
