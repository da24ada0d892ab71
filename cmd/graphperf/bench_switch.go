package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

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
	var rows []mixmatch.RootDecision
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
	fmt.Fprintf(e.stdout, "%s: %s decisions for %d roots (%s)\n\n", *out, *mode, len(rows), d.Source)
	return tableOf(mixmatch.DecisionsTable(rows)).write(e.stdout, false)
}

// machineFlagError is err with --machine named for a machine other than
// the model's (predict.MachineMismatchError).
func machineFlagError(err error) error {
	if mm := (*predict.MachineMismatchError)(nil); errors.As(err, &mm) {
		return fmt.Errorf("--%w", err)
	}
	return err
}

// modelDecisions predicts every root's levels with the time model and
// takes each level's recommendation (mixmatch.ModelDecisions).
func modelDecisions(e *env, lf loadFlags, path, rootList string, k int, seed uint64, modelPath, machineName string) (*kernels.Decisions, []mixmatch.RootDecision, error) {
	m, err := readModelFile(modelPath)
	if err != nil {
		return nil, nil, err
	}
	mach, err := loadMachine(machineName)
	if err != nil {
		return nil, nil, fmt.Errorf("--machine: %w", err)
	}
	ph, err := predict.PhysicsFor(m, mach)
	if err != nil {
		return nil, nil, machineFlagError(err)
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
	source := mixmatch.ModelSource("graphperf bench decisions --mode model", mixmatch.ModelName(modelPath), m, mach.Name, name)
	d, rows, warnings, err := mixmatch.ModelDecisions(m, ph, g, name, roots, source)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	return d, rows, nil
}

// oracleDecisions takes, at every level of every root, the implementation
// of least measured level median_ns in dir's results of path's graph
// (mixmatch.Oracle; default dir: the embedded dataset).
func oracleDecisions(path, rootList, dir string) (*kernels.Decisions, []mixmatch.RootDecision, error) {
	if dir == "" {
		var err error
		if dir, err = resultsDir(nil); err != nil {
			return nil, nil, err
		}
	}
	o, err := mixmatch.LoadOracle(dir, mixmatch.GraphName(path))
	if err != nil {
		return nil, nil, oracleFlagError(err)
	}
	var roots []uint32
	if rootList == "" {
		roots = o.Roots()
	} else {
		for _, s := range strings.Split(rootList, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
			if err != nil {
				return nil, nil, fmt.Errorf("--roots: %q is not a vertex id", s)
			}
			roots = append(roots, uint32(v))
		}
	}
	d, rows, err := o.Decisions(roots)
	return d, rows, oracleFlagError(err)
}

// oracleFlagError is err with --mode oracle named for missing runs.
func oracleFlagError(err error) error {
	if mr := (*mixmatch.MissingRunsError)(nil); errors.As(err, &mr) {
		return fmt.Errorf("--mode oracle: %w", err)
	}
	return err
}
