package kernels

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// testdata/fig2.jsonl's vertex-push/atomic is wrong from root 1 (see
// TestParseFixture): the report must say so in its problems, its row and
// its table, and keep the other seven traversals ok.
func TestRunReport(t *testing.T) {
	res, err := ReadFile("testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	g := fig2(t)
	roots := []uint32{0, 1}
	hashes := ReferenceHashes(g, roots)
	want := Expect{N: 6, M: 6, Roots: roots, Hashes: hashes, Impls: []string{"topo", "queue", "dobfs", "vertex-push/atomic"}}
	rep := NewRunReport("fig2.txt", g, res, roots, hashes, 3, 1, want, false)
	tabletest.Declared(t, rep.Table(), map[string]string{"root": "integer vertex", "median_ms": "number ms", "check": "text"})
	if rep.Validated || len(rep.Problems) == 0 || rep.Roots != 2 || rep.Device != "NVIDIA H100 80GB HBM3" || rep.Vertices != 6 || !rep.Directed {
		t.Fatalf("report %+v", rep)
	}
	bad := 0
	for _, r := range rep.Totals {
		if !r.OK {
			bad++
			if r.Impl != "vertex-push/atomic" || r.Root != 1 {
				t.Errorf("%s from %d not ok", r.Impl, r.Root)
			}
		}
		if r.Impl == "dobfs" && r.Root == 0 && r.MedianMs != 12176.5/1e6 {
			t.Errorf("dobfs median %g ms, want 0.0121765 (12176.5 ns in the fixture)", r.MedianMs)
		}
	}
	if bad != 1 {
		t.Errorf("%d rows not ok, want 1", bad)
	}
	tab := rep.Table()
	if len(tab.Rows) != 8 || len(tab.Header) != 10 {
		t.Fatalf("table %d rows x %d columns, want 8 x 10", len(tab.Rows), len(tab.Header))
	}
	mismatches := 0
	for _, row := range tab.Rows {
		if row[9] == "MISMATCH" {
			mismatches++
		}
	}
	if mismatches != 1 {
		t.Errorf("%d MISMATCH cells, want 1", mismatches)
	}
	// JSON keeps "problems" an array and leaves Roots out.
	b, _ := json.Marshal(rep)
	if !strings.Contains(string(b), `"problems":[`) || strings.Contains(string(b), `"Roots"`) {
		t.Errorf("JSON %s", b)
	}

	// A runner that exits with a mismatch Validate does not see is a problem.
	ok := NewRunReport("fig2.txt", g, &Results{Device: res.Device}, nil, nil, 3, 1, Expect{N: 6, M: 6}, true)
	if ok.Validated || len(ok.Problems) != 1 || !strings.Contains(ok.Problems[0], "status 2") {
		t.Errorf("mismatch exit: %+v", ok)
	}
	empty := NewRunReport("fig2.txt", g, &Results{Device: res.Device}, nil, nil, 3, 1, Expect{N: 6, M: 6}, false)
	if !empty.Validated || empty.Problems == nil || len(empty.Problems) != 0 {
		t.Errorf("nothing asked: %+v", empty)
	}
}

func TestPlanTable(t *testing.T) {
	items := []PlanItem{
		{Graph: Graph{Name: "a", File: "a.txt", Edges: 10, Settings: Settings{Roots: 2, Reps: 3, Impls: []string{"topo", "queue"}}}},
		{Graph: Graph{Name: "b", File: "b.txt", Edges: 7, Settings: Settings{Roots: 1, Reps: 1, Impls: []string{"all"}}}, Done: true},
		{Graph: Graph{Name: "c", File: "c.txt", Edges: 5, Settings: Settings{Roots: 1, Reps: 1, Impls: []string{"all"}}}},
	}
	tab, todo, edges := PlanTable(items)
	if todo != 2 || edges != 15 {
		t.Errorf("todo %d, edges %d; want 2 and 15 (a and c)", todo, edges)
	}
	want := []string{"1", "a", "a.txt", "-", "10", "2", "3", "topo,queue", "to measure"}
	if strings.Join(tab.Rows[0], "|") != strings.Join(want, "|") || tab.Rows[1][8] != "done" {
		t.Errorf("rows %q", tab.Rows)
	}
}

func TestMicrobenchTables(t *testing.T) {
	mb := &Microbench{
		Device:       &Device{Name: "GPU"},
		Latency:      []LatencyPoint{{WorkingSetBytes: 2 << 20, CyclesPerLoad: 500, NsPerLoad: 250}},
		Service:      map[string][]ServicePoint{"l2_hit": {{MLP: 4, LatencyNs: 400, ServiceNs: 100}}, "dram_row_hit": {{MLP: 1, LatencyNs: 600, ServiceNs: 600}}},
		Bandwidth:    map[string]float64{"read": 3000, "l2_read": 9000},
		Instructions: map[string]float64{"ffma": 1234.5},
	}
	st := mb.ServiceTable()
	if len(st.Rows) != 2 || st.Rows[0][0] != "dram_row_hit" || st.Rows[1][3] != "100" {
		t.Errorf("service rows %q: want classes sorted, S(4) = 100 ns", st.Rows)
	}
	if lt := mb.LatencyTable(); lt.Rows[0][0] != "2" || lt.Rows[0][2] != "250" {
		t.Errorf("latency rows %q: want 2 MB, 250 ns", lt.Rows)
	}
	ct := mb.CeilingTable()
	if len(ct.Rows) != 3 || ct.Rows[0][0] != "l2_read bandwidth" || ct.Rows[0][1] != "9 TB/s" || ct.Rows[2][1] != "1234 GIPS" {
		t.Errorf("ceiling rows %q", ct.Rows)
	}
	var b bytes.Buffer
	if err := mb.WriteMachineYAML(&b, "x.jsonl"); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"  read_bandwidth: 3 TB/s", "  l2_bandwidth: 9 TB/s", "  warp_instructions: 1234 GIPS", "      - [4, 100 ns]"} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("YAML lacks %q:\n%s", line, b.String())
		}
	}
	j, _ := json.Marshal(mb.JSON())
	if !strings.HasPrefix(string(j), `{"bandwidth_gb_s":`) || !strings.Contains(string(j), `"warp_gips":{"ffma":1234.5}`) {
		t.Errorf("JSON %s", j)
	}
}

