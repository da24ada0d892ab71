package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/mixmatch"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
)

const benchDecisionsHelp = `Writes a decision file for the switching BFS (graphperf-bfs --impl switch
--decisions FILE, kernels/cuda/README.md "Switching BFS"; seed 004 ch. 7,
Mix-and-Match): for each root, the implementation to run at every level.

--mode model (the default) takes, at each level, the implementation the time
model recommends ("graphperf predict bfs": the least predicted time; --model,
--machine as there); it reads GRAPH and needs no GPU. --mode oracle takes
the implementation measured fastest at each level (the least level
median_ns) in the runner results of GRAPH's name in DIR (--data; default the
embedded H100 dataset), the "optimal" of seed 004 §4.3: what a perfect
switch would run, an upper bound for any model, conversions not counted; it
reads GRAPH's name only, and without --roots takes every measured root.

The default line names the implementation with the least total over the
roots (predicted, or measured), for levels a root has beyond the file's
(there should be none). Per root it prints the switch's total (predicted, or
the measured optimum) beside the best single implementation's.`

// benchDecisions is "bench decisions".
func benchDecisions(e *env, args []string) error {
	fs := newFlagSet(e, "decisions", "bench decisions GRAPH [--roots R1,R2,...|--k K] [--mode model|oracle] [--model FILE] [--data DIR] -o FILE", benchDecisionsHelp)
	var lf loadFlags
	lf.register(fs)
	rootList := fs.String("roots", "", "comma-separated roots (model: default --k random roots; oracle: default every measured root)")
	k := fs.Int("k", 3, "model: random roots to draw without --roots")
	seed := fs.Uint64("seed", 1, "model: seed of the random roots")
	mode := fs.String("mode", "model", "model (the time model's recommendation) or oracle (the measured fastest)")
	modelPath := fs.String("model", "", "model: a time model written by \"predict train\" (default: the embedded H100 model)")
	machineName := fs.String("machine", "h100", "model: machine description, an embedded name or a YAML file; must be the model's")
	dataDir := fs.String("data", "", "oracle: the results directory (default: the embedded H100 dataset)")
	out := fs.String("o", "", "the decision file to write (required; - for stdout)")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o: an output file is required")
	}
	var d *kernels.Decisions
	var rows []decisionSummary
	switch *mode {
	case "model":
		d, rows, err = modelDecisions(e, lf, pos[0], *rootList, *k, *seed, *modelPath, *machineName)
	case "oracle":
		if *modelPath != "" {
			return fmt.Errorf("--model: only with --mode model")
		}
		d, rows, err = oracleDecisions(pos[0], *rootList, *dataDir)
	default:
		return fmt.Errorf("--mode %q: want model or oracle", *mode)
	}
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil {
		return err
	}
	if *out == "-" {
		_, err = e.stdout.Write(b.Bytes())
		return err
	}
	if err := writeFileAtomic(*out, b.Bytes()); err != nil {
		return err
	}
	t := &table{header: []string{"root", "levels", "switch_us", "best_single", "best_single_us", "speedup", "impls"}, name: "bench-decisions"}
	for _, r := range rows {
		t.add(strconv.FormatUint(uint64(r.root), 10), strconv.Itoa(r.levels), us(r.switchNs), r.bestSingle, us(r.bestSingleNs),
			strconv.FormatFloat(r.bestSingleNs/r.switchNs, 'f', 2, 64), strconv.Itoa(r.distinct))
	}
	fmt.Fprintf(e.stdout, "%s: %s decisions for %d roots (%s)\n\n", *out, *mode, len(rows), d.Source)
	return t.write(e.stdout, false)
}

// decisionSummary is one root's row of "bench decisions": the switch's
// total (predicted or measured optimum, conversions not counted) beside the
// best single implementation's.
type decisionSummary struct {
	root         uint32
	levels       int
	switchNs     float64
	bestSingle   string
	bestSingleNs float64
	distinct     int // implementations the root's levels use
}

func distinctImpls(impls []string) int {
	seen := map[string]bool{}
	for _, s := range impls {
		seen[s] = true
	}
	return len(seen)
}

