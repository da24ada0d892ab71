package embedded

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/internal/lockfile"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
)

// Options say whom Store tells what it does; the zero value tells no one.
type Options struct {
	// Log, when not nil, is told when the store is built.
	Log io.Writer
	// Progress, when not nil, is called after each file of dataset name is
	// stored, with the files done and their total.
	Progress func(name string, done, total int)
}

// Store opens the store built from the embedded datasets (the H100's and
// the H200's, datasets "h100" and "h200"): a file in measured.CacheDir()
// named after the last dataset's hash, built once (about 4 s on 2 cores)
// from the BFS sweeps, the PageRank sweeps and the ncu counters. Nothing
// is written into the working directory. Processes share it safely: one
// builds at a time (the lock FILE.build.lock; the others wait, telling opt.Log
// whom they wait for, then open what it built), into a temporary file
// named after its pid that is renamed into place when complete; the
// temporary files of a killed build are removed by the next call.
func Store(opt Options) (*store.DB, error) {
	sets := make([]*measured.Dataset, 0, len(measured.Platforms))
	for _, name := range measured.Platforms {
		d, err := measured.Get(name)
		if err != nil {
			return nil, err
		}
		sets = append(sets, d)
	}
	path := filepath.Join(measured.CacheDir(), "embedded-"+sets[len(sets)-1].Hash()[:16]+".db")
	dir, base := filepath.Split(path)
	measured.RemoveOrphans(dir, base)
	if _, err := os.Stat(path); err == nil {
		return store.Open(path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockfile.Acquire(path+".build.lock", lockfile.Options{Wait: -1, Waiting: func(h lockfile.Holder) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "waiting for %s, which builds the store of the embedded datasets in %s\n", h, path)
		}
	}})
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	if _, err := os.Stat(path); err == nil { // built while this process waited
		return store.Open(path)
	}
	measured.RemoveOrphans(dir, base)
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "building the store of the embedded datasets in %s (once)\n", path)
	}
	tmp, err := os.CreateTemp(dir, lockfile.TempPattern(base))
	if err != nil {
		return nil, err
	}
	tmpPath := tmp.Name()
	tmp.Close()
	clean := func() {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".lock"} {
			os.Remove(tmpPath + suffix)
		}
	}
	defer clean() // a no-op once renamed, but for the writer lock file
	if err := os.Chmod(tmpPath, 0o644); err != nil {
		return nil, err
	}
	if err := build(tmpPath, sets, opt); err != nil {
		return nil, fmt.Errorf("embedded store: %w", err)
	}
	faultpoint.Hit("cache: store built")
	if err := os.Rename(tmpPath, path); err != nil {
		return nil, err
	}
	return store.Open(path)
}

func build(path string, sets []*measured.Dataset, opt Options) (err error) {
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	for _, d := range sets {
		dir, err := d.Dir()
		if err != nil {
			return err
		}
		if err := ingest(db, d.Name(), dir, opt); err != nil {
			return fmt.Errorf("%s: %w", d.Name(), err)
		}
	}
	return nil
}

// ingest stores one embedded dataset, unpacked in dir, as dataset name:
// its BFS and PageRank sweeps and its ncu profiles.
func ingest(db *store.DB, name, dir string, opt Options) error {
	bfs, err := store.Inputs([]string{dir}, name, "")
	if err != nil {
		return err
	}
	pr, err := store.Inputs([]string{filepath.Join(dir, "pagerank")}, name, "")
	if err != nil {
		return err
	}
	ins := append(bfs, pr...)
	mc := store.Manifests{}
	for i, in := range ins {
		if _, err := mc.Ingest(db, in, store.IngestOptions{}); err != nil {
			return err
		}
		if opt.Progress != nil {
			opt.Progress(name, i+1, len(ins))
		}
	}
	return ingestProfiles(db, name, dir)
}

