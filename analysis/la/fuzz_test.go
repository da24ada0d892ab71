package la

import (
	"strings"
	"testing"
)

// FuzzReadProfile and FuzzReadTotals: the readers return errors, never
// panic, on any input; SplitLaunches of what they accept either errors or
// accounts for every launch.
func FuzzReadProfile(f *testing.F) {
	f.Add(csvOf([]launch{{"k_la_bfs_pull", map[string]float64{MInst: 3}}}), int64(1))
	f.Add("\"ID\",\"Kernel Name\"\n", int64(0))
	f.Add("", int64(2))
	f.Fuzz(func(t *testing.T, text string, launches int64) {
		ls, _, err := ReadProfile(strings.NewReader(text), "f.csv")
		if err != nil {
			return
		}
		c, _, err := SplitLaunches(ls, []Total{{Impl: "bfs-pull", KernelLaunches: launches, Reps: 1, Verified: true}})
		if err == nil && launches >= 0 && int64(len(ls)) == launches && c["bfs-pull"].Launches != len(ls) {
			t.Fatalf("split %d launches into %d", len(ls), c["bfs-pull"].Launches)
		}
	})
}

func FuzzReadTotals(f *testing.F) {
	f.Add(totalLine("g", "bfs-pull", "bfs", "linalg", "-", 1, 2, 3, 1, 4, true))
	f.Add(`{"type":"total"}`)
	f.Add("{")
	f.Fuzz(func(t *testing.T, text string) {
		ts, err := ReadTotals(strings.NewReader(text), "f.jsonl")
		if err == nil && len(ts) == 0 {
			t.Fatal("no error and no totals")
		}
	})
}
