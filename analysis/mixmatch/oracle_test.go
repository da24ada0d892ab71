package mixmatch

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/predict"
)

func TestGraphName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/data/web-Google.txt.gz", "web-Google"},
		{"ba-s12-m4.gpg", "ba-s12-m4"},
		{"g/road.mtx", "road"},
		{"x.edges", "x"},
		{"a.tsv.gz", "a"},
		{"plain", "plain"},
		{"g.gz.txt", "g.gz"}, // each extension once, in the list's order: .gz before .txt
	} {
		if got := GraphName(tt.path); got != tt.want {
			t.Errorf("GraphName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestModelName(t *testing.T) {
	if ModelName("") != "default" || ModelName("m.json") != "m.json" {
		t.Errorf("ModelName: %q, %q", ModelName(""), ModelName("m.json"))
	}
}

// oracleRun is a run of impl from root with the given level times; its
// total is their sum unless total is given.
func oracleRun(impl string, root uint32, total float64, levels ...float64) aggregate.Run {
	r := aggregate.Run{Impl: impl, LevelNs: levels, TotalNs: total}
	r.Root = root
	if total == 0 {
		for _, l := range levels {
			r.TotalNs += l
		}
	}
	return r
}

func TestOracleDecisions(t *testing.T) {
	o := &Oracle{Graph: "g", File: "/d/g.jsonl.gz", ByRoot: map[uint32][]aggregate.Run{
		7: {oracleRun("queue", 7, 0, 10, 50, 10), oracleRun("topo", 7, 0, 20, 20, 30), oracleRun("bitmap", 7, 0, 10, 60, 5)},
		3: {oracleRun("queue", 3, 0, 5, 5), oracleRun("topo", 3, 0, 9, 1)},
	}}
	if got := o.Roots(); !reflect.DeepEqual(got, []uint32{3, 7}) {
		t.Errorf("Roots: %v", got)
	}
	d, rows, err := o.Decisions([]uint32{7, 3})
	if err != nil {
		t.Fatal(err)
	}
	// Root 7: level 0 ties queue and bitmap at 10 (bitmap, the first
	// name), level 1 topo 20, level 2 bitmap 5: 35 ns against queue's 70
	// (tied with topo; the first run measured is kept).
	// Root 3: queue 5, topo 1: 6 ns against 10 (queue and topo tie; the
	// first run measured is kept).
	want := []kernels.Decision{{Root: 7, Level: 0, Impl: "bitmap"}, {Root: 7, Level: 1, Impl: "topo"}, {Root: 7, Level: 2, Impl: "bitmap"},
		{Root: 3, Level: 0, Impl: "queue"}, {Root: 3, Level: 1, Impl: "topo"}}
	if !reflect.DeepEqual(d.Levels, want) {
		t.Errorf("levels %+v\nwant %+v", d.Levels, want)
	}
	wantRows := []RootDecision{
		{Root: 7, Levels: 3, SwitchNs: 35, BestSingle: "queue", BestSingleNs: 70, Distinct: 2},
		{Root: 3, Levels: 2, SwitchNs: 6, BestSingle: "queue", BestSingleNs: 10, Distinct: 2},
	}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("rows %+v\nwant %+v", rows, wantRows)
	}
	// Totals over both roots: queue 80, topo 80, bitmap 75.
	if d.Default != "bitmap" || !strings.HasSuffix(d.Source, "measured fastest per level in g.jsonl.gz") {
		t.Errorf("default %q, source %q", d.Default, d.Source)
	}

	var mr *MissingRunsError
	if _, _, err := o.Decisions(nil); !errors.As(err, &mr) || err.Error() != "/d/g.jsonl.gz: no validated runs with level times" {
		t.Errorf("no roots: %v", err)
	}
	if _, _, err := o.Decisions([]uint32{3, 5}); !errors.As(err, &mr) || err.Error() != "g.jsonl.gz has no runs of g from root 5 (measured roots: 3,7)" {
		t.Errorf("root 5: %v", err)
	}
	o.ByRoot[3] = append(o.ByRoot[3], oracleRun("bitmap", 3, 0, 1, 1, 1))
	if _, _, err := o.Decisions([]uint32{3}); err == nil || errors.As(err, &mr) || err.Error() != "g from root 3: bitmap ran 3 levels, queue 2" {
		t.Errorf("levels differ: %v", err)
	}
}

// LoadOracle on the embedded H100 dataset: every root's runs have level
// times and no switch, and the decisions take each level's fastest.
func TestLoadOracleEmbedded(t *testing.T) {
	t.Setenv(measured.CacheEnv, t.TempDir())
	dir, err := measured.Dir()
	if err != nil {
		t.Fatal(err)
	}
	var mr *MissingRunsError
	if _, err := LoadOracle(dir, "nope"); !errors.As(err, &mr) || !strings.Contains(err.Error(), "has no results of nope (no nope.jsonl.gz)") {
		t.Errorf("missing graph: %v", err)
	}
	o, err := LoadOracle(dir, "ba-s12-m4")
	if err != nil {
		t.Fatal(err)
	}
	roots := o.Roots()
	if len(roots) == 0 {
		t.Fatal("no roots")
	}
	for _, r := range roots {
		for _, run := range o.ByRoot[r] {
			if run.LevelNs == nil || run.Impl == kernels.ImplSwitch || run.Graph != "ba-s12-m4" {
				t.Fatalf("root %d: run %s of %s without level times or a switch", r, run.Impl, run.Graph)
			}
		}
	}
	d, rows, err := o.Decisions(roots)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(roots) {
		t.Fatalf("%d rows for %d roots", len(rows), len(roots))
	}
	i := 0
	for k, r := range roots {
		runs := o.ByRoot[r]
		for L := range len(runs[0].LevelNs) {
			fastest := math.Inf(1)
			for _, run := range runs {
				fastest = math.Min(fastest, run.LevelNs[L])
			}
			dec := d.Levels[i]
			var picked float64
			for _, run := range runs {
				if run.Impl == dec.Impl {
					picked = run.LevelNs[L]
				}
			}
			if dec.Root != int64(r) || dec.Level != L || picked != fastest {
				t.Errorf("root %d level %d: %+v (%v ns), want the fastest, %v ns", r, L, dec, picked, fastest)
			}
			i++
		}
		if rows[k].SwitchNs > rows[k].BestSingleNs {
			t.Errorf("root %d: the per-level optimum %v ns is slower than the best single %v ns", r, rows[k].SwitchNs, rows[k].BestSingleNs)
		}
	}
	if i != len(d.Levels) || d.Default == "" {
		t.Errorf("%d decisions, %d checked; default %q", len(d.Levels), i, d.Default)
	}
}

// ReportDirs without directories reports the switch measurements embedded
// with the H100 dataset, as naming them (EmbeddedDirs) does.
func TestReportDirsEmbedded(t *testing.T) {
	dirs, err := EmbeddedDirs()
	if err != nil {
		t.Fatal(err)
	}
	named, err := ReportDirs(dirs, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, none := range [][]string{nil, {}} {
		rep, err := ReportDirs(none, "")
		if err != nil {
			t.Fatal(err)
		}
		if rep.Device != named.Device || rep.Reference != named.Reference || len(rep.Inputs) != len(named.Inputs) || len(rep.Inputs) == 0 {
			t.Errorf("%#v: %s against %s, %d inputs; want the embedded directories' %s, %s, %d",
				none, rep.Device, rep.Reference, len(rep.Inputs), named.Device, named.Reference, len(named.Inputs))
		}
	}
}

func TestModelSource(t *testing.T) {
	m := &predict.Model{}
	m.Training.Split = "graphs"
	want := "graphperf bench switch: model default (split graphs), machine h100, graph g"
	if got := ModelSource("graphperf bench switch", ModelName(""), m, "h100", "g"); got != want {
		t.Errorf("ModelSource: %q, want %q", got, want)
	}
}
