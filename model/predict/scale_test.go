package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/tree"
	"github.com/graphperf/graphperf/workload/props"
)

func TestVertexCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{1, "2^0"}, {1 << 20, "2^20"}, {3, "3"}, {4039, "4039"}} {
		if got := VertexCount(c.n); got != c.want {
			t.Errorf("VertexCount(%d) = %q, want %q", c.n, got, c.want)
		}
		if back, err := ParseVertexCount(c.want); err != nil || back != c.n {
			t.Errorf("ParseVertexCount(%q) = %d, %v; want %d", c.want, back, err, c.n)
		}
	}
	for _, bad := range []string{"", "0", "-4", "2^", "2^63", "2^x", "1e6"} {
		if _, err := ParseVertexCount(bad); err == nil {
			t.Errorf("ParseVertexCount(%q): no error", bad)
		}
	}
	for _, c := range []struct {
		n    int64
		want SizeBand
	}{{1, SizeBand{0, 1}}, {2, SizeBand{1, 2}}, {3, SizeBand{2, 4}}, {4, SizeBand{2, 4}}, {4039, SizeBand{2048, 4096}},
		{1 << 21, SizeBand{1 << 20, 1 << 21}}, {1<<21 + 1, SizeBand{1 << 21, 1 << 22}}} {
		if got := BandOf(c.n); got != c.want {
			t.Errorf("BandOf(%d) = %v, want %v", c.n, got, c.want)
		}
	}
	if s := BandOf(3 << 20).String(); s != "(2^21, 2^22]" {
		t.Errorf("band of 3 x 2^20: %q", s)
	}
}

// sizedDataset is a Dataset of graphs only (no levels), with the given
// vertex counts: enough for the splits.
func sizedDataset(sizes map[string]int64) *Dataset {
	ds := &Dataset{Data: &split.Data{Props: map[string]kernels.GraphPropsJSON{}}, Real: map[string]bool{}}
	for g, n := range sizes {
		ds.Graphs = append(ds.Graphs, g)
		p := ds.Data.Props[g]
		p.Vertices, p.Edges = n, 8*n
		ds.Data.Props[g] = p
	}
	slices.Sort(ds.Graphs)
	return ds
}

// The scale split puts exactly the graphs of at most N vertices on the
// training side (validation included), every larger one in the test set;
// its default N is the largest power of two below the largest graph, and
// a size that empties a side is an ErrScaleSplit naming the sizes.
func TestMakeScaleSplit(t *testing.T) {
	sizes := map[string]int64{"a": 4039, "b": 1 << 12, "c": 1<<12 + 1, "d": 1 << 16, "e": 1 << 20, "f": 1<<20 + 1,
		"g": 1 << 21, "h": 3 << 20, "i": 1 << 22, "j": 1 << 22}
	ds := sizedDataset(sizes)
	n, err := DefaultMaxTrainVertices(ds)
	if err != nil || n != 1<<21 {
		t.Fatalf("default size %d, %v; want 2^21 (the largest graph has 2^22)", n, err)
	}
	for _, c := range []struct {
		n    int64
		want int // training and validation graphs
	}{{1 << 20, 5}, {1<<20 + 1, 6}, {1 << 12, 2}, {0, 7}, {4039, 1}} {
		s, err := MakeScaleSplit(ds, c.n, 1)
		if err != nil {
			t.Fatalf("N=%d: %v", c.n, err)
		}
		cut := c.n
		if cut == 0 {
			cut = 1 << 21
		}
		if s.Kind != ByScale || s.MaxTrainVertices != cut || s.Name != "scale-"+VertexCount(cut) {
			t.Errorf("N=%d: split %q of kind %s at %d", c.n, s.Name, s.Kind, s.MaxTrainVertices)
		}
		trained := append(slices.Clone(s.Train), s.Validation...)
		if len(trained) != c.want || len(trained)+len(s.Test) != len(sizes) {
			t.Errorf("N=%d: %d training, %d test graphs; want %d and %d", c.n, len(trained), len(s.Test), c.want, len(sizes)-c.want)
		}
		for _, g := range trained {
			if sizes[g] > cut {
				t.Errorf("N=%d: training graph %s has %d vertices", c.n, g, sizes[g])
			}
		}
		for _, g := range s.Test {
			if sizes[g] <= cut {
				t.Errorf("N=%d: test graph %s has %d vertices", c.n, g, sizes[g])
			}
		}
		if c.want >= 4 && len(s.Validation) == 0 {
			t.Errorf("N=%d: no validation graphs", c.n)
		}
	}
	if ss, err := MakeSplits(ds, ByScale, 0, nil); err != nil || len(ss) != 1 || ss[0].MaxTrainVertices != 1<<21 {
		t.Errorf("MakeSplits(scale): %v, %v; want one split at the default 2^21", ss, err)
	}
	for _, c := range []struct {
		n    int64
		want string
	}{
		{1 << 22, "no graph has more than 2^22 vertices (the largest of the 10 graphs has 2^22): nothing to test on"},
		{1 << 23, "no graph has more than 2^23"},
		{4038, "no graph has at most 4038 vertices (the smallest of the 10 graphs has 4039): nothing to train on"},
	} {
		_, err := MakeScaleSplit(ds, c.n, 1)
		if !errors.Is(err, ErrScaleSplit) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "--") {
			t.Errorf("N=%d: error %v, want ErrScaleSplit saying %q and naming no flag", c.n, err, c.want)
		}
	}
}

