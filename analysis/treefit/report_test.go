package treefit

import (
	"testing"

	"github.com/graphperf/graphperf/analysis/split"
)

func TestTopConfusion(t *testing.T) {
	// Rows are true classes, columns predictions: a has 5 rows (4 right),
	// b 3 (1 right), c 1 (0 right), d none.
	cm := split.Confusion{Classes: []string{"a", "b", "c", "d"}, Counts: [][]int{
		{4, 1, 0, 0},
		{1, 1, 1, 0},
		{0, 1, 0, 0},
		{0, 0, 0, 0},
	}}
	ct := TopConfusion(cm, 2)
	if ct.Total != 9 || ct.Present != 3 || len(ct.Shown) != 2 {
		t.Fatalf("total %d, present %d, shown %d; want 9, 3, 2", ct.Total, ct.Present, len(ct.Shown))
	}
	if a := ct.Shown[0]; a.Class != "a" || a.Rows != 5 || a.Counts[0] != 4 || a.Counts[1] != 1 || a.Other != 0 || a.Recall != 0.8 {
		t.Errorf("first row %+v", a)
	}
	if b := ct.Shown[1]; b.Class != "b" || b.Other != 1 {
		t.Errorf("second row %+v, want b with 1 other", b)
	}
	if r := ct.Rest; r == nil || r.Rows != 1 || r.Counts[1] != 1 || r.Recall != 0 {
		t.Errorf("rest %+v, want c's one row predicted b", r)
	}
	if p := PresentClasses(cm); len(p.Classes) != 3 {
		t.Errorf("PresentClasses kept %v, want a, b, c", p.Classes)
	}
}
