package split

import (
	"slices"
	"testing"
)

// TestValidate counts right, soft and hard predictions on tiny()'s rows:
// levels (a, b) g1@0 (20, 30 | 10, 50), g1@1 (5, 5 | 5, 9), g2@0 (7, 3 | 1, 2).
func TestValidate(t *testing.T) {
	rows, impls, _, err := Rows(tiny(), WeightNone)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3, 4, 5}
	tests := []struct {
		name                   string
		predict                func(*Row) string
		tolerance              float64
		correct, soft, hard, u int
	}{
		// Fastest: b, a, a (tie), a, b, a. Always "a": right on 4; g1@0
		// level 0 costs 20/10 (hard), g2@0 level 0 7/3 (hard).
		{"always a", func(*Row) string { return "a" }, 0.05, 4, 0, 2, 0},
		// Always "b": right on 2; g1@1 level 0 ties 5/5 (soft); g1@0
		// level 1 50/30, g1@1 level 1 9/5, g2@0 level 1 2/1 (hard).
		{"always b", func(*Row) string { return "b" }, 0.05, 2, 1, 3, 0},
		// With 100 % slack 50/30 and 9/5 become soft; 2/1 stays at the edge (soft).
		{"always b, tolerance 1", func(*Row) string { return "b" }, 1, 2, 4, 0, 0},
		{"unmeasured", func(*Row) string { return "c" }, 0.05, 0, 0, 6, 6},
	}
	for _, tt := range tests {
		v := Validate(rows, all, impls, tt.predict, tt.tolerance)
		if v.Correct != tt.correct || v.Soft != tt.soft || v.Hard != tt.hard || v.Unmeasured != tt.u || v.Rows != 6 {
			t.Errorf("%s: %+v, want correct %d soft %d hard %d unmeasured %d", tt.name, v, tt.correct, tt.soft, tt.hard, tt.u)
		}
		if got := v.Accuracy() + v.SoftErrorRate() + v.HardErrorRate(); got < 0.999999 || got > 1.000001 {
			t.Errorf("%s: rates add to %g", tt.name, got)
		}
	}
	v := Validate(rows, all, impls, func(*Row) string { return "c" }, -1)
	if v.Tolerance != DefaultTolerance || !slices.Equal(v.Confusion.Classes, []string{"a", "b", "c"}) {
		t.Errorf("tolerance %g, classes %v", v.Tolerance, v.Confusion.Classes)
	}
	// Fastest a on 4 rows, b on 2; all predicted c.
	if !slices.Equal(v.Confusion.Counts[0], []int{0, 0, 4}) || !slices.Equal(v.Confusion.Counts[1], []int{0, 0, 2}) {
		t.Errorf("confusion %v", v.Confusion.Counts)
	}
	// Rows without level times: every miss is hard.
	bare := append([]Row(nil), rows...)
	for i := range bare {
		bare[i].LevelNs = nil
	}
	v = Validate(bare, all, impls, func(*Row) string { return "b" }, 0.05)
	if v.SoftKnown || v.Soft != 0 || v.Hard != 4 {
		t.Errorf("without level times: %+v", v)
	}
}

func TestRowsHash(t *testing.T) {
	rows, impls, _, _ := Rows(tiny(), WeightTime)
	h := RowsHash(rows, impls)
	again, _, _, _ := Rows(tiny(), WeightTime)
	if RowsHash(again, impls) != h || len(h) != 64 {
		t.Errorf("hash %s changes between loads", h)
	}
	none, _, _, _ := Rows(tiny(), WeightNone)
	if RowsHash(none, impls) == h {
		t.Error("weights do not change the hash")
	}
	again[3].Features[0]++
	if RowsHash(again, impls) == h {
		t.Error("a feature does not change the hash")
	}
}

func TestByRows(t *testing.T) {
	rows := make([]Row, 10)
	s := Split{Kind: ByRows, TrainFraction: 0.7, Seed: 1}
	train, test, err := s.Apply(rows, nil)
	if err != nil || len(train) != 7 || len(test) != 3 {
		t.Fatalf("train %v test %v err %v", train, test, err)
	}
	var k Split
	if err := k.ParseKind("rows"); err != nil || k.Kind != ByRows || k.KindName() != "rows" {
		t.Errorf("ParseKind(rows) = %+v, %v", k, err)
	}
}
