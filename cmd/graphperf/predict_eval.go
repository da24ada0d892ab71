package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/model/predict"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

const predictEvaluateHelp = `Scores the time model the honest way: for every split, no graph is on both
sides; the hyper-parameters (target, leaves, minimum leaf, number of trees)
are chosen on validation graphs taken from the training side; the test
graphs are used once, to score. Per split it prints Mix-and-Match (at every
level the implementation with the least predicted time; its measured time,
switching cost not included) against the per-level optimum (seed 004 §4.3
Total), beside: best non-switching (the oracle single implementation per
input), the best fixed implementation (least total on the training graphs),
seed 004's classification tree (its depth and leaf size also chosen on the
validation graphs) and, where python3 with scikit-learn is installed, the
HistGradientBoostingRegressor baseline of docs/baselines on the same splits;
and the per-level time error over every implementation (median, share within
±20 %, mean Spearman rank correlation per level).

--split graphs holds out --fraction of the graphs, once per --seeds; family
holds out one generator family at a time (the SNAP graphs are the family
"real"; --families limits it to some); real trains on the generated graphs
and tests on the SNAP graphs.
A summary gives each kind's mean [min-max] and how often the model beats
best non-switching.

With --model FILE it trains nothing: it scores that model on every graph of
the data that the model's file does not list among its training and
validation graphs: its own test graphs on the dataset it came from, or every
graph of new measurements (DIR, or --db STORE after "graphperf bench
ingest"). The names heldout-graphs and heldout-real are the embedded models
trained on one side of the graphs split (seed 1) and of the
synthetic-to-real split; default is the embedded model trained on every
graph of the embedded dataset (the one "predict bfs" uses), which only new
measurements can score (kernels/measured/h100/unseen-2026-11-26).`

func predictEvaluate(e *env, args []string) error {
	fs := newFlagSet(e, "predict evaluate", "predict evaluate [DIR] [--split graphs,family,real] [--seeds 1-10] [--fraction 0.5] [--families LIST] [--baseline auto|none|SCRIPT] [--model FILE] [--levels FILE] [--json | --csv [--table splits|summary]] [--plot DIR]", predictEvaluateHelp)
	kinds := fs.String("split", "graphs,real", "comma-separated split kinds: graphs, family, real")
	seedList := fs.String("seeds", "1-10", "seeds of the graphs split: a list (1,2,3) or a range (1-10)")
	fraction := fs.Float64("fraction", 0.5, "share of the graphs held out by the graphs split")
	families := fs.String("families", "", "with --split family: hold out only these families (comma-separated; default every one)")
	baseline := fs.String("baseline", "auto", "the scikit-learn baseline: auto (run docs/baselines/sklearn_hgb.py when python3 has scikit-learn), none, or a script path")
	modelPath := fs.String("model", "", "score this saved model instead of training")
	machineName := fs.String("machine", "h100", "machine description of the dataset's GPU")
	plotDir := fs.String("plot", "", plotFlagUsage+": predicted against measured level times on the held-out graphs of the first split")
	asJSON := fs.Bool("json", false, "print one JSON object per split, then the summary")
	asCSV := fs.Bool("csv", false, "print the table --table names as CSV, its ratios plain numbers")
	which := fs.String("table", "splits", "with --csv: splits (a row per split) or summary (a row per kind of split)")
	levelsOut := fs.String("levels", "", "write one CSV row per held-out level to FILE: the model's pick, the per-level optimum and the input's best non-switching implementation, predicted and measured")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return errors.New("--json and --csv exclude each other")
	}
	if *which != "splits" && *which != "summary" {
		return fmt.Errorf("--table: %q: want splits or summary%s", *which, nearestHint(*which, []string{"splits", "summary"}))
	}
	seeds, err := predict.ParseSeeds(*seedList)
	if err != nil {
		return fmt.Errorf("--seeds: %w", err)
	}
	mach, err := loadMachine(*machineName)
	if err != nil {
		return fmt.Errorf("--machine: %w", err)
	}
	ds, err := timeData(e, pos, mach, df)
	if err != nil {
		return err
	}
	out := evalOutput{plotDir: *plotDir, levels: *levelsOut, asJSON: *asJSON, asCSV: *asCSV, table: *which}
	p := predict.EvaluateParams{Diagnose: *levelsOut != "", Points: e.wantFigures(*plotDir)}
	if *modelPath != "" {
		return predictEvaluateModel(e, ds, *modelPath, p, out)
	}
	splits, err := evalSplits(ds, *kinds, *fraction, seeds, *families)
	if err != nil {
		return err
	}
	if p.External, err = runBaseline(e, ds, splits, *baseline); err != nil {
		return err
	}
	bar := progress.New(e.stderr, e.interactive, "evaluate", false)
	defer bar.Done()
	p.Progress = func(done, total int) { bar.Update(int64(done), int64(total)) }
	ev, err := predict.Evaluate(ds, splits, p)
	if err != nil {
		return err
	}
	bar.Done()
	// The figure before the levels file, as before the library held the
	// loop (it drew the first split's figure right after scoring it).
	if err := out.figure(e, ev); err != nil {
		return err
	}
	if err := out.writeLevels(ev); err != nil {
		return err
	}
	return writeEvaluation(e, ev, out)
}

