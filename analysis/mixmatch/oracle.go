package mixmatch

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// GraphName is a graph file's name as the runner's results give it: the
// base name of path without the format's extensions (.gz, .gpg, .txt,
// .el, .edges, .mtx, .tsv, stripped in that order).
func GraphName(path string) string {
	name := filepath.Base(path)
	for _, ext := range []string{".gz", ".gpg", ".txt", ".el", ".edges", ".mtx", ".tsv"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// MissingRunsError is an oracle input that lacks what was asked for: the
// graph's results file, any validated run with level times, or runs from
// a root.
type MissingRunsError struct{ msg string }

func (e *MissingRunsError) Error() string { return e.msg }

func missingRuns(format string, args ...any) error {
	return &MissingRunsError{msg: fmt.Sprintf(format, args...)}
}

// Oracle is the measured runs of one graph that the per-level optimum of
// seed 004 §4.3 chooses from: the validated runs with complete level
// times of every non-switching implementation, by root.
type Oracle struct {
	Graph  string // the graph's name in the results
	File   string // the results file read
	ByRoot map[uint32][]aggregate.Run
}

// LoadOracle reads the results of graph name in dir (NAME.jsonl.gz; a
// missing file is a *MissingRunsError) and keeps the validated runs with
// level times (aggregate.FromResults) of every implementation but the
// switch. It reads the file once.
func LoadOracle(dir, name string) (*Oracle, error) {
	file := filepath.Join(dir, name+".jsonl.gz")
	res, err := kernels.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, missingRuns("%s has no results of %s (no %s)", dir, name, filepath.Base(file))
	} else if err != nil {
		return nil, err
	}
	runs, _, err := aggregate.FromResults(res)
	if err != nil {
		return nil, err
	}
	o := &Oracle{Graph: name, File: file, ByRoot: map[uint32][]aggregate.Run{}}
	for _, r := range runs {
		if r.Graph == name && r.LevelNs != nil && r.Impl != kernels.ImplSwitch {
			o.ByRoot[r.Root] = append(o.ByRoot[r.Root], r)
		}
	}
	return o, nil
}

// Roots are the measured roots, in increasing order.
func (o *Oracle) Roots() []uint32 {
	roots := make([]uint32, 0, len(o.ByRoot))
	for r := range o.ByRoot {
		roots = append(roots, r)
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
	return roots
}

// Decisions takes, at every level of every root of roots, the
// implementation of least measured level median_ns (ties: the first
// name), seed 004 §4.3's per-level optimum, conversions not counted; the
// default is the implementation of least measured total over the roots.
// Each root's row gives the optimum's total beside the best single
// implementation's. No roots, or a root without runs, is a
// *MissingRunsError; implementations that ran different numbers of levels
// are an error. O(roots × levels × implementations).
func (o *Oracle) Decisions(roots []uint32) (*kernels.Decisions, []RootDecision, error) {
	if len(roots) == 0 {
		return nil, nil, missingRuns("%s: no validated runs with level times", o.File)
	}
	d := &kernels.Decisions{Source: fmt.Sprintf("graphperf bench decisions --mode oracle: measured fastest per level in %s", filepath.Base(o.File))}
	totals := map[string]float64{}
	var rows []RootDecision
	for _, root := range roots {
		rs := o.ByRoot[root]
		if len(rs) == 0 {
			have := make([]string, 0, len(o.ByRoot))
			for _, r := range o.Roots() {
				have = append(have, strconv.FormatUint(uint64(r), 10))
			}
			sort.Strings(have)
			return nil, nil, missingRuns("%s has no runs of %s from root %d (measured roots: %s)", filepath.Base(o.File), o.Graph, root, strings.Join(have, ","))
		}
		row, levels, err := o.rootOptimum(root, rs)
		if err != nil {
			return nil, nil, err
		}
		d.Levels = append(d.Levels, levels...)
		for _, r := range rs {
			totals[r.Impl] += r.TotalNs
		}
		rows = append(rows, row)
	}
	d.Default = ArgminImpl(totals)
	return d, rows, nil
}

// rootOptimum is the per-level optimum of one root's runs rs: its row and
// its decisions. O(levels × len(rs)).
func (o *Oracle) rootOptimum(root uint32, rs []aggregate.Run) (RootDecision, []kernels.Decision, error) {
	levels := len(rs[0].LevelNs)
	row := RootDecision{Root: root, Levels: levels, BestSingleNs: math.Inf(1)}
	var ds []kernels.Decision
	impls := map[string]bool{}
	for L := 0; L < levels; L++ {
		best, bestNs := "", math.Inf(1)
		for _, r := range rs {
			if len(r.LevelNs) != levels {
				return RootDecision{}, nil, fmt.Errorf("%s from root %d: %s ran %d levels, %s %d", o.Graph, root, r.Impl, len(r.LevelNs), rs[0].Impl, levels)
			}
			if ns := r.LevelNs[L]; ns < bestNs || (ns == bestNs && r.Impl < best) {
				best, bestNs = r.Impl, ns
			}
		}
		ds = append(ds, kernels.Decision{Root: int64(root), Level: L, Impl: best})
		impls[best] = true
		row.SwitchNs += bestNs
	}
	for _, r := range rs {
		if r.TotalNs < row.BestSingleNs {
			row.BestSingle, row.BestSingleNs = r.Impl, r.TotalNs
		}
	}
	row.Distinct = len(impls)
	return row, ds, nil
}

// ModelName is the name of a time model file in decision sources: the
// path, or "default" for the embedded default model ("").
func ModelName(path string) string {
	if path == "" {
		return "default"
	}
	return path
}