// ingestProfiles stores the ncu profiles of the dataset in dir; one whose
// root the sweep did not measure (rmat-s22-e8, profiled from root 0) has no
// variant to attach to and is left out.
func ingestProfiles(db *store.DB, name, dir string) error {
	profiles, err := NcuProfiles(dir)
	if err != nil {
		return err
	}
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	swept := map[string][]uint32{}
	for _, g := range man.Graphs {
		swept[g.Name] = g.Roots
	}
	for _, p := range profiles {
		if !slices.Contains(swept[p.Graph], p.Root) {
			continue
		}
		target := store.NcuTarget{Dataset: name, Graph: p.Graph, Implementation: "topo", Root: int64(p.Root)}
		if _, err := db.IngestNcuCSV(p.CSV, target); err != nil {
			return err
		}
	}
	return nil
}

// ncuRoot finds the root in an ncu_topo.sh log ("... from root N -> ...").
var ncuRoot = regexp.MustCompile(`from root ([0-9]+) `)

// NcuProfile is one ncu/NAME.csv of a results directory with the root that
// ncu_topo.sh logged in ncu/NAME.log.
type NcuProfile struct {
	Graph, CSV string
	Root       uint32
}

// The profile folders of a results directory: NcuFolder holds the
// profiles the operator machine's counter mapping was developed on,
// NcuHeldOutFolder (H100 only) those taken after its last change, to test
// it on levels it was not chosen on.
const (
	NcuFolder        = "ncu"
	NcuHeldOutFolder = "ncu-heldout"
)

// NcuProfiles lists dir/ncu/*.csv and *.csv.gz (gzipped, as
// kernels/measure-ncu.sh stores them), by name, with their roots.
func NcuProfiles(dir string) ([]NcuProfile, error) { return NcuProfilesIn(dir, NcuFolder) }

// NcuProfilesIn is NcuProfiles of the profile folder dir/folder; a folder
// that does not exist is an error.
func NcuProfilesIn(dir, folder string) ([]NcuProfile, error) {
	if _, err := os.Stat(filepath.Join(dir, folder)); err != nil {
		return nil, err
	}
	var csvs []string
	for _, pattern := range []string{"*.csv", "*.csv.gz"} {
		m, err := filepath.Glob(filepath.Join(dir, folder, pattern))
		if err != nil {
			return nil, err
		}
		csvs = append(csvs, m...)
	}
	sort.Strings(csvs)
	var out []NcuProfile
	for _, csv := range csvs {
		p, err := ncuProfile(dir, csv)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ncuProfile is the profile csv of dir with its root: from its log, or
// without one (kernels/measured/h200/ncu/PROVENANCE.txt says why) the
// manifest's first root, from which measure-ncu.sh profiles.
func ncuProfile(dir, csv string) (NcuProfile, error) {
	base := strings.TrimSuffix(strings.TrimSuffix(csv, ".gz"), ".csv")
	p := NcuProfile{Graph: filepath.Base(base), CSV: csv}
	logPath := base + ".log"
	log, err := os.ReadFile(logPath)
	if errors.Is(err, os.ErrNotExist) {
		root, rerr := manifestFirstRoot(dir, p.Graph)
		if rerr != nil {
			return p, fmt.Errorf("%s: no log and %w", csv, rerr)
		}
		p.Root = root
		return p, nil
	}
	if err != nil {
		return p, err
	}
	m := ncuRoot.FindSubmatch(log)
	if m == nil {
		return p, fmt.Errorf("%s: no \"from root N\" line", logPath)
	}
	root, err := strconv.ParseUint(string(m[1]), 10, 32)
	if err != nil {
		return p, fmt.Errorf("%s: root %s: %w", logPath, m[1], err)
	}
	p.Root = uint32(root)
	return p, nil
}

// manifestFirstRoot is the first root of graph name in dir/manifest.json.
func manifestFirstRoot(dir, name string) (uint32, error) {
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return 0, err
	}
	for _, g := range man.Graphs {
		if g.Name == name && len(g.Roots) > 0 {
			return g.Roots[0], nil
		}
	}
	return 0, fmt.Errorf("no graph %s with roots in %s", name, filepath.Join(dir, "manifest.json"))
}
