package latime_test

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/model/latime"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/graph"
)

// TestTablesDeclared: the tables of "predict la" on figure 2's graph and of
// "predict la-evaluate" on the embedded H100 measurements (by family, 5
// folds; the BFS question not evaluated) declare every column, with the
// kinds their cells have.
func TestTablesDeclared(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the time models on the embedded measurements")
	}
	g, err := graph.Load("../../cmd/graphperf/testdata/fig2.txt", graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	p, err := la.PredictGraph(g, "fig2", 0, m)
	if err != nil {
		t.Fatal(err)
	}
	checkDeclared(t, p.TimesTable(), map[string]string{"model": "text", "predicted_us": "number µs"})
	checkDeclared(t, p.AnswersTable(), map[string]string{"linalg_us": "number µs", "vertex_centric_us": "number µs", "linalg/vc": "number x"})
	_, samples, _, err := la.EmbeddedTimeSamples()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := latime.Evaluate(samples, latime.Options{Folding: latime.ByFamily})
	if err != nil {
		t.Fatal(err)
	}
	checkDeclared(t, ev.ErrorsTable(), map[string]string{"graphs": "integer", "median_rel_err": "number", "worst_graph": "text"})
	checkDeclared(t, ev.DecisionsTable(), map[string]string{"linalg_faster_measured": "integer graphs", "model_correct": "text graphs (%)"})
}

// checkDeclared fails unless tb declares every column (no table.Undeclared),
// its cells agree with the declared kinds (Check, under the name "t" when
// tb has none: a report gives it one), and each column of want has the
// kind and unit given as "kind unit" (such as "number ms", or "text" for
// a text column without a unit).
func checkDeclared(t *testing.T, tb table.Table, want map[string]string) {
	t.Helper()
	if tb.Name == "" {
		tb.Name = "t"
	}
	if len(tb.Columns) != len(tb.Header) {
		t.Errorf("%s: %d of %d columns declared", tb.Name, len(tb.Columns), len(tb.Header))
		return
	}
	if err := tb.Check(); err != nil {
		t.Error(err)
	}
	if len(tb.Rows) == 0 {
		t.Errorf("%s: no rows to check", tb.Name)
	}
	got := map[string]string{}
	for _, c := range tb.Columns {
		if c.Kind == table.Undeclared {
			t.Errorf("%s: column %q not declared", tb.Name, c.Name)
		}
		got[c.Name] = strings.TrimSpace(c.Kind.String() + " " + c.Unit)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: column %q is %q, want %q", tb.Name, name, got[name], w)
		}
	}
}