// modelDecisions predicts every root's levels with the time model and
// takes each level's recommendation (predict.PredictBFS).
func modelDecisions(e *env, lf loadFlags, path, rootList string, k int, seed uint64, modelPath, machineName string) (*kernels.Decisions, []decisionSummary, error) {
	m, err := readModelFile(modelPath)
	if err != nil {
		return nil, nil, err
	}
	mach, err := loadMachine(machineName)
	if err != nil {
		return nil, nil, fmt.Errorf("--machine: %w", err)
	}
	if m.Machine != "" && mach.Name != m.Machine {
		return nil, nil, fmt.Errorf("--machine %s: the model was trained with machine %s", mach.Name, m.Machine)
	}
	ph, err := predict.NewPhysics(mach)
	if err != nil {
		return nil, nil, err
	}
	g, err := lf.load(e, path)
	if err != nil {
		return nil, nil, err
	}
	roots, err := benchRoots(g, rootList, k, seed)
	if err != nil {
		return nil, nil, err
	}
	name := filepath.Base(path)
	model := modelPath
	if model == "" {
		model = "default"
	}
	source := fmt.Sprintf("graphperf bench decisions --mode model: model %s (split %s), machine %s, graph %s",
		model, m.Training.Split, mach.Name, name)
	d, rds, warnings, err := mixmatch.ModelDecisions(m, ph, g, name, roots, source)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	var rows []decisionSummary
	for _, r := range rds {
		rows = append(rows, decisionSummary{root: r.Root, levels: r.Levels, switchNs: r.SwitchNs,
			bestSingle: r.BestSingle, bestSingleNs: r.BestSingleNs, distinct: r.Distinct})
	}
	return d, rows, nil
}

// graphName is a graph file's name as the runner's results give it: the
// base name without the format's extensions.
func graphName(path string) string {
	name := filepath.Base(path)
	for _, ext := range []string{".gz", ".gpg", ".txt", ".el", ".edges", ".mtx", ".tsv"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// oracleDecisions takes, at every level of every root, the implementation
// of least measured level median_ns in dir's results of path's graph
// (seed 004 §4.3's per-level optimum). Only validated runs with complete
// level times count (aggregate.FromResults).
func oracleDecisions(path, rootList, dir string) (*kernels.Decisions, []decisionSummary, error) {
	if dir == "" {
		var err error
		if dir, err = resultsDir(nil); err != nil {
			return nil, nil, err
		}
	}
	name := graphName(path)
	file := filepath.Join(dir, name+".jsonl.gz")
	res, err := kernels.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("--mode oracle: %s has no results of %s (no %s)", dir, name, filepath.Base(file))
	} else if err != nil {
		return nil, nil, err
	}
	runs, _, err := aggregate.FromResults(res)
	if err != nil {
		return nil, nil, err
	}
	byRoot := map[uint32][]aggregate.Run{}
	for _, r := range runs {
		if r.Graph == name && r.LevelNs != nil && r.Impl != kernels.ImplSwitch {
			byRoot[r.Root] = append(byRoot[r.Root], r)
		}
	}
	var roots []uint32
	if rootList == "" {
		for r := range byRoot {
			roots = append(roots, r)
		}
		sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
	} else {
		for _, s := range strings.Split(rootList, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
			if err != nil {
				return nil, nil, fmt.Errorf("--roots: %q is not a vertex id", s)
			}
			roots = append(roots, uint32(v))
		}
	}
	if len(roots) == 0 {
		return nil, nil, fmt.Errorf("--mode oracle: %s: no validated runs with level times", file)
	}
	d := &kernels.Decisions{Source: fmt.Sprintf("graphperf bench decisions --mode oracle: measured fastest per level in %s", filepath.Base(file))}
	totals := map[string]float64{}
	var rows []decisionSummary
	for _, root := range roots {
		rs := byRoot[root]
		if len(rs) == 0 {
			var have []string
			for r := range byRoot {
				have = append(have, strconv.FormatUint(uint64(r), 10))
			}
			sort.Strings(have)
			return nil, nil, fmt.Errorf("--mode oracle: %s has no runs of %s from root %d (measured roots: %s)", filepath.Base(file), name, root, strings.Join(have, ","))
		}
		levels := len(rs[0].LevelNs)
		row := decisionSummary{root: root, levels: levels, bestSingleNs: math.Inf(1)}
		var impls []string
		for L := 0; L < levels; L++ {
			best, bestNs := "", math.Inf(1)
			for _, r := range rs {
				if len(r.LevelNs) != levels {
					return nil, nil, fmt.Errorf("%s from root %d: %s ran %d levels, %s %d", name, root, r.Impl, len(r.LevelNs), rs[0].Impl, levels)
				}
				if ns := r.LevelNs[L]; ns < bestNs || (ns == bestNs && r.Impl < best) {
					best, bestNs = r.Impl, ns
				}
			}
			d.Levels = append(d.Levels, kernels.Decision{Root: int64(root), Level: L, Impl: best})
			impls = append(impls, best)
			row.switchNs += bestNs
		}
		for _, r := range rs {
			totals[r.Impl] += r.TotalNs
			if r.TotalNs < row.bestSingleNs {
				row.bestSingle, row.bestSingleNs = r.Impl, r.TotalNs
			}
		}
		row.distinct = distinctImpls(impls)
		rows = append(rows, row)
	}
	d.Default = mixmatch.ArgminImpl(totals)
	return d, rows, nil
}
