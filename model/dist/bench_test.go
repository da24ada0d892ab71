package dist

import (
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/props"
)

// BenchmarkTraverse times the partitioned traversal of Graph500 SCALE 18
// (8.4M stored edges) for the weak-scaling table's process counts
// 1, 2, ..., 64 at once; bytes/op reports the stored edges scanned.
func BenchmarkTraverse(b *testing.B) {
	r := gen.Graph500
	r.Scale, r.EdgeFactor = 18, 16
	g, err := r.BuildCSR(1, false, nil)
	if err != nil {
		b.Fatal(err)
	}
	root := props.MaxDegreeRoot(g)
	b.SetBytes(g.NumEdges())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Traverse(g, root, []int{1, 2, 4, 8, 16, 32, 64}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildCSR times the two-pass Graph500 build of SCALE 18.
func BenchmarkBuildCSR(b *testing.B) {
	r := gen.Graph500
	r.Scale, r.EdgeFactor = 18, 16
	b.SetBytes(2 * r.NumEdges())
	for b.Loop() {
		if _, err := r.BuildCSR(1, false, nil); err != nil {
			b.Fatal(err)
		}
	}
}
