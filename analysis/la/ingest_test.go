package la

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/store"
)

// Ingest stores the committed H100 measurements: every timed run (the
// count LoadTimed's validation gives, computed independently from the
// files) and the counters of every profiled implementation, each launch a
// level; a second ingest stores nothing new.
func TestIngestCommitted(t *testing.T) {
	dir := filepath.Join("..", "..", "kernels", "measured", "h100", "la")
	res, err := LoadTimed([]Source{DirSource(dir)})
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := Ingest(db, "la", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	profs, err := globAll(DirSource(dir).FS, "ncu/*.ncu.jsonl", "ncu/*.ncu.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != res.Validation.Runs || st.TimedFiles != 51 || st.Profiles != len(profs) || st.Profiles < 18 || st.Launches == 0 || st.Counters < st.Launches {
		t.Fatalf("stats %+v; LoadTimed counts %d runs", st, res.Validation.Runs)
	}
	// One profiled pass: email-enron's sssp-v2, whose total says how
	// many kernels it launched.
	root := int64(-1)
	launches := int64(0)
	profiled, err := readTotalsFS(DirSource(dir).FS, "ncu/email-enron.ncu.jsonl.gz", "email-enron")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profiled {
		if p.Impl == "sssp-v2" {
			root, launches = *p.Root, p.KernelLaunches
		}
	}
	cs, err := db.VariantCounters(store.NcuTarget{Dataset: "la", Graph: "email-enron", Algorithm: "sssp", Implementation: "sssp-v2", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	levels := map[int]bool{}
	for _, c := range cs {
		levels[c.Level] = true
	}
	if launches == 0 || int64(len(levels)) != launches {
		t.Errorf("sssp-v2 on email-enron: counters of %d launches, the pass made %d", len(levels), launches)
	}
	again, err := Ingest(db, "la", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if again.Runs != 0 || again.Skipped != 51 {
		t.Errorf("second ingest: %+v", again)
	}
	if _, err := Ingest(db, "la", []string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not a measure-la.sh directory") {
		t.Errorf("an empty directory: %v", err)
	}
}
