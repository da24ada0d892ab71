package latime_test

import (
	"testing"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/internal/table/tabletest"
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
	tabletest.Declared(t, p.TimesTable(), map[string]string{"model": "text", "predicted_us": "number µs"})
	tabletest.Declared(t, p.AnswersTable(), map[string]string{"linalg_us": "number µs", "vertex_centric_us": "number µs", "linalg/vc": "number x"})
	_, samples, _, err := la.EmbeddedTimeSamples()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := latime.Evaluate(samples, latime.Options{Folding: latime.ByFamily})
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, ev.ErrorsTable(), map[string]string{"graphs": "integer", "median_rel_err": "number", "worst_graph": "text"})
	tabletest.Declared(t, ev.DecisionsTable(), map[string]string{"linalg_faster_measured": "integer graphs", "model_correct": "text graphs (%)"})
}
