package predict

import (
	"testing"

	"github.com/graphperf/graphperf/workload/props"
)

// BenchmarkPredictBFSRMAT22 times PredictBFS with the embedded default
// model on R-MAT scale 22, edge factor 16 (Graph500 parameters, made
// undirected), from the
// vertex of highest degree: the reference BFS and level properties, the
// workload of 59 implementations per level and the model. The graph is
// built outside the timer. Issue 12's target for the whole command is 10 s
// on two cores (docs/PERFORMANCE.md).
func BenchmarkPredictBFSRMAT22(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a scale-22 graph")
	}
	m, err := DefaultModel()
	if err != nil {
		b.Fatal(err)
	}
	ph := h100Physics(b)
	g := rmat(b, 22, 16, 1)
	root := props.MaxDegreeRoot(g)
	b.ResetTimer()
	for b.Loop() {
		if _, err := PredictBFS(m, g, "rmat22", root, ph); err != nil {
			b.Fatal(err)
		}
	}
}