// withTimes returns a copy of ds whose measured times on graphs are
// multiplied by factor(kernel index): every copy of a time (the rows'
// Ns, the level rows' LevelNs, the runs) changes, ds does not.
func withTimes(ds *Dataset, graphs []string, factor func(j int) float64) *Dataset {
	want := map[string]bool{}
	for _, g := range graphs {
		want[g] = true
	}
	cp := *ds
	cp.Ns = slices.Clone(ds.Ns)
	cp.Levels = slices.Clone(ds.Levels)
	col := map[string]int{}
	for j, k := range ds.Kernels {
		col[k.Name] = j
	}
	for r := range cp.Levels {
		if !want[cp.Levels[r].Graph] {
			continue
		}
		for j := range ds.K() {
			cp.Ns[r*ds.K()+j] *= factor(j)
		}
		ns := maps.Clone(cp.Levels[r].LevelNs)
		for impl := range ns {
			ns[impl] *= factor(col[impl])
		}
		cp.Levels[r].LevelNs = ns
	}
	data := *ds.Data
	data.Runs = slices.Clone(ds.Data.Runs)
	for i := range data.Runs {
		run := &data.Runs[i]
		if !want[run.Input.Graph] {
			continue
		}
		f := factor(col[run.Impl])
		run.LevelNs = slices.Clone(run.LevelNs)
		run.TotalNs = 0
		for L := range run.LevelNs {
			run.LevelNs[L] *= f
			run.TotalNs += run.LevelNs[L]
		}
	}
	cp.Data = &data
	return &cp
}

