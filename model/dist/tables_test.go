package dist

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// LevelTable has one row per level of the prediction, in order, with the
// volumes of the row; the time columns appear only on a timed prediction.
func TestLevelTable(t *testing.T) {
	pr := &Prediction{Procs: 2, Rows: []Row{
		{Level: 1, Frontier: 1, Discovered: 5, NLFSMax: 4, NLFSUniqueMax: 3, SentVertices: 2, SentBytes: 8, MaxPairBytes: 8, MaxOutBytes: 8, MaxInBytes: 4},
		{Level: 2, Frontier: 5, Discovered: 0, NLFSMax: 9, NLFSUniqueMax: 7, SentVertices: 6, SentBytes: 24, MaxPairBytes: 16, MaxOutBytes: 16, MaxInBytes: 12},
	}}
	tb := pr.LevelTable()
	if tb.Name != "dist-levels" || tb.Title != "1D-partitioned BFS on 2 processes, per level" || len(tb.Header) != 10 {
		t.Fatalf("name %q title %q header %v", tb.Name, tb.Title, tb.Header)
	}
	want := [][]string{{"1", "1", "5", "4", "3", "2", "8", "8", "8", "4"}, {"2", "5", "0", "9", "7", "6", "24", "16", "16", "12"}}
	if !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("rows %v, want %v", tb.Rows, want)
	}
	checkDeclared(t, tb)
	k, c, tot := 0.123456, 2.0, 2.123456
	pr.Timed = true
	for i := range pr.Rows {
		pr.Rows[i].KernelMs, pr.Rows[i].CommMs, pr.Rows[i].TotalMs = &k, &c, &tot
	}
	tb = pr.LevelTable()
	if got := strings.Join(tb.Header[10:], ","); got != "kernel_ms,comm_ms,total_ms" {
		t.Errorf("timed header ends %q", got)
	}
	if got := strings.Join(tb.Rows[0][10:], ","); got != "0.1235,2,2.123" {
		t.Errorf("timed cells %q, want 4 significant digits", got)
	}
	checkDeclared(t, tb)
}

// PairsTable lists every message of the prediction.
func TestPairsTable(t *testing.T) {
	pr := &Prediction{Pairs: []Pair{{Level: 1, Src: 0, Dst: 1, Vertices: 3, Bytes: 12}, {Level: 2, Src: 1, Dst: 0, Vertices: 1, Bytes: 4}}}
	tb := pr.PairsTable()
	checkDeclared(t, tb)
	want := [][]string{{"1", "0", "1", "3", "12"}, {"2", "1", "0", "1", "4"}}
	if tb.Name != "dist-pairs" || !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("%q %v, want dist-pairs %v", tb.Name, tb.Rows, want)
	}
}

// The weak-scaling table has one row per TableRow of every run; the
// seed's columns are "-" where the seed has no value.
func TestWeakScalingTable(t *testing.T) {
	w := &WeakScaling{Runs: []ScalingRun{{Run: &Run{}, Rows: []TableRow{
		{Scale: 21, Procs: 2, Level: 3, NLFS0: 10, NLFSMax: 12, NLFSMean: 10.6, Unique0: 2, UniqueMax: 3, UniqueMean: 2.4, Cut: 0.81234, SeedNLFS: 11, SeedNLFSAfterSU: 1},
		{Scale: 21, Procs: 4, Level: 3, NLFS0: 5, NLFSMax: 6, NLFSMean: 5.5, Unique0: 1, UniqueMax: 1, UniqueMean: 1, Cut: 0.8},
	}}}}
	tb := w.Table()
	checkDeclared(t, tb)
	want := [][]string{
		{"21", "2", "3", "10", "12", "11", "2", "3", "2", "0.812", "11", "1"},
		{"21", "4", "3", "5", "6", "6", "1", "1", "1", "0.800", "-", "-"},
	}
	if tb.Name != "dist-table" || !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("%q %v, want dist-table %v", tb.Name, tb.Rows, want)
	}
}

// The messages table gives the ratio to the seed's size, "-" without one.
func TestMessagesTable(t *testing.T) {
	m := &Messages{Rows: []Message{{Level: 3, Src: 0, Dst: 1, Bytes: 300, SeedPrinted: "100 B", SeedBytes: 100}, {Level: 4, Src: 1, Dst: 2, Bytes: 7, SeedPrinted: "-"}}}
	want := [][]string{{"3", "0", "1", "300", "100 B", "3.00"}, {"4", "1", "2", "7", "-", "-"}}
	if tb := m.Table(); tb.Name != "dist-messages" || !reflect.DeepEqual(tb.Rows, want) || !checkDeclared(t, tb) {
		t.Errorf("%q %v, want dist-messages %v", tb.Name, tb.Rows, want)
	}
}

// The check table lists the mismatches only; the times table one row per
// level of every run.
func TestCheckAndTimesTables(t *testing.T) {
	c := CheckResult{Messages: 3, Equal: 2, Mismatches: []Mismatch{{Level: 2, Src: 1, Dst: 0, Measured: 9, Predicted: 8}}}
	if tb := c.Table(); tb.Name != "dist-check" || !reflect.DeepEqual(tb.Rows, [][]string{{"2", "1", "0", "9", "8"}}) || !checkDeclared(t, tb) {
		t.Errorf("check: %q %v", tb.Name, tb.Rows)
	}
	r := TimeReport{Runs: []TimeCheck{{Dir: "s22-p2", Ranks: 2, Scale: 22, Rows: []TimeRow{
		{Level: 1, NLFSMax: 40, PredKernelMs: 0.123456, KernelMs: 0.1, PredCommMs: 1, CommMs: 1.5, PredTotalMs: 1.123456, TotalMs: 1.6, ErrPct: -29.78},
	}}}}
	want := []string{"s22-p2", "2", "22", "1", "40", "0.1235", "0.1", "1", "1.5", "1.123", "1.6", "-29.8"}
	tb := r.Table()
	checkDeclared(t, tb)
	if tb.Name != "dist-times" || len(tb.Rows) != 1 || !reflect.DeepEqual(tb.Rows[0], want) {
		t.Errorf("times: %q %v, want %v", tb.Name, tb.Rows, want)
	}
}

// GraphPrediction's JSON is "graph" first, then the prediction's keys.
func TestGraphPredictionJSON(t *testing.T) {
	data, err := json.Marshal(GraphPrediction{Graph: "g.txt", Prediction: &Prediction{Procs: 2, Warnings: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.HasPrefix(s, `{"graph":"g.txt","procs":2,`) || strings.Contains(s, "pairs") {
		t.Errorf("JSON %s", s)
	}
}

// checkDeclared fails unless tb passes table.Check: every column declared
// and every cell of its column's kind.
func checkDeclared(t *testing.T, tb table.Table) bool {
	t.Helper()
	if err := tb.Check(); err != nil {
		t.Error(err)
		return false
	}
	return true
}
