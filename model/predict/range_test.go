package predict

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

var updateRange = flag.Bool("update-range", false, "rewrite the embedded models' training range from the H100 manifest (TestEmbeddedModelRanges)")

// embeddedModelFiles are the model files default.go embeds.
var embeddedModelFiles = []string{"default-h100.json.gz", "heldout-graphs-h100.json.gz", "heldout-real-h100.json.gz"}

// embeddedRangeNote is how the embedded models' ranges were found: they
// were trained before models recorded their vertex counts, and are not
// retrained for it (a new fit would change their trees).
const embeddedRangeNote = "derived after training from kernels/measured/h100/manifest.json: the n and m of the model's training and validation graphs " +
	"(go test ./model/predict -run TestEmbeddedModelRanges -update-range); the trees were not refitted"

// manifestRange is the SizeRange of graphs by the BFS records of the
// embedded H100 manifest.
func manifestRange(t *testing.T, graphs []string) SizeRange {
	t.Helper()
	man, err := kernels.ReadManifest(filepath.Join("..", "..", "kernels", "measured", "h100", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	size := map[string][2]int64{}
	for _, g := range man.Graphs {
		if g.Algorithm == "" || g.Algorithm == kernels.AlgorithmBFS {
			size[g.Name] = [2]int64{g.N, g.M}
		}
	}
	for _, g := range graphs {
		if _, ok := size[g]; !ok {
			t.Fatalf("%s: not in the H100 manifest", g)
		}
	}
	r := RangeOf(graphs, func(g string) (int64, int64) { return size[g][0], size[g][1] })
	r.Note = embeddedRangeNote
	return r
}

// TestEmbeddedModelRanges checks that every embedded model records the
// size range of its training and validation graphs as the H100 manifest
// gives them, with the note saying how it was derived, and that the edge
// range the fit recorded agrees. -update-range writes the range into the
// files, changing nothing else (checked: every other field decodes the
// same).
func TestEmbeddedModelRanges(t *testing.T) {
	for _, name := range embeddedModelFiles {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := readGzipModel(raw, name)
		if err != nil {
			t.Fatal(err)
		}
		graphs := append(append([]string{}, m.Training.TrainGraphs...), m.Training.ValidationGraphs...)
		want := manifestRange(t, graphs)
		got := m.Training.Range
		if got.MinEdges != want.MinEdges || got.MaxEdges != want.MaxEdges {
			t.Errorf("%s: the fit recorded edges %d-%d, the manifest gives %d-%d for its %d graphs",
				name, got.MinEdges, got.MaxEdges, want.MinEdges, want.MaxEdges, len(graphs))
		}
		if *updateRange {
			if err := rewriteRange(name, raw, want); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: range %+v, want %+v (go test ./model/predict -run TestEmbeddedModelRanges -update-range)", name, got, want)
		}
	}
}

// rewriteRange writes the gzipped model file name (raw, its bytes) with
// its training range set to r, every other field as it was.
func rewriteRange(name string, raw []byte, r SizeRange) error {
	plain, err := gunzip(raw)
	if err != nil {
		return err
	}
	var j modelJSON
	if err := json.Unmarshal(plain, &j); err != nil {
		return err
	}
	// The training record as decoded keys: fields this version does not
	// know survive.
	var training map[string]json.RawMessage
	var top map[string]json.RawMessage
	if err := json.Unmarshal(plain, &top); err != nil {
		return err
	}
	if err := json.Unmarshal(top["training"], &training); err != nil {
		return err
	}
	if training["range"], err = json.Marshal(r); err != nil {
		return err
	}
	top["training"], err = json.Marshal(training)
	if err != nil {
		return err
	}
	out, err := json.Marshal(top)
	if err != nil {
		return err
	}
	if err := sameBut(plain, out); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(append(out, '\n'))
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// sameBut checks that the model files a and b decode to the same values
// but for training.range.
func sameBut(a, b []byte) error {
	var va, vb map[string]any
	if err := json.Unmarshal(a, &va); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		return err
	}
	delete(va["training"].(map[string]any), "range")
	delete(vb["training"].(map[string]any), "range")
	if !reflect.DeepEqual(va, vb) {
		return fmt.Errorf("the rewritten file differs beyond its range")
	}
	return nil
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}

// The range warning of "predict bfs": none inside the range, one naming
// the range and the reason outside it (each bound), and one saying the
// range is unknown for files without it.
func TestRangeWarning(t *testing.T) {
	m := &Model{Machine: "h100"}
	// The embedded default's range (kernels/measured/h100/manifest.json).
	m.Training.Range = SizeRange{MinVertices: 4039, MaxVertices: 1 << 22, MinEdges: 14548, MaxEdges: 67108864, Graphs: 179}
	for _, c := range []struct {
		n, e int64
		want string // "" for no warning, else a part of it
	}{
		{1 << 20, 1 << 24, ""},
		{4039, 14548, ""},       // the smallest: inside
		{1 << 22, 67108864, ""}, // the largest: inside
		{1 << 23, 1 << 26, "more vertices than the largest (4194304)"},
		{1 << 23, 1 << 27, "more vertices than the largest (4194304) and more edges than the largest (67108864)"},
		{1 << 20, 1 << 27, "more edges than the largest (67108864)"},
		{100, 1 << 20, "fewer vertices than the smallest (4039)"},
		{1 << 16, 1000, "fewer edges than the smallest (14548)"},
	} {
		got := RangeWarning(m, c.n, c.e)
		switch {
		case c.want == "" && got != "":
			t.Errorf("n=%d m=%d: warning %q, want none", c.n, c.e, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("n=%d m=%d: warning %q, want it to say %q", c.n, c.e, got, c.want)
		case c.want != "" && !strings.Contains(got, "179 graphs of 4039-4194304 vertices, 14548-67108864 edges, machine h100"):
			t.Errorf("n=%d m=%d: warning %q does not name the range and machine", c.n, c.e, got)
		}
	}
	// A file of before the range: one warning, that it is unknown.
	old := &Model{Machine: "h100"}
	if got := RangeWarning(old, 1<<20, 1<<24); !strings.Contains(got, "records no size range") || !strings.Contains(got, "unknown") {
		t.Errorf("no range: warning %q", got)
	}
	// A file with the edges only (written before vertices were recorded):
	// the edges are checked, the vertices said unknown.
	edgesOnly := &Model{Machine: "h100"}
	edgesOnly.Training.Range = SizeRange{MinEdges: 14548, MaxEdges: 67108864}
	if got := RangeWarning(edgesOnly, 1<<20, 1<<24); !strings.Contains(got, "not their vertices") || !strings.Contains(got, "unknown") {
		t.Errorf("edges only, inside: warning %q", got)
	}
	if got := RangeWarning(edgesOnly, 1<<20, 1<<27); !strings.Contains(got, "more edges than the largest (67108864)") || !strings.Contains(got, "no vertex range") {
		t.Errorf("edges only, outside: warning %q", got)
	}
}