// evalSplits makes the splits of --split (its kinds, comma-separated),
// keeping only the family splits of --families where given.
func evalSplits(ds *predict.Dataset, kinds string, fraction float64, seeds []uint64, families string) ([]predict.Split, error) {
	var splits []predict.Split
	for _, k := range strings.Split(kinds, ",") {
		kind := predict.SplitKind(strings.TrimSpace(k))
		ss, err := predict.MakeSplits(ds, kind, fraction, seeds)
		if err != nil {
			return nil, fmt.Errorf("--split: %w", err)
		}
		if kind == predict.ByFamily && families != "" {
			var names []string
			for _, f := range strings.Split(families, ",") {
				names = append(names, strings.TrimSpace(f))
			}
			if ss, err = predict.OnlyFamilies(ss, names); err != nil {
				return nil, fmt.Errorf("--families: %w", err)
			}
		}
		splits = append(splits, ss...)
	}
	if families != "" && !strings.Contains(kinds, string(predict.ByFamily)) {
		return nil, fmt.Errorf("--families: only with --split family")
	}
	return splits, nil
}

// runBaseline runs the scikit-learn baseline of --baseline on splits, or
// notes why it does not.
func runBaseline(e *env, ds *predict.Dataset, splits []predict.Split, flag string) (map[string]map[string]predict.Score, error) {
	script, why := baselineScript(flag)
	if why != "" {
		fmt.Fprintln(e.stderr, "note:", why)
	}
	if script == "" {
		return nil, nil
	}
	t0 := time.Now()
	ext, err := predict.RunBaseline(ds, splits, predict.Python(), script)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	fmt.Fprintf(e.stderr, "scikit-learn baseline: %d splits in %.0fs\n", len(splits), time.Since(t0).Seconds())
	return ext, nil
}

// evalOutput is where "predict evaluate" writes besides stdout.
type evalOutput struct {
	plotDir, levels string
	asJSON, asCSV   bool
	table           string // with asCSV: splits or summary
}

// writeLevels writes --levels FILE, when asked.
func (o evalOutput) writeLevels(ev *predict.Evaluation) error {
	if o.levels == "" {
		return nil
	}
	return writeLevelDiagnosis(o.levels, ev.Levels)
}

// figure draws the first split's predicted against measured level times,
// when asked.
func (o evalOutput) figure(e *env, ev *predict.Evaluation) error {
	if ev.Points == nil {
		return nil
	}
	figs, err := rplot.PredictScatterFigures(ev.Points)
	if err != nil {
		return err
	}
	return e.figures(o.plotDir, figs)
}

// writeLevelDiagnosis writes "predict evaluate --levels FILE".
func writeLevelDiagnosis(path string, rows []predict.SplitLevel) error {
	return writeFile(path, func(w io.Writer) error { return predict.WriteLevelsCSV(w, rows) })
}

// writeEvaluation prints ev: one JSON line per split then per kind's
// summary, or the table out.table names as CSV, or the splits' table and,
// for more than one split, the summary table.
func writeEvaluation(e *env, ev *predict.Evaluation, out evalOutput) error {
	if out.asCSV {
		t := ev.SplitTable(true)
		if out.table == "summary" {
			t = ev.SummaryTable(true)
		}
		return tableOf(t).write(e.stdout, true)
	}
	if out.asJSON {
		var lines []any
		for _, r := range ev.Rows() {
			lines = append(lines, r)
		}
		for _, s := range ev.Summaries() {
			lines = append(lines, s)
		}
		return writeJSONLines(e.stdout, lines)
	}
	// A ratio is a number in a report, else text ("1.081x").
	raw := e.inReport()
	if err := tableOf(ev.SplitTable(raw)).write(e.stdout, false); err != nil {
		return err
	}
	if len(ev.Splits) == 1 {
		return nil
	}
	if !raw {
		fmt.Fprintln(e.stdout)
	}
	return tableOf(ev.SummaryTable(raw)).write(e.stdout, false)
}

// predictEvaluateModel scores a saved model on the graphs of ds it did not
// train on: its own test graphs on the dataset it came from, or every graph
// of new measurements.
func predictEvaluateModel(e *env, ds *predict.Dataset, path string, p predict.EvaluateParams, out evalOutput) error {
	m, err := readModelFile(path)
	if err != nil {
		return err
	}
	if unseen, _ := predict.Unseen(ds, m); len(unseen) == 0 {
		return fmt.Errorf("%s: the model was trained on every graph of the data (%d): nothing to score it on; give it measurements of other graphs (a results directory or --db)", path, len(ds.Graphs))
	}
	ev, err := predict.EvaluateSaved(ds, m, filepath.Base(path), p)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if ev.LeftOut > 0 {
		fmt.Fprintf(e.stderr, "scoring %s on the %d graphs it did not train on (%d of the data's graphs left out: it trained on them)\n", path, len(ds.Graphs)-ev.LeftOut, ev.LeftOut)
	}
	if err := out.writeLevels(ev); err != nil {
		return err
	}
	if err := out.figure(e, ev); err != nil {
		return err
	}
	return writeEvaluation(e, ev, out)
}

// baselineScript is --baseline's script: none, the repository's where
// python has scikit-learn (auto), or the path given; or why it will not
// run.
func baselineScript(flag string) (string, string) {
	switch flag {
	case "none":
		return "", ""
	case "auto":
		script, why := predict.FindBaseline(predict.Python(), ".", repoRoot())
		if why != "" {
			return "", "the scikit-learn baseline is skipped: " + why
		}
		return script, ""
	}
	return flag, ""
}

// repoRoot is the source tree this binary was built from, when known.
func repoRoot() string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// predictPlot draws "predict bfs"'s level times: rplot.PredictLevelFigures.
func predictPlot(e *env, dir string, p *predict.Prediction) error {
	figs, err := rplot.PredictLevelFigures(p)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}