// The scale split on the synthetic dataset (R-MAT of 2^9 to 2^12
// vertices, four of each): trained on the graphs of at most 2^10 vertices,
// it is scored on the 2^11 and 2^12 graphs, per band too. Nothing the
// training chooses (the hyper-parameters on the validation graphs, the
// trees, the classification tree's settings, the best fixed
// implementation) depends on a test graph's times: changing them all
// changes no choice, while changing a validation graph's does. The
// bands' inputs and times add up to the whole; the model records the
// range of its training graphs, and predicting a larger graph warns.
func TestScaleSplitSynthetic(t *testing.T) {
	ph := h100Physics(t)
	ds, _ := synthetic(t, ph)
	s, err := MakeScaleSplit(ds, 1<<10, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Train)+len(s.Validation) != 8 || len(s.Test) != 8 || len(s.Validation) != 2 {
		t.Fatalf("split %d + %d / %d graphs, want 6 + 2 / 8", len(s.Train), len(s.Validation), len(s.Test))
	}
	grid := Grid{Targets: []Target{TargetResidual}, MaxLeaves: []int{15}, MinLeaf: []int{5, 20},
		Base: tree.BoostParams{Trees: 60, LearningRate: 0.1, Bins: 255, Subsample: 1, FeatureFraction: 1, EarlyStopping: 20}}
	res, m, err := EvaluateSplit(ds, s, grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	modelJSON := func(m *Model) []byte {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// Test graphs' times scaled by 1.5-3.5 per implementation: the per-level
	// optimum moves between implementations there, and nothing chosen moves.
	scaled := withTimes(ds, s.Test, func(j int) float64 { return 1.5 + float64(j%5)/2 })
	res2, m2, err := EvaluateSplit(scaled, s, grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(modelJSON(m), modelJSON(m2)) {
		t.Error("the model (hyper-parameters, candidates, trees) changed with the test graphs' times")
	}
	if res2.TreeParams != res.TreeParams || res2.Model.BestFixed.Name != res.Model.BestFixed.Name {
		t.Errorf("tree settings %+v -> %+v, best fixed %s -> %s: changed with the test graphs' times",
			res.TreeParams, res2.TreeParams, res.Model.BestFixed.Name, res2.Model.BestFixed.Name)
	}
	if res2.Model.MixAndMatch.TimeNs == res.Model.MixAndMatch.TimeNs {
		t.Error("the scores did not change with the test graphs' times: the check above checked nothing")
	}
	// The control: a validation graph's times do move the validation scores.
	val := withTimes(ds, s.Validation[:1], func(j int) float64 { return 1.5 + float64(j%5)/2 })
	mv, err := Train(val, s, grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(mv.Training.Candidates, m.Training.Candidates) {
		t.Error("a validation graph's times changed no validation score")
	}

	// The bands: (2^10, 2^11] and (2^11, 2^12], adding up to the whole.
	if len(res.Bands) != 2 || res.Bands[0].Band != (SizeBand{1 << 10, 1 << 11}) || res.Bands[1].Band != (SizeBand{1 << 11, 1 << 12}) {
		t.Fatalf("bands %+v", res.Bands)
	}
	var inputs int
	var timeNs, optNs, bnsNs float64
	var graphs []string
	for _, b := range res.Bands {
		inputs += b.Score.Inputs
		timeNs += b.Score.MixAndMatch.TimeNs
		optNs += b.Score.MixAndMatch.OptimalNs
		bnsNs += b.Score.BestNonSwitching.TimeNs
		graphs = append(graphs, b.Graphs...)
		if len(b.Graphs) != 4 {
			t.Errorf("band %s: %d graphs, want 4", b.Band, len(b.Graphs))
		}
	}
	whole := res.Model
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if inputs != whole.Inputs || !near(timeNs, whole.MixAndMatch.TimeNs) || !near(optNs, whole.MixAndMatch.OptimalNs) ||
		!near(bnsNs, whole.BestNonSwitching.TimeNs) {
		t.Errorf("bands sum to %d inputs, %g / %g / %g ns; the whole has %d, %g / %g / %g",
			inputs, timeNs, optNs, bnsNs, whole.Inputs, whole.MixAndMatch.TimeNs, whole.MixAndMatch.OptimalNs, whole.BestNonSwitching.TimeNs)
	}
	slices.Sort(graphs)
	if !slices.Equal(graphs, s.Test) {
		t.Errorf("bands hold %v, the test graphs are %v", graphs, s.Test)
	}
	ev := &Evaluation{Splits: []*SplitResult{res}}
	bt := ev.BandTable(false)
	if len(bt.Rows) != 3 || bt.Rows[2][1] != "all" || bt.Rows[0][1] != "(2^10, 2^11]" {
		t.Errorf("band table rows %v", bt.Rows)
	}
	if err := bt.Declared(); err != nil {
		t.Error(err)
	}
	row := res.Row()
	if row.MaxTrainVertices != 1<<10 || len(row.Bands) != 2 || row.Bands[1].MinVertices != 1<<11+1 || row.Bands[1].MaxVertices != 1<<12 ||
		row.DOBFS != nil { // the synthetic data has no dobfs
		t.Errorf("JSON row: size %d, bands %+v, dobfs %v", row.MaxTrainVertices, row.Bands, row.DOBFS)
	}

	// The training range: the training and validation graphs'.
	trained := append(slices.Clone(s.Train), s.Validation...)
	want := RangeOf(trained, func(g string) (int64, int64) { return ds.Data.Props[g].Vertices, ds.Data.Props[g].Edges })
	if r := m.Training.Range; r != want || r.MaxVertices != 1<<10 || r.MinVertices != 1<<9 || r.Graphs != 8 {
		t.Errorf("range %+v, want %+v (2^9-2^10 vertices, 8 graphs)", r, want)
	}
	// A saved scale model is scored per band on the graphs it did not see.
	saved, err := EvaluateSaved(ds, m, "m.json", EvaluateParams{})
	if err != nil {
		t.Fatal(err)
	}
	if got := saved.Splits[0]; len(got.Bands) != 2 || got.Bands[0].Score.MixAndMatch != res.Bands[0].Score.MixAndMatch ||
		got.Split.Kind != ByScale || got.Split.MaxTrainVertices != 1<<10 {
		t.Errorf("saved model: %s at %d, bands %+v; want a scale split at 2^10 with the bands of the split", got.Split.Kind, got.Split.MaxTrainVertices, got.Bands)
	}

	// predict bfs: a graph of the training side is inside the range, one of
	// 2^13 vertices outside; a file without the range warns it is unknown.
	inside := rmat(t, 9, 4, 1) // graph rmat-a of synthetic, always a training graph at 2^10
	big := rmat(t, 13, 8, 99)
	p, err := PredictBFS(m, inside, "inside", props.MaxDegreeRoot(inside), ph)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(p.Warnings, "\n"); strings.Contains(w, "range") {
		t.Errorf("a training graph's size: warnings %q", w)
	}
	p, err = PredictBFS(m, big, "big", props.MaxDegreeRoot(big), ph)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, "more vertices than the largest (1024)") || !strings.Contains(w, "512-1024 vertices") {
		t.Errorf("a 2^13 graph: warnings %q, want the range 512-1024 vertices and its reason", w)
	}
	b, err := json.Marshal(p)
	if err != nil || !bytes.Contains(b, []byte(`"warnings":[`)) {
		t.Errorf("the JSON %s has no warnings", b)
	}
	var file map[string]any
	if err := json.Unmarshal(modelJSON(m), &file); err != nil {
		t.Fatal(err)
	}
	delete(file["training"].(map[string]any), "range")
	old, _ := json.Marshal(file)
	mOld, err := ReadModel(bytes.NewReader(old), "old.json")
	if err != nil {
		t.Fatalf("a file without its range: %v", err)
	}
	p, err = PredictBFS(mOld, inside, "inside", props.MaxDegreeRoot(inside), ph)
	if err != nil {
		t.Fatal(err)
	}
	if n := countContaining(p.Warnings, "range"); n != 1 || !strings.Contains(strings.Join(p.Warnings, ""), "unknown") {
		t.Errorf("a file without its range: warnings %q, want one saying it is unknown", p.Warnings)
	}
}

func countContaining(ss []string, part string) int {
	n := 0
	for _, s := range ss {
		if strings.Contains(s, part) {
			n++
		}
	}
	return n
}
