package la

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/analysis/store"
)

// IngestStats says what Ingest stored.
type IngestStats struct {
	// TimedFiles and Runs count the timed files and the runs they stored
	// (runs already stored are not counted again); Skipped the files
	// already stored (same content).
	TimedFiles, Runs, Skipped int
	// Profiles is the ncu profiles read, Counters the counter values
	// stored, Launches the kernel launches they belong to.
	Profiles, Launches, Counters int
	Warnings                     []string
}

// Ingest stores measure-la.sh results directories (dirs) in db as dataset:
// every timed file (DIR/timed/NAME.la.jsonl[.gz]) as runner output (the
// store reads graphperf-la's total lines as the BFS runner's: BFS depth
// hash, SSSP distance hash, PageRank's iterations; no level lines), then
// every ncu profile (DIR/ncu/NAME.ncu.jsonl[.gz] with NAME.csv[.gz]) as
// counters of the variant the timed runs stored: the pass's launches split
// among its implementations (LaunchesByImpl), the k-th launch of an
// implementation stored as its level k. Each file is one transaction; the
// first error stops, naming the file, and what was stored before it stays.
// A profile whose graph and root have no timed run is an error (the
// counters need the variant).
func Ingest(db *store.DB, dataset string, dirs []string) (IngestStats, error) {
	var st IngestStats
	for _, dir := range dirs {
		fsys := os.DirFS(dir)
		timed, err := globAll(fsys, "timed/*.la.jsonl", "timed/*.la.jsonl.gz")
		if err != nil {
			return st, fmt.Errorf("%s: %w", dir, err)
		}
		profs, err := globAll(fsys, "ncu/*.ncu.jsonl", "ncu/*.ncu.jsonl.gz")
		if err != nil {
			return st, fmt.Errorf("%s: %w", dir, err)
		}
		if len(timed) == 0 && len(profs) == 0 {
			return st, fmt.Errorf("%s: no timed/*.la.jsonl and no ncu/*.ncu.jsonl: not a measure-la.sh directory", dir)
		}
		for _, f := range timed {
			s, err := db.IngestRunnerJSONL(filepath.Join(dir, f), dataset, nil)
			if err != nil {
				return st, err
			}
			st.TimedFiles++
			st.Runs += s.Runs
			if s.Skipped {
				st.Skipped++
			}
		}
		for _, pf := range profs {
			if err := ingestProfile(db, dataset, dir, fsys, pf, &st); err != nil {
				return st, err
			}
		}
	}
	st.Warnings = collapseMissing(st.Warnings)
	return st, nil
}

// ingestProfile stores one ncu profile's counters (Ingest).
func ingestProfile(db *store.DB, dataset, dir string, fsys fs.FS, pf string, st *IngestStats) error {
	full := path.Join(dir, pf)
	name := strings.TrimSuffix(strings.TrimSuffix(path.Base(pf), ".gz"), ".ncu.jsonl")
	ts, err := readTotalsFS(fsys, pf, full)
	if err != nil {
		return err
	}
	csvPath := "ncu/" + name + ".csv.gz"
	if _, err := fs.Stat(fsys, csvPath); err != nil {
		csvPath = "ncu/" + name + ".csv"
	}
	csvFull := path.Join(dir, csvPath)
	launches, warns, err := readProfileFS(fsys, csvPath, csvFull)
	if err != nil {
		return fmt.Errorf("%s: %w", csvFull, err)
	}
	st.Warnings = append(st.Warnings, warns...)
	byImpl, warns, err := LaunchesByImpl(launches, ts)
	if err != nil {
		return fmt.Errorf("%s: %w", csvFull, err)
	}
	for _, w := range warns {
		st.Warnings = append(st.Warnings, name+": "+w)
	}
	st.Profiles++
	for _, t := range ts {
		ls, ok := byImpl[t.Impl]
		if !ok || len(ls) == 0 {
			continue
		}
		root := int64(-1)
		if t.Root != nil {
			root = *t.Root
		}
		target := store.NcuTarget{Dataset: dataset, Graph: strings.TrimSuffix(t.Graph, ".gpg"), Algorithm: t.Algorithm,
			Implementation: t.Impl, Root: root}
		s, err := db.IngestLaunches(csvFull, ls, target)
		if err != nil {
			return err
		}
		st.Launches += s.Levels
		st.Counters += s.Counters
	}
	return nil
}
