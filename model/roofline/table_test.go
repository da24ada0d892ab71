package roofline

import (
	"slices"
	"testing"
)

// TestNotes: the file's warnings first, then each launch warning once with
// its launches, ordered by the first launch that has it (numeric: b's is
// launch 10), then by text.
func TestNotes(t *testing.T) {
	rep := &Report{Warnings: []string{"file"}, Launches: []LaunchRow{
		{ID: "10", Warnings: []string{"b"}},
		{ID: "2", Warnings: []string{"b", "a"}},
		{ID: "3", Warnings: []string{"c"}},
	}}
	want := []string{"file", "launch 2: a", "launch 3: c", "launches 10, 2: b"}
	if got := rep.Notes(); !slices.Equal(got, want) {
		t.Errorf("Notes = %q, want %q", got, want)
	}
}

// TestCount: whole counts in full, fractions with 6 significant digits.
func TestCount(t *testing.T) {
	for x, want := range map[float64]string{4856663: "4856663", 1.5: "1.5", 1e15: "1e+15", 2.0 / 3: "0.666667"} {
		if got := Count(x); got != want {
			t.Errorf("Count(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestTables: a launch without a level prints "-" for it, and the
// ceilings print "-" where a field does not apply.
func TestTables(t *testing.T) {
	ridge := 4.0
	rep := &Report{
		Ceilings: []CeilingRow{{Ceiling: "compute", Source: "peak", WarpGIPS: &ridge}, {Ceiling: "DRAM", Source: "peak", RidgePoint: &ridge}},
		Launches: []LaunchRow{
			{ID: "1", Kernel: "k", TimeNs: 2000, WarpInstructions: 100, Levels: []LevelRow{{Level: "L2", Transactions: 50}}},
			{ID: "2", Kernel: "k", TimeNs: 1000, Levels: []LevelRow{{Level: "DRAM", Transactions: 10}}},
		},
	}
	ct := rep.CeilingsTable()
	if got := ct.Rows[0]; got[2] != "-" || got[4] != "4" || got[5] != "-" {
		t.Errorf("compute ceiling %q", got)
	}
	if got := ct.Rows[1][5]; got != "4.00" {
		t.Errorf("DRAM ridge %q", got)
	}
	lt := rep.LaunchesTable()
	lt.Name = "launches" // Check needs a name; a report gives it
	if err := lt.Check(); err != nil {
		t.Fatal(err)
	}
	i := slices.Index(lt.Header, "DRAM_txn")
	if i < 0 || lt.Rows[0][i] != "-" || lt.Rows[1][i] != "10" || lt.Rows[1][i+1] != "+Inf" || lt.Rows[0][2] != "2" {
		t.Errorf("launches %q under %q", lt.Rows, lt.Header)
	}
}
