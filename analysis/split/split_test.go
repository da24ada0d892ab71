package split

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// tiny is a hand-made set: two graphs, g1 with roots 0 and 1, g2 with
// root 0, two levels each, implementations "a" and "b".
func tiny() *Data {
	run := func(g string, root uint32, impl string, levels ...float64) aggregate.Run {
		total := 0.0
		for _, ns := range levels {
			total += ns
		}
		return aggregate.Run{Input: aggregate.Input{Graph: g, Root: root}, Impl: impl, TotalNs: total, LevelNs: levels}
	}
	return &Data{
		Runs: []aggregate.Run{
			run("g1", 0, "b", 10, 50), run("g1", 0, "a", 20, 30),
			run("g1", 1, "a", 5, 5), run("g1", 1, "b", 5, 9),
			run("g2", 0, "a", 7, 1), run("g2", 0, "b", 3, 2),
		},
		Frontiers: map[aggregate.Input][]int64{
			{Graph: "g1", Root: 0}: {1, 3}, {Graph: "g1", Root: 1}: {1, 2}, {Graph: "g2", Root: 0}: {1, 4},
		},
		Props: map[string]kernels.GraphPropsJSON{"g1": {Vertices: 4, Edges: 6}, "g2": {Vertices: 5, Edges: 8}},
		Real:  map[string]bool{"g2": true},
	}
}

func TestRows(t *testing.T) {
	rows, impls, warnings, err := Rows(tiny(), WeightTime)
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	if !slices.Equal(impls, []string{"a", "b"}) || len(rows) != 6 || len(FeatureNames) != 27 {
		t.Fatalf("impls %v, %d rows, %d features", impls, len(rows), len(FeatureNames))
	}
	// g1@0 level 1: a 30 beats b 50; weight 50-30; discovered 1+3 of 4.
	r := rows[1]
	if r.Graph != "g1" || r.Level != 1 || r.Label != 0 || r.Weight != 20 {
		t.Errorf("row 1 = %+v", r)
	}
	f := r.Features[23:]
	if !slices.Equal(f, []float64{3, 0.75, 4, 1}) {
		t.Errorf("level features %v, want [3 0.75 4 1]", f)
	}
	// g1@1 level 0: a tie at 5 goes to "a", weight 0.
	if rows[2].Label != 0 || rows[2].Weight != 0 {
		t.Errorf("tie row = %+v", rows[2])
	}
}

func TestSplits(t *testing.T) {
	rows, _, _, err := Rows(tiny(), WeightNone)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"graphs", "variants", "steps", "dataset:real", "dataset:g1"} {
		var s Split
		if err := s.ParseKind(kind); err != nil {
			t.Fatal(err)
		}
		s.TrainFraction, s.Seed = 0.5, 3
		train, test, err := s.Apply(rows, tiny().Real)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		again, _, _ := s.Apply(rows, tiny().Real)
		if !slices.Equal(train, again) || len(train) == 0 || len(test) == 0 || len(train)+len(test) != len(rows) {
			t.Errorf("%s: train %v test %v (again %v)", kind, train, test, again)
		}
		if kind == "dataset:real" && !slices.Equal(test, []int{4, 5}) {
			t.Errorf("dataset:real held out %v, want g2's rows [4 5]", test)
		}
		if kind == "graphs" && rows[train[0]].Graph == rows[test[0]].Graph {
			t.Errorf("graphs split shares graph %s", rows[train[0]].Graph)
		}
	}
	if err := (&Split{}).ParseKind("dataset:"); err == nil {
		t.Error("dataset: with no name accepted")
	}
}

func TestMixAndMatch(t *testing.T) {
	d := tiny()
	rows, _, _, _ := Rows(d, WeightNone)
	tab, err := aggregate.Summarize(d.Runs, aggregate.AgainstLevels)
	if err != nil {
		t.Fatal(err)
	}
	// Always "a": g1@0 20+30 vs optimum 10+30 = 1.25; g1@1 10/10; g2 8/4 = 2.
	row, warnings := MixAndMatch("model", tab, rows, func(*Row) string { return "a" })
	if len(warnings) != 0 || row.Inputs != 3 || row.Worst != 2 || row.Total != 68.0/54 {
		t.Errorf("row %+v, warnings %v", row, warnings)
	}
	if want := (1.25 + 1 + 2) / 3; row.Avg != want {
		t.Errorf("avg %g, want %g", row.Avg, want)
	}
}
