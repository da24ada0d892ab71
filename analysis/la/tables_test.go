package la

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
)

func TestFmtFloat(t *testing.T) {
	for v, want := range map[float64]string{math.NaN(): "-", math.Inf(1): "-", 1.23456: "1.23", 12345: "1.23e+04", 0: "0"} {
		if got := fmtFloat(v); got != want {
			t.Errorf("fmtFloat(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestResultTable(t *testing.T) {
	r := &Result{Ridge: 2.5,
		Groups:   []Group{{Impl: "bfs-push", Model: "linalg", Datasets: 2, MemoryShare: 50, ComputeShare: 50, GldEfficiency: math.NaN()}},
		Variants: []VariantRow{{Graph: "g", Speedup: map[string]float64{"sssp-v2": 2}}},
		Timing:   []TimingRow{{Graph: "g", N: 10, M: 20, Roots: 2, TimesNs: map[string]float64{Baseline: 3e6}}}}
	for _, show := range []string{"points", "groups", "variants", "sweep", "timing"} {
		tb, notes, ok := r.Table(show)
		if !ok {
			t.Fatalf("%s: not ok", show)
		}
		if err := tb.Check(); err != nil {
			t.Errorf("%s: %v", show, err)
		}
		if !strings.HasPrefix(tb.Name, "la-") || len(notes) == 0 || notes[0] != r.Validation.Note() {
			t.Errorf("%s: name %q, notes %v", show, tb.Name, notes)
		}
	}
	if _, _, ok := r.Table("nope"); ok {
		t.Error("Table(nope) ok")
	}
	g, _, _ := r.Table("groups")
	if g.Rows[0][3] != "50" || g.Rows[0][11] != "-" || !strings.Contains(g.Title, "DRAM ridge 2.50") {
		t.Errorf("groups %q %v", g.Title, g.Rows[0])
	}
	v, _, _ := r.Table("variants")
	if len(v.Header) != 1+3*(len(OptimisedSSSP)+1) || v.Header[1] != "speedup "+strings.TrimPrefix(OptimisedSSSP[0], "sssp-") {
		t.Errorf("variants header %v", v.Header)
	}
	for j, h := range v.Header {
		if want := "-"; h == "speedup v2" {
			want = "2"
			if v.Rows[0][j] != want {
				t.Errorf("speedup v2 = %q", v.Rows[0][j])
			}
		} else if j > 0 && v.Rows[0][j] != want {
			t.Errorf("%s = %q, want -", h, v.Rows[0][j])
		}
	}
	tm, notes, _ := r.Table("timing")
	if tm.Rows[0][6] != "3" || tm.Rows[0][len(tm.Header)-5] != "-" {
		t.Errorf("timing row %v", tm.Rows[0])
	}
	if len(notes) != 1+len(r.Summary.Notes()) {
		t.Errorf("timing notes %v", notes)
	}
}

func TestTimingSummaryNotes(t *testing.T) {
	s := TimingSummary{SSSPDatasets: 5, OptimisedLABeatsWorklist: 3, Fastest: map[string]int{Worklist: 2, Baseline: 1}, PushFaster: 4}
	notes := s.Notes()
	if len(notes) != 4 {
		t.Fatalf("%d notes, want 4 without vertex-centric comparisons", len(notes))
	}
	if !strings.Contains(notes[0], "on 3 of 5 datasets") || !strings.Contains(notes[1], Baseline+" 1, "+Worklist+" 2") {
		t.Errorf("notes %q", notes[:2])
	}
	s.VertexCentricCompared, s.VertexCentricLAFaster, s.VertexCentricGeomean = 4, 1, 2.5
	if n := s.Notes(); len(n) != 5 || !strings.Contains(n[4], "LinAlg faster on 1 of 4 graphs, geometric mean LinAlg/vertex-centric 2.5") {
		t.Errorf("notes %q", n)
	}
}

func TestMetricsTable(t *testing.T) {
	tb := MetricsTable()
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != len(Mapping) || tb.Rows[0][0] != Mapping[0].Seed || tb.Rows[0][1] != strings.Join(Mapping[0].NCU, " ") {
		t.Errorf("%d rows, first %v", len(tb.Rows), tb.Rows[0])
	}
	if !reflect.DeepEqual(tb.Header, []string{"seed metric", "ncu metrics (sm_90)", "unit", "how", "seed tables"}) {
		t.Errorf("header %v", tb.Header)
	}
}

func TestEmbeddedHubFileMissingGraph(t *testing.T) {
	_, err := EmbeddedHubFile(&kernels.Corpus{}, "empty.yaml", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not in empty.yaml") {
		t.Errorf("EmbeddedHubFile of an empty corpus: %v, want a graph not in empty.yaml", err)
	}
}

// TestTablesDeclareColumns: every table of "la analyze" on the embedded
// H100 measurements, and "la metrics", declares each column (no Guess)
// and passes Check, with the units the cells are in.
func TestTablesDeclareColumns(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := ParseSources(nil)
	if err != nil {
		t.Fatal(err)
	}
	vc, err := VertexCentricFS("embedded")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(srcs, m, vc)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]table.Table{"metrics": MetricsTable()}
	for _, show := range TableNames {
		tables[show], _, _ = r.Table(show)
	}
	want := map[string]map[string]string{
		"timing": {"sssp-la ms": "number ms", "LA BFS/vc": "number x"},
		"groups": {"gld % (mem)": "number %"},
		"points": {"bound": "text"},
		"sweep":  {"L2 gld bytes": "number bytes"},
	}
	for show, tb := range tables {
		tabletest.Declared(t, tb, want[show])
	}
}
