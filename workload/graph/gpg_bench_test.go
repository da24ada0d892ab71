package graph_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// rmat22 is R-MAT scale 22, edge factor 16 (Graph500 parameters, directed),
// the size the foundation issue's .gpg target names; built once per run.
var rmat22 = sync.OnceValues(func() (*graph.CSR, error) {
	el, err := gen.RMAT{Scale: 22, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19, Directed: true}.Generate(1, nil)
	if err != nil {
		return nil, err
	}
	return graph.Build(el, graph.BuildOptions{})
})

// BenchmarkGPGWriteRMAT22 writes the scale-22 graph (4M vertices, 67M edges,
// about 302 MB) as .gpg into the page cache; MB/s is the file size per second.
func BenchmarkGPGWriteRMAT22(b *testing.B) {
	g, err := rmat22()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "rmat22.gpg")
	b.ResetTimer()
	for b.Loop() {
		if err := graph.SaveGPG(path, g, nil); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
}

// BenchmarkGPGReadRMAT22 reads the same file back, with the checksum and the
// CSR invariants verified, as every load does.
func BenchmarkGPGReadRMAT22(b *testing.B) {
	g, err := rmat22()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "rmat22.gpg")
	if err := graph.SaveGPG(path, g, nil); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		h, _, err := graph.LoadGPG(path)
		if err != nil {
			b.Fatal(err)
		}
		if h.NumEdges() != g.NumEdges() {
			b.Fatalf("read %d edges, wrote %d", h.NumEdges(), g.NumEdges())
		}
	}
}
