package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels/measured"
)

// defaultResultsName is how help texts name the embedded dataset.
const defaultResultsName = "the embedded H100 dataset (kernels/measured/h100)"

// resultsDir returns the results directory a command reads: its argument
// when given (an "embedded:" path is resolved), else the embedded H100
// dataset unpacked into the cache (measured.Dir).
func resultsDir(args []string) (string, error) {
	if len(args) > 0 {
		return measured.Resolve(args[0])
	}
	return measured.Dir()
}

// embeddedStore opens the store built from the embedded H100 dataset:
// measured.CacheDir()/h100.db, built once (about 10 s on 2 cores) from the
// BFS sweep, the PageRank sweep and the ncu counters, into a temporary file
// that is renamed into place when complete. Nothing is written into the
// working directory.
func embeddedStore(e *env) (*store.DB, error) {
	path := filepath.Join(measured.CacheDir(), "h100.db")
	if _, err := os.Stat(path); err == nil {
		return store.Open(path)
	}
	dir, err := measured.Dir()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(e.stderr, "building the store of the embedded H100 dataset in %s (once)\n", path)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".h100-*.db")
	if err != nil {
		return nil, err
	}
	tmpPath := tmp.Name()
	tmp.Close()
	clean := func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(tmpPath + suffix)
		}
	}
	if err := buildEmbeddedStore(e, tmpPath, dir); err != nil {
		clean()
		return nil, fmt.Errorf("embedded store: %w", err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		clean()
		return nil, err
	}
	return store.Open(path)
}

// ncuRoot finds the root in an ncu_topo.sh log ("... from root N -> ...").
var ncuRoot = regexp.MustCompile(`from root ([0-9]+) `)

func buildEmbeddedStore(e *env, path, dir string) (err error) {
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	bfs, err := ingestInputs([]string{dir}, measured.Name, "")
	if err != nil {
		return err
	}
	pr, err := ingestInputs([]string{filepath.Join(dir, "pagerank")}, measured.Name, "")
	if err != nil {
		return err
	}
	ins := append(bfs, pr...)
	bar := progress.New(e.stderr, e.interactive, "store", false)
	mc := manifestCache{}
	for i, in := range ins {
		if _, err := mc.ingest(db, in); err != nil {
			bar.Done()
			return err
		}
		bar.Update(int64(i+1), int64(len(ins)))
	}
	bar.Done()
	// The ncu profiles whose root the sweep measured (ncu_topo.sh logs it).
	csvs, _ := filepath.Glob(filepath.Join(dir, "ncu", "*.csv"))
	for _, csv := range csvs {
		name := filepath.Base(csv[:len(csv)-len(".csv")])
		log, err := os.ReadFile(csv[:len(csv)-len(".csv")] + ".log")
		if err != nil {
			return err
		}
		m := ncuRoot.FindSubmatch(log)
		if m == nil {
			return fmt.Errorf("%s.log: no \"from root N\" line", name)
		}
		root, _ := strconv.ParseInt(string(m[1]), 10, 64)
		target := store.NcuTarget{Dataset: measured.Name, Graph: name, Implementation: "topo", Root: root}
		if _, err := db.IngestNcuCSV(csv, target); err != nil {
			// rmat-s22-e8 was profiled but not swept: no variant to attach to.
			continue
		}
	}
	return nil
}
