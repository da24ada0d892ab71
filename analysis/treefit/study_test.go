package treefit

import (
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
)

func TestGridPlan(t *testing.T) {
	var graphs, real split.Split
	if err := graphs.ParseKind("graphs"); err != nil {
		t.Fatal(err)
	}
	if err := real.ParseKind("dataset:real"); err != nil {
		t.Fatal(err)
	}
	p := Grid{Kinds: []split.Split{graphs, real}, Fractions: []float64{0.3, 0.7}, Seeds: []uint64{1, 2},
		Weights: []split.Weighting{split.WeightTime}, MaxDepths: []int{0, 4}, MinLeafs: []int{5}}.Plan()
	// graphs: 2 fractions x 2 seeds; dataset:real once.
	if len(p.Groups) != 5 || len(p.Inner) != 2 {
		t.Fatalf("%d groups, %d cases; want 5 and 2", len(p.Groups), len(p.Inner))
	}
	if g := p.Groups[1]; g.TrainFraction != 0.3 || g.Seed != 2 {
		t.Errorf("group 1 = %+v, want fraction 0.3 seed 2", g)
	}
	if p.KindOrder[0] != "graphs" || p.KindOrder[1] != real.KindName() {
		t.Errorf("kind order %v", p.KindOrder)
	}
}

func TestMeans(t *testing.T) {
	var s split.Split
	if err := s.ParseKind("graphs"); err != nil {
		t.Fatal(err)
	}
	result := func(seed uint64, depth int, total float64) Result {
		s.TrainFraction, s.Seed = 0.5, seed
		return Result{Case: Case{Split: s, Weight: split.WeightTime, MaxDepth: depth, MinLeaf: 1},
			Model: aggregate.Row{Total: total}, Best: aggregate.Row{Total: 1}}
	}
	rows := Means([]Result{result(1, 4, 1.4), result(2, 4, 1.2), result(1, 8, 1.1), result(2, 8, 1.1)}, []string{"graphs"})
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	// Sorted by mean total: depth 8 (1.1) before depth 4 (1.3).
	if r := rows[0]; r.MaxDepth != 8 || r.Seeds != 2 || r.Seed != nil {
		t.Errorf("first row %+v, want depth 8 over 2 seeds", r)
	}
	if r := rows[1]; r.Total < 1.3-1e-12 || r.Total > 1.3+1e-12 || *r.TotalMin != 1.2 || *r.TotalMax != 1.4 {
		t.Errorf("second row total %v in [%v, %v], want 1.3 in [1.2, 1.4]", r.Total, *r.TotalMin, *r.TotalMax)
	}
}
