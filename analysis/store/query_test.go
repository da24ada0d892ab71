package store

import "testing"

// TestRunTimesAgrees checks RunTimes against Totals and LevelMedians.
func TestRunTimesAgrees(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "d", nil); err != nil {
		t.Fatal(err)
	}
	// Runs without levels (a CSV of totals) get no level times.
	path := writeFile(t, "t.csv", "g,impl,ms\nfig2,tool-x,0.5\n")
	if _, err := db.IngestCSV(path, mustMapping(t, "graph=g,impl=impl,time_ms=ms"), "d"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{{}, {ValidatedOnly: true}, {Implementation: "queue"}, {Implementation: "tool-x"}} {
		got, err := db.RunTimes(f)
		if err != nil {
			t.Fatal(err)
		}
		totals, _ := db.Totals(f)
		levels, _ := db.LevelMedians(f)
		if len(got) != len(totals) {
			t.Fatalf("%+v: %d runs, Totals has %d", f, len(got), len(totals))
		}
		byRun := map[int64]Total{}
		for _, tt := range totals {
			byRun[tt.RunID] = tt
		}
		wantLevels := map[int64][]float64{}
		for _, l := range levels {
			wantLevels[l.RunID] = append(wantLevels[l.RunID], l.MedianNs)
		}
		for i, r := range got {
			tt := byRun[r.RunID]
			if i > 0 && got[i-1].RunID >= r.RunID {
				t.Errorf("%+v: runs not ordered by id", f)
			}
			if r.Graph != tt.Graph || r.Implementation != tt.Implementation || r.Root != tt.Root ||
				r.MedianNs != tt.MedianNs || r.Levels != tt.Levels {
				t.Errorf("%+v: run %+v, Totals says %+v", f, r, tt)
			}
			want := wantLevels[r.RunID]
			if len(r.LevelMedianNs) != len(want) {
				t.Fatalf("%+v: run %d levels %v, want %v", f, r.RunID, r.LevelMedianNs, want)
			}
			for l := range want {
				if r.LevelMedianNs[l] != want[l] {
					t.Errorf("%+v: run %d level %d: %v, want %v", f, r.RunID, l, r.LevelMedianNs[l], want[l])
				}
			}
		}
	}
}
