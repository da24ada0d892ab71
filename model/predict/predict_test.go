package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/tree"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

func h100Physics(t testing.TB) Physics {
	t.Helper()
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	ph, err := NewPhysics(m)
	if err != nil {
		t.Fatal(err)
	}
	return ph
}

func rmat(t testing.TB, scale, ef int, seed uint64) *graph.CSR {
	t.Helper()
	el, err := gen.RMAT{Scale: scale, EdgeFactor: ef, A: 0.57, B: 0.19, C: 0.19, Permute: true}.Generate(seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true, DropSelfLoops: true, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPhysicsH100(t *testing.T) {
	ph := h100Physics(t)
	// model/machine/machines/h100.yaml: level_overhead 7.488 us, dram
	// latency 349.0 ns, read bandwidth 3.065 TB/s, 132 SMs x 64 warps,
	// 32-byte L2 sectors.
	want := Physics{OverheadNs: 7488, LatencyNs: 349, BytesPerNs: 3065, Warps: 8448, SectorBytes: 32}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"overhead", ph.OverheadNs, want.OverheadNs}, {"latency", ph.LatencyNs, want.LatencyNs},
		{"bandwidth", ph.BytesPerNs, want.BytesPerNs}, {"warps", ph.Warps, want.Warps}, {"sector", ph.SectorBytes, want.SectorBytes},
	} {
		if math.Abs(c.got-c.want) > 1e-6*c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if _, err := NewPhysics(&machine.Machine{Name: "bare"}); err == nil {
		t.Error("a machine with no latencies gave no error")
	}
}

// TestFeatures checks the feature rows of every runner implementation on
// an R-MAT graph: one row per (level, kernel), finite, with a base time of
// at least T_0, and the physics a reader would check by hand.
func TestFeatures(t *testing.T) {
	ph := h100Physics(t)
	g := rmat(t, 12, 8, 1)
	ks, err := ParseKernels(cost.AllBFSKernels())
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 59 {
		t.Fatalf("%d kernels, want the runner's 59", len(ks))
	}
	hub := props.MaxDegreeRoot(g)
	// A root of out-degree 1 whose neighbour is not the hub: level 0 is
	// one vertex and one edge.
	root := uint32(0)
	for v := range g.NumVertices() {
		if nb := g.Neighbours(uint32(v)); len(nb) == 1 && nb[0] != hub {
			root = uint32(v)
			break
		}
	}
	levels := cost.BFSLevels(g, root)
	gr := &Graph{Name: "rmat12", Props: DegreeProps(g)}
	x, base := Features(gr, levels, ks, ph)
	nf := len(FeatureNames)
	if len(x) != len(levels)*len(ks)*nf || len(base) != len(levels)*len(ks) {
		t.Fatalf("%d features and %d base times for %d levels x %d kernels x %d features", len(x), len(base), len(levels), len(ks), nf)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("feature %s of row %d is %g", FeatureNames[i%nf], i/nf, v)
		}
	}
	for i, b := range base {
		if !(b >= ph.OverheadNs) {
			t.Fatalf("row %d: base %g below T_0", i, b)
		}
	}
	at := func(L int, name string) float64 {
		for j, k := range ks {
			if k.Name == name {
				return base[L*len(ks)+j]
			}
		}
		t.Fatalf("no kernel %s", name)
		return 0
	}
	// Level 0 has one frontier vertex: an edge list reads all m edges,
	// the queue only the root's.
	if at(0, "edge-list/atomic") <= at(0, "queue") {
		t.Errorf("level 0: edge-list base %g <= queue base %g", at(0, "edge-list/atomic"), at(0, "queue"))
	}
	// From the hub, its chain of d_max rounds makes thread-per-vertex push
	// slower than 32 lanes per vertex.
	hubLevels := cost.BFSLevels(g, hub)
	xh, bh := Features(gr, hubLevels[:1], ks, ph)
	_ = xh
	jp, jw := slices.IndexFunc(ks, func(k Kernel) bool { return k.Name == "vertex-push/atomic" }),
		slices.IndexFunc(ks, func(k Kernel) bool { return k.Name == "vertex-push-warp32/atomic" })
	if bh[jp] <= bh[jw] {
		t.Errorf("level 0 from the hub: vertex-push base %g <= vertex-push-warp32 base %g", bh[jp], bh[jw])
	}
	// The graph properties are the 23 of seed 004 (and directed).
	if gr.Props.Vertices != int64(g.NumVertices()) || gr.Props.Edges != g.NumEdges() || gr.Props.Directed {
		t.Errorf("props %+v", gr.Props)
	}
}