func TestLevelsDocumentCounts(t *testing.T) {
	d := &LevelsDocument{Graphs: []NamedGraphLevels{
		{Roots: []RootLevels{{Levels: make([]BFSLevelJSON, 3)}, {Levels: make([]BFSLevelJSON, 2)}}},
		{Roots: []RootLevels{{Levels: make([]BFSLevelJSON, 4)}}},
		{},
	}}
	if roots, levels := d.Counts(); roots != 3 || levels != 9 {
		t.Errorf("Counts() = %d roots, %d levels; want 3 and 9", roots, levels)
	}
}

func TestSweepReportErr(t *testing.T) {
	for _, c := range []struct {
		rep  SweepReport
		want string
	}{
		{SweepReport{Measured: []string{"a"}}, ""},
		{SweepReport{Measured: []string{"a"}, Stopped: "time budget", NotStarted: []string{"b"}}, ""},
		{SweepReport{Stopped: "interrupted", Failed: []Failure{{Name: "a"}}}, "interrupted; what was measured is kept"},
		{SweepReport{Failed: []Failure{{Name: "a"}, {Name: "b"}}, Unvalidated: []string{"c"}}, "2 failed (a, b), 1 not validated (c); see r/" + LogName},
		{SweepReport{Unvalidated: []string{"c"}}, "1 not validated (c); see r/" + LogName},
	} {
		err := c.rep.Err("r")
		if (err == nil) != (c.want == "") || (err != nil && err.Error() != c.want) {
			t.Errorf("%+v: %v, want %q", c.rep, err, c.want)
		}
	}
}

// TestTablesDeclared: the tables of the plan of the sweep tests' corpus (a
// file and two generated graphs) and of the H100's microbenchmark run
// (measured/h100/microbench.jsonl) declare every column, with the kinds
// their cells have (TestRunReport checks the run report's).
func TestTablesDeclared(t *testing.T) {
	c, err := ParseCorpus([]byte(sweepCorpus), "sweep.yaml")
	if err != nil {
		t.Fatal(err)
	}
	items, err := Plan(c, SweepOptions{GraphsDir: "testdata", ResultsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	plan, _, _ := PlanTable(items)
	tabletest.Declared(t, plan, map[string]string{"#": "integer", "est_vertices": "integer vertices", "est_edges": "integer edges"})
	if plan.Rows[0][3] != "-" {
		t.Errorf("plan row %q: want no estimated vertices for a file", plan.Rows[0])
	}
	mb, err := ReadMicrobenchFile("measured/h100/microbench.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, mb.ServiceTable(), map[string]string{"mlp": "integer transactions in flight", "service_ns": "number ns"})
	tabletest.Declared(t, mb.LatencyTable(), map[string]string{"working_set_MB": "number MiB", "ns": "number ns"})
	tabletest.Declared(t, mb.CeilingTable(), map[string]string{"value": "text TB/s or GIPS"})
}
