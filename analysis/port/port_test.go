package port_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/internal/porttest"
	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/portability"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/cost"
)

// fixture is the two-platform store of porttest, built once.
var fixture = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "port-test-")
	if err != nil {
		return "", err
	}
	return porttest.Build(dir)
})

func openFixture(t *testing.T) *store.DB {
	t.Helper()
	path, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// raw is the fixture's times read straight from the embedded runner
// files, without the store: the total median per (input, impl) and the
// level medians, of the verified runs.
type raw struct {
	total  map[string]map[string]float64 // input -> impl -> ns
	levels map[string]map[string][]float64
}

func readRaw(t *testing.T) raw {
	t.Helper()
	dir, err := measured.Dir()
	if err != nil {
		t.Fatal(err)
	}
	r := raw{total: map[string]map[string]float64{}, levels: map[string]map[string][]float64{}}
	for _, g := range porttest.Graphs {
		f, err := os.Open(filepath.Join(dir, g+".jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l struct {
				Type, Graph, Impl string
				Root              uint32
				Level             int
				Verified          bool
				MedianNs          float64 `json:"median_ns"`
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			in := strings.TrimSuffix(l.Graph, ".gpg") + "@" + itoa(l.Root)
			switch l.Type {
			case "total":
				if !l.Verified {
					continue
				}
				if r.total[in] == nil {
					r.total[in] = map[string]float64{}
				}
				r.total[in][l.Impl] = l.MedianNs
			case "level":
				if r.levels[in] == nil {
					r.levels[in] = map[string][]float64{}
				}
				lv := r.levels[in][l.Impl]
				for len(lv) <= l.Level {
					lv = append(lv, 0)
				}
				lv[l.Level] = l.MedianNs
				r.levels[in][l.Impl] = lv
			}
		}
		f.Close()
	}
	return r
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// scale is the synthetic GPU's time of impl for an H100 time.
func scale(impl string, ns float64) float64 {
	if porttest.MemoryBound(impl) {
		return ns / porttest.Factor
	}
	return ns
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

func TestLoadAndPlatforms(t *testing.T) {
	db := openFixture(t)
	// Two platforms: the fixture's whole point, and the error every
	// one-platform loader must give now.
	if _, _, err := split.FromStore(db, ""); !errors.Is(err, store.ErrPlatform) || !strings.Contains(err.Error(), porttest.Second) {
		t.Fatalf("FromStore on two platforms: %v, want a *store.PlatformError naming both", err)
	}
	d, _, err := split.FromStoreOn(db, "", "h200")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 40*len(kernels.Impls) {
		// 8 graphs x 5 roots x 59 implementations, every run verified
		t.Errorf("%d runs on the synthetic GPU, want %d", len(d.Runs), 40*len(kernels.Impls))
	}
	r := readRaw(t)
	for _, run := range d.Runs {
		want := scale(run.Impl, r.total[run.Graph+"@"+itoa(run.Root)][run.Impl])
		if !near(run.TotalNs, want) {
			t.Fatalf("%s on %v: %v ns on the synthetic GPU, want %v", run.Impl, run.Input, run.TotalNs, want)
		}
	}
	m, err := port.Load(db, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Platforms, "|") != porttest.First+"|"+porttest.Second || len(m.Warnings) != 0 {
		t.Errorf("platforms %q, warnings %q", m.Platforms, m.Warnings)
	}
	if _, err := port.Load(db, "", []string{"h"}); !errors.Is(err, store.ErrPlatform) {
		t.Errorf(`"h" matches both: %v`, err)
	}
}

// TestPP checks every implementation's PP against one computed here from
// the runner files: e_i = sum of per-input best / sum of its times.
func TestPP(t *testing.T) {
	db := openFixture(t)
	m, err := port.Load(db, "", []string{"H100", "synthetic"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := port.PP(m, nil, aggregate.AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.Table(), map[string]string{"e[H100]": "number"})
	r := readRaw(t)
	if res.Inputs != len(r.total) {
		t.Fatalf("%d common inputs, want %d", res.Inputs, len(r.total))
	}
	var best [2]float64
	sum := map[string]*[2]float64{}
	for _, byImpl := range r.total {
		b := [2]float64{math.Inf(1), math.Inf(1)}
		for impl, ns := range byImpl {
			b[0], b[1] = math.Min(b[0], ns), math.Min(b[1], scale(impl, ns))
			if sum[impl] == nil {
				sum[impl] = &[2]float64{}
			}
			sum[impl][0] += ns
			sum[impl][1] += scale(impl, ns)
		}
		best[0] += b[0]
		best[1] += b[1]
	}
	if len(res.Rows) != len(sum) {
		t.Fatalf("%d rows, want %d", len(res.Rows), len(sum))
	}
	for _, row := range res.Rows {
		s := sum[row.Implementation]
		e0, e1 := best[0]/s[0], best[1]/s[1]
		pp := 2 / (1/e0 + 1/e1)
		if !near(row.Efficiencies[0], e0) || !near(row.Efficiencies[1], e1) || !near(row.PP, pp) {
			t.Errorf("%s: e %v PP %v, want [%v %v] PP %v", row.Implementation, row.Efficiencies, row.PP, e0, e1, pp)
		}
	}
	// The memory-bound kinds gain on the synthetic GPU, so their
	// efficiency rises there and every other one's falls.
	for _, row := range res.Rows {
		if up := row.Efficiencies[1] > row.Efficiencies[0]; up != porttest.MemoryBound(row.Implementation) {
			t.Errorf("%s: efficiency %v -> %v", row.Implementation, row.Efficiencies[0], row.Efficiencies[1])
		}
	}
}

func TestSpeedup(t *testing.T) {
	db := openFixture(t)
	m, err := port.Load(db, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := porttest.Machine(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h200, err := machine.Load(yaml)
	if err != nil {
		t.Fatal(err)
	}
	res, err := port.Speedup(m, porttest.First, porttest.Second, machine.Default(), h200, port.DefaultSpeedupOptions)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.Table(), map[string]string{"speedup": "number x"})
	// The read ceilings of the two files: 3.065 TB/s (h100.yaml) and
	// 3.065 x 1.4 = 4.291 TB/s.
	if !near(res.Ratio, 4.291/3.065) || res.RatioKind != "measured read bandwidth" {
		t.Errorf("bandwidth ratio %v (%s), want %v", res.Ratio, res.RatioKind, 4.291/3.065)
	}
	if len(res.Rows) != len(kernels.Impls) {
		t.Fatalf("%d rows", len(res.Rows))
	}
	for _, r := range res.Rows {
		want, class := 1.0, port.OverheadBound
		if porttest.MemoryBound(r.Implementation) {
			want, class = porttest.Factor, port.MemoryBound
		}
		if !near(r.Speedup, want) || r.Class != class || r.Inputs != 40 || r.Levels == 0 ||
			math.Abs(r.Quantiles[0]-want) > 1e-9 || math.Abs(r.Quantiles[4]-want) > 1e-9 {
			t.Errorf("%s: speedup %v class %s inputs %d levels %d quantiles %v, want %v %s", r.Implementation, r.Speedup, r.Class,
				r.Inputs, r.Levels, r.Quantiles, want, class)
		}
	}
}

// TestSpecializeFixture: on the synthetic GPU every member of a group
// speeds up alike, so each platform's optimum is the other's, and tuning
// for either is fair (or no specialization at all).
func TestSpecializeFixture(t *testing.T) {
	db := openFixture(t)
	m, err := port.Load(db, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := port.Specialize(m, nil, portability.DefaultNoise)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.Table(), map[string]string{"class": "text"})
	r := readRaw(t)
	sum := map[string]float64{}
	for _, byImpl := range r.total {
		for impl, ns := range byImpl {
			sum[impl] += ns
		}
	}
	// 8 width groups and 14 aggregation groups, two targets each.
	if len(res.Rows) != 2*(8+14) || res.Counts["anti-social"] != 0 || res.Counts["illegal"] != 0 {
		t.Fatalf("%d rows, counts %v", len(res.Rows), res.Counts)
	}
	for _, row := range res.Rows {
		if row.Optima[0] != row.Optima[1] {
			t.Errorf("%s: optima %v differ", row.Group, row.Optima)
		}
		// The optimum over the H100's raw sums.
		best := row.Default
		for impl, s := range sum {
			if groupOf(row, impl) && s < sum[best] {
				best = impl
			}
		}
		if row.Tuned != best {
			t.Errorf("%s for %s: tuned %s, want %s", row.Group, row.Target, row.Tuned, best)
		}
		wantClass := portability.Fair
		if best == row.Default {
			wantClass = ""
		}
		if row.Verdict.Class != wantClass || !near(row.AfterNs[0]/row.BeforeNs[0], sum[best]/sum[row.Default]) {
			t.Errorf("%s for %s: %s, change %v, want %s %v", row.Group, row.Target, row.Verdict.Class,
				row.AfterNs[0]/row.BeforeNs[0], wantClass, sum[best]/sum[row.Default])
		}
	}
}

// groupOf says whether impl belongs to row's group.
func groupOf(row port.SpecRow, impl string) bool {
	prefix, suffix, _ := strings.Cut(row.Group, "*")
	if row.Parameter == port.ParamWidth {
		return strings.HasPrefix(impl, prefix) && strings.HasSuffix(impl, suffix) && len(impl) > len(prefix)+len(suffix)
	}
	return strings.HasPrefix(impl, prefix)
}

// TestSpecializeClasses builds the three classes by hand.
func TestSpecializeClasses(t *testing.T) {
	in := aggregate.Input{Graph: "g", Root: 0}
	run := func(impl string, ns float64) aggregate.Run { return aggregate.Run{Input: in, Impl: impl, TotalNs: ns} }
	w := func(width string) string { return "vertex-push-warp" + width + "/atomic" }
	m := &port.Measurements{Platforms: []string{"A", "B"}, Runs: map[string][]aggregate.Run{
		// Width: A's optimum is 8 (B loses 20% with it: anti-social); B's
		// is 16 (A gains with it too: fair).
		// Aggregation of vertex-push: A's optimum bulk has no run on B:
		// illegal.
		"A": {run(w("4"), 300), run(w("8"), 80), run(w("16"), 90), run(w("32"), 100),
			run("vertex-push/atomic", 100), run("vertex-push/bulk", 50), run("vertex-push/warp-reduce", 100), run("vertex-push/block-reduce", 100)},
		"B": {run(w("4"), 300), run(w("8"), 120), run(w("16"), 70), run(w("32"), 100),
			run("vertex-push/atomic", 100), run("vertex-push/warp-reduce", 99), run("vertex-push/block-reduce", 100)},
	}}
	res, err := port.Specialize(m, nil, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]portability.Class{
		"vertex-push-warp*/atomic A": portability.AntiSocial,
		"vertex-push-warp*/atomic B": portability.Fair,
		"vertex-push/* A":            portability.Illegal,
		// B's optimum warp-reduce is 1% faster, within the noise: fair,
		// hurting none (A is unaffected too).
		"vertex-push/* B": portability.Fair,
		// The groups of the other widths hold their default alone.
		"vertex-push-warp8/* A": "",
	}
	got := map[string]portability.Class{}
	for _, r := range res.Rows {
		got[r.Group+" "+r.Target] = r.Verdict.Class
	}
	for k, c := range want {
		if cl, ok := got[k]; !ok || cl != c {
			t.Errorf("%s: %q (row %v), want %q", k, cl, ok, c)
		}
	}
}

// TestTransfer trains small models on one platform and scores them on the
// other, and checks the oracle rows against the runner files.
func TestTransfer(t *testing.T) {
	db := openFixture(t)
	m, err := port.Load(db, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := measured.Dir()
	if err != nil {
		t.Fatal(err)
	}
	props, err := split.ReadProps(filepath.Join(dir, split.PropsName))
	if err != nil {
		t.Fatal(err)
	}
	lv, err := kernels.ReadLevelsFile(filepath.Join(dir, kernels.LevelsName))
	if err != nil {
		t.Fatal(err)
	}
	src := func(g string, root int64) ([]cost.BFSLevel, error) {
		gl, ok := lv.Graph(g)
		if !ok {
			return nil, errors.New("no levels")
		}
		l, ok := gl.BFSLevels(uint32(root))
		if !ok {
			return nil, errors.New("no root")
		}
		return l, nil
	}
	yaml, err := porttest.Machine(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h200, err := machine.Load(yaml)
	if err != nil {
		t.Fatal(err)
	}
	datasets := map[string]*predict.Dataset{}
	for p, mach := range map[string]*machine.Machine{porttest.First: machine.Default(), porttest.Second: h200} {
		d, _, err := split.FromStoreOn(db, "", p)
		if err != nil {
			t.Fatal(err)
		}
		d.Props = props
		ph, err := predict.NewPhysics(mach)
		if err != nil {
			t.Fatal(err)
		}
		if datasets[p], err = predict.NewDataset(d, src, ph); err != nil {
			t.Fatal(err)
		}
	}
	o := port.DefaultTransferOptions
	o.Grid.Base.Trees, o.Grid.MinLeaf, o.HoldOut = 20, []int{20}, 0.4
	res, err := port.Transfer(datasets, m.Platforms, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.Table(), map[string]string{"time model": "number x"})
	if len(res.Rows) != 2 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	r := readRaw(t)
	for _, row := range res.Rows {
		// round(0.4 x 8) = 3 held-out graphs; the rest, 5, train.
		if len(row.TestGraphs) != 3 || row.TrainGraphs != 5 || row.Native == nil {
			t.Fatalf("%s to %s: %d test graphs, %d training, native %v", row.From, row.To, len(row.TestGraphs), row.TrainGraphs, row.Native)
		}
		// Best non-switching on the target, against its per-level
		// optimum, from the runner files: sum over the test inputs of
		// min_a sum_L T(a, L) over sum of sum_L min_a T(a, L).
		var bns, opt float64
		inputs := 0
		for _, g := range row.TestGraphs {
			for in, byImpl := range r.levels {
				if !strings.HasPrefix(in, g+"@") {
					continue
				}
				inputs++
				var perLevel []float64
				single := math.Inf(1)
				for impl, lv := range byImpl {
					if _, ok := r.total[in][impl]; !ok {
						continue // not verified
					}
					s := 0.0
					for l, ns := range lv {
						ns = scaleTo(row.To, impl, ns)
						s += ns
						if l >= len(perLevel) {
							perLevel = append(perLevel, math.Inf(1))
						}
						perLevel[l] = math.Min(perLevel[l], ns)
					}
					single = math.Min(single, s)
				}
				bns += single
				for _, ns := range perLevel {
					opt += ns
				}
			}
		}
		if row.BestNonSwitching.Inputs != inputs || !near(row.BestNonSwitching.Total, bns/opt) {
			t.Errorf("%s to %s: best non-switching %v over %d inputs, want %v over %d", row.From, row.To,
				row.BestNonSwitching.Total, row.BestNonSwitching.Inputs, bns/opt, inputs)
		}
		for name, tot := range map[string]aggregate.Row{"time model": row.Transfer.TimeModel, "tree": row.Transfer.Tree,
			"native time model": row.Native.TimeModel, "native tree": row.Native.Tree} {
			if tot.Inputs != inputs || tot.Total < 1 || tot.Total > 5 {
				t.Errorf("%s to %s: %s Total %v over %d inputs", row.From, row.To, name, tot.Total, tot.Inputs)
			}
		}
		if row.Transfer.MedianError <= 0 || row.Transfer.Within20 <= 0 {
			t.Errorf("%s to %s: errors %+v", row.From, row.To, row.Transfer)
		}
	}
	sort.Strings(res.Rows[0].TestGraphs)
	if strings.Join(res.Rows[0].TestGraphs, ",") != strings.Join(res.Rows[1].TestGraphs, ",") {
		t.Errorf("the two directions hold out different graphs: %v, %v", res.Rows[0].TestGraphs, res.Rows[1].TestGraphs)
	}
}

func scaleTo(platform, impl string, ns float64) float64 {
	if platform == porttest.Second {
		return scale(impl, ns)
	}
	return ns
}