func TestTargetRoundTrip(t *testing.T) {
	for _, tg := range []Target{TargetLog, TargetResidual} {
		if got := tg.decode(tg.encode(12345, 678), 678); math.Abs(got-12345) > 1e-6 {
			t.Errorf("%s: %g", tg, got)
		}
	}
	if _, err := ParseTarget("linear"); err == nil {
		t.Error("ParseTarget(linear) gave no error")
	}
}

// synthetic is a measured dataset whose level times follow a known rule, so
// that a model trained on half of it must find the fastest implementation on
// the other half: time = base x a per-family factor that depends on the
// frontier share (push families fast on small frontiers, pull families on
// large ones), with 2 % multiplicative noise.
func synthetic(t testing.TB, ph Physics) (*Dataset, map[string][]cost.BFSLevel) {
	t.Helper()
	impls := []string{"queue", "vertex-push/atomic", "vertex-pull/atomic", "edge-list/atomic", "vertex-push-warp32/atomic"}
	ks, err := ParseKernels(impls)
	if err != nil {
		t.Fatal(err)
	}
	d := &split.Data{Frontiers: map[aggregate.Input][]int64{}, Props: map[string]kernels.GraphPropsJSON{}, Real: map[string]bool{}}
	levelsOf := map[string][]cost.BFSLevel{}
	noise := uint64(1)
	for i := range 16 {
		name := "rmat-" + string(rune('a'+i))
		g := rmat(t, 9+i%4, 4+4*(i%3), uint64(i+1))
		root := props.MaxDegreeRoot(g)
		lv := cost.BFSLevels(g, root)
		levelsOf[name] = lv
		d.Props[name] = DegreeProps(g)
		in := aggregate.Input{Graph: name, Root: root}
		for _, l := range lv {
			d.Frontiers[in] = append(d.Frontiers[in], l.Frontier)
		}
		x, base := Features(&Graph{Name: name, Props: d.Props[name]}, lv, ks, ph)
		_ = x
		for j, k := range ks {
			run := aggregate.Run{Input: in, Impl: k.Name, Vertices: int64(g.NumVertices()), Edges: g.NumEdges()}
			for L := range lv {
				share := lv[L].FrontierRel
				factor := map[string]float64{
					"queue": 1 + 8*share, "vertex-push/atomic": 2 + 4*share, "vertex-pull/atomic": 6 - 5*share,
					"edge-list/atomic": 3, "vertex-push-warp32/atomic": 2.5 + 2*share,
				}[k.Name]
				noise = noise*6364136223846793005 + 1442695040888963407
				e := 1 + 0.02*(float64(noise>>11)/(1<<53)-0.5)
				ns := base[L*len(ks)+j] * factor * e
				run.LevelNs = append(run.LevelNs, ns)
				run.TotalNs += ns
			}
			d.Runs = append(d.Runs, run)
		}
	}
	ds, err := NewDataset(d, func(g string, root int64) ([]cost.BFSLevel, error) { return levelsOf[g], nil }, ph)
	if err != nil {
		t.Fatal(err)
	}
	return ds, levelsOf
}

func TestTrainSynthetic(t *testing.T) {
	ph := h100Physics(t)
	ds, _ := synthetic(t, ph)
	if len(ds.Graphs) != 16 || ds.K() != 5 {
		t.Fatalf("%d graphs, %d kernels", len(ds.Graphs), ds.K())
	}
	splits, err := MakeSplits(ds, ByGraphs, 0.5, []uint64{3})
	if err != nil {
		t.Fatal(err)
	}
	grid := Grid{Targets: []Target{TargetResidual}, MaxLeaves: []int{15}, MinLeaf: []int{5},
		Base: tree.BoostParams{Trees: 150, LearningRate: 0.1, Bins: 255, Subsample: 1, FeatureFraction: 1, EarlyStopping: 20}}
	res, m, err := EvaluateSplit(ds, splits[0], grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The rule puts the per-level optimum on different families at
	// different levels; a model that learned it gets within the noise of
	// the optimum and below every single implementation.
	if res.Model.MixAndMatch.Total > 1.03 {
		t.Errorf("Mix-and-Match %.3fx the optimum on held-out synthetic graphs, want <= 1.03", res.Model.MixAndMatch.Total)
	}
	if res.Model.MixAndMatch.Total >= res.Model.BestNonSwitching.Total {
		t.Errorf("Mix-and-Match %.3f does not beat best non-switching %.3f", res.Model.MixAndMatch.Total, res.Model.BestNonSwitching.Total)
	}
	if res.Model.MedianError > 0.05 {
		t.Errorf("median error %.3f, want <= 0.05 (2 %% noise)", res.Model.MedianError)
	}
	if res.Tree.Total < 1 {
		t.Errorf("classification tree %.3f below the optimum", res.Tree.Total)
	}
	// A model file round trip predicts the same.
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := ReadModel(bytes.NewReader(b), "model.json")
	if err != nil {
		t.Fatal(err)
	}
	test := ds.LevelsOf(splits[0].Test)
	p1, p2 := m.PredictDataset(ds, test), m2.PredictDataset(ds, test)
	for i := range p1 {
		if !(p1[i] == p2[i] || math.IsNaN(p1[i]) && math.IsNaN(p2[i])) {
			t.Fatalf("row %d: %g before the round trip, %g after", i, p1[i], p2[i])
		}
	}
	if !slices.Equal(m2.Training.TestGraphs, splits[0].Test) {
		t.Errorf("test graphs %v, want %v", m2.Training.TestGraphs, splits[0].Test)
	}
	// A model whose base time is not the one this version computes is
	// refused: its target would be decoded against another base.
	other := *m
	other.Base = BaseVariant + "-other"
	if b, err = json.Marshal(&other); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadModel(bytes.NewReader(b), "model.json"); err == nil || !strings.Contains(err.Error(), "base time") {
		t.Errorf("a model of another base time: error %v, want one about the base time", err)
	}
}

func TestReadModelErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"not json", "{", "model.json"},
		{"other format", `{"format":"graphperf-tree","version":1}`, "not a graphperf time model"},
		{"newer version", `{"format":"graphperf-time-model","version":99}`, "version 99"},
		{"other features", `{"format":"graphperf-time-model","version":1,"features":["a"]}`, "features"},
	} {
		_, err := ReadModel(strings.NewReader(c.in), "model.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.name, err, c.want)
		}
	}
	_, err := ReadModel(strings.NewReader(`{"format":"x","version":1}`), "m")
	if !errors.Is(err, ErrNotModel) {
		t.Errorf("error %v is not ErrNotModel", err)
	}
}

func TestMakeSplits(t *testing.T) {
	ds := &Dataset{Real: map[string]bool{"email-enron": true, "soc-slashdot0902": true}}
	for _, g := range []string{"rmat-s12-e8", "rmat-s14-e4", "er-s12-e4", "er-s14-e8", "ws-s12-k8", "ws-s14-k4",
		"road-64x64", "road-128x128", "ba-s12-m4", "ba-s14-m2", "email-enron", "soc-slashdot0902"} {
		ds.Graphs = append(ds.Graphs, g)
	}
	slices.Sort(ds.Graphs)
	check := func(s Split) {
		t.Helper()
		seen := map[string]int{}
		for _, list := range [][]string{s.Train, s.Validation, s.Test} {
			for _, g := range list {
				seen[g]++
			}
		}
		for g, n := range seen {
			if n > 1 {
				t.Errorf("%s: graph %s on %d sides", s.Name, g, n)
			}
		}
		if len(s.Train) == 0 || len(s.Validation) == 0 || len(s.Test) == 0 {
			t.Errorf("%s: an empty side: %d/%d/%d", s.Name, len(s.Train), len(s.Validation), len(s.Test))
		}
	}
	gs, err := MakeSplits(ds, ByGraphs, 0.5, []uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range gs {
		check(s)
		if len(s.Test) != 6 || len(s.Train)+len(s.Validation) != 6 {
			t.Errorf("%s: %d test, %d training graphs of 12 at 0.5", s.Name, len(s.Test), len(s.Train)+len(s.Validation))
		}
	}
	if slices.Equal(gs[0].Test, gs[1].Test) {
		t.Error("seeds 1 and 2 hold out the same graphs")
	}
	again, _ := MakeSplits(ds, ByGraphs, 0.5, []uint64{1})
	if !slices.Equal(again[0].Test, gs[0].Test) || !slices.Equal(again[0].Validation, gs[0].Validation) {
		t.Error("the same seed gave another split")
	}
	fs, err := MakeSplits(ds, ByFamily, 0, []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 6 { // ba, er, real, rmat, road, ws
		t.Errorf("%d family splits, want 6", len(fs))
	}
	for _, s := range fs {
		check(s)
		fam := ds.Family(s.Test[0])
		for _, g := range append(append([]string{}, s.Train...), s.Validation...) {
			if ds.Family(g) == fam {
				t.Errorf("%s: %s of the held-out family trains", s.Name, g)
			}
		}
	}
	rs, err := MakeSplits(ds, ToReal, 0, []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	check(rs[0])
	if !slices.Equal(rs[0].Test, []string{"email-enron", "soc-slashdot0902"}) {
		t.Errorf("real split tests %v", rs[0].Test)
	}
	for _, bad := range []float64{0, 1, -0.5} {
		if _, err := MakeSplits(ds, ByGraphs, bad, nil); err == nil {
			t.Errorf("fraction %g gave no error", bad)
		}
	}
	if _, err := MakeSplits(ds, "steps", 0.5, nil); err == nil {
		t.Error("an unknown kind gave no error")
	}
}

// TestBound checks the level's bound: the largest of the base time's three
// terms, and that PredictBFS names one for every level.
func TestBound(t *testing.T) {
	for _, c := range []struct {
		o, b, l float64
		want    string
	}{{7488, 100, 200, "overhead"}, {7488, 9000, 200, "bandwidth"}, {7488, 9000, 12000, "latency"}, {7488, 0, 7489, "latency"}} {
		if got := boundOf(c.o, c.b, c.l); got != c.want {
			t.Errorf("boundOf(%g, %g, %g) = %s, want %s", c.o, c.b, c.l, got, c.want)
		}
	}
	m, err := DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	ph := h100Physics(t)
	// A large R-MAT's first full level moves more bytes than T_0 covers;
	// its last levels are fixed cost.
	g := rmat(t, 16, 16, 1)
	root, deg := uint32(0), g.OutDegrees()
	for v := range deg {
		if deg[v] > deg[root] {
			root = uint32(v)
		}
	}
	p, err := PredictBFS(m, g, "rmat16", root, ph)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range p.Levels {
		if l.Bound == "" {
			t.Fatalf("level %d has no bound", l.Level)
		}
		seen[l.Bound] = true
	}
	if !seen["overhead"] || len(seen) < 2 {
		t.Errorf("bounds %v: want the overhead of the small levels and another", seen)
	}
}

// TestCloseCalls: the warning appears when levels predicted below
// CloseOverhead x T_0 with a runner-up within CloseShare hold more than
// half of the predicted time, and not otherwise.
func TestCloseCalls(t *testing.T) {
	const t0 = 7500.0
	level := func(best, second float64) LevelPrediction {
		return LevelPrediction{Times: []ImplTime{{Impl: "a", Ns: best}, {Impl: "b", Ns: second}}}
	}
	pred := func(ls ...LevelPrediction) *Prediction {
		p := &Prediction{Levels: ls, BestSingle: ImplTime{Impl: "a"}}
		for _, l := range ls {
			p.MixAndMatchNs += l.Times[0].Ns
			p.BestSingle.Ns += l.Times[0].Ns
		}
		return p
	}
	for _, c := range []struct {
		name string
		p    *Prediction
		warn bool
	}{
		{"all close at T0", pred(level(8000, 8200), level(8000, 8300), level(9000, 9100)), true},
		{"close levels under half the time", pred(level(8000, 8200), level(30000, 31000)), false},
		{"runner-up 10 % slower", pred(level(8000, 8800), level(8000, 8900)), false},
		{"far above T0", pred(level(20000, 20100), level(20000, 20100)), false},
	} {
		w := closeCalls(c.p, t0)
		if (w != "") != c.warn {
			t.Errorf("%s: warning %q, want one: %v", c.name, w, c.warn)
		}
	}
	if w := closeCalls(pred(level(8000, 8200), level(8000, 8300), level(9000, 9100)), t0); !strings.Contains(w, "at 3 of 3 levels (100 %") {
		t.Errorf("warning %q, want it to count 3 of 3 levels", w)
	}
}
