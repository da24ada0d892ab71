package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
and tests on the SNAP graphs; scale trains on the graphs of at most
--max-train-vertices N vertices (a number or 2^K; default the largest power
of two below the largest graph's vertex count, so that the largest graphs
are tested) and tests on every larger graph: how the model extrapolates in
size. Its validation graphs, which choose the hyper-parameters, are drawn
from the training graphs (the first of --seeds draws them), like every
split's. The scale split also prints its test graphs per power-of-two size
band, (2^20, 2^21] and so on (--bands asks for that table of any split):
the same scores per band, dobfs at every level among them, and a row "all"
of the whole test set; the bands' inputs and summed optimum add up to it.
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
measurements can score (kernels/measured/h100/unseen-2026-11-26). A model
"predict train --split scale" wrote is scored per size band too: given
another GPU's data and machine (embedded:h200 --machine h200), that is the
H100-trained model moved to the H200 at the sizes it never trained on.

--csv prints the tables as CSV, one after the other with an empty line
between; --json prints one object per split (with "bands" where it has
them), then one per kind's summary.`

func predictEvaluate(e *env, args []string) error {
	fs := newFlagSet(e, "predict evaluate", "predict evaluate [DIR] [--split graphs,family,real,scale] [--seeds 1-10] [--fraction 0.5] [--families LIST] [--max-train-vertices N] [--bands] [--baseline auto|none|SCRIPT] [--model FILE] [--levels FILE] [--json|--csv] [--plot DIR]", predictEvaluateHelp)
	kinds := fs.String("split", "graphs,real", "comma-separated split kinds: graphs, family, real, scale")
	seedList := fs.String("seeds", "1-10", "seeds of the graphs split: a list (1,2,3) or a range (1-10)")
	fraction := fs.Float64("fraction", 0.5, "share of the graphs held out by the graphs split")
	families := fs.String("families", "", "with --split family: hold out only these families (comma-separated; default every one)")
	baseline := fs.String("baseline", "auto", "the scikit-learn baseline: auto (run docs/baselines/sklearn_hgb.py when python3 has scikit-learn), none, or a script path")
	modelPath := fs.String("model", "", "score this saved model instead of training")
	machineName := fs.String("machine", "h100", "machine description of the dataset's GPU")
	plotDir := fs.String("plot", "", plotFlagUsage+": predicted against measured level times on the held-out graphs of the first split")
	asJSON := fs.Bool("json", false, "print one JSON object per split, then the summary")
	asCSV := fs.Bool("csv", false, "print the tables as CSV")
	maxTrain := fs.String("max-train-vertices", "", "with --split scale: train on the graphs of at most `N` vertices (a number or 2^K), test on the larger ones (default: the largest power of two below the largest graph)")
	bands := fs.Bool("bands", false, "also score every split per power-of-two size band of its test graphs (the scale split and scale-trained models always are)")
	levelsOut := fs.String("levels", "", "write one CSV row per held-out level to FILE: the model's pick, the per-level optimum and the input's best non-switching implementation, predicted and measured")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return fmt.Errorf("--json and --csv exclude each other")
	}
	var maxTrainVertices int64
	if *maxTrain != "" {
		if *modelPath != "" || !slices.Contains(splitList(*kinds), string(predict.ByScale)) {
			return fmt.Errorf("--max-train-vertices: only with --split scale")
		}
		if maxTrainVertices, err = predict.ParseVertexCount(*maxTrain); err != nil {
			return fmt.Errorf("--max-train-vertices: %w", err)
		}
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
	out := evalOutput{plotDir: *plotDir, levels: *levelsOut, asJSON: *asJSON, asCSV: *asCSV}
	p := predict.EvaluateParams{Diagnose: *levelsOut != "", Points: e.wantFigures(*plotDir), Bands: *bands}
	if *modelPath != "" {
		return predictEvaluateModel(e, ds, *modelPath, p, out)
	}
	splits, err := evalSplits(ds, *kinds, *fraction, seeds, *families, maxTrainVertices)
	if err != nil {
		return err
	}
	for _, s := range splits {
		if s.Kind == predict.ByScale {
			fmt.Fprintln(e.stderr, scaleNote(ds, s))
		}
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

// scaleNote says on which graphs a scale split trains and tests.
func scaleNote(ds *predict.Dataset, s predict.Split) string {
	size := func(gs []string) string {
		lo, hi := int64(-1), int64(0)
		for _, g := range gs {
			n := ds.Vertices(g)
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
		return fmt.Sprintf("%d-%d vertices", lo, hi)
	}
	return fmt.Sprintf("scale split %s: training on the %d graphs of at most %s vertices (%d of them validation graphs; %s), testing on the %d larger graphs (%s)",
		s.Name, len(s.Train)+len(s.Validation), predict.VertexCount(s.MaxTrainVertices), len(s.Validation),
		size(append(slices.Clone(s.Train), s.Validation...)), len(s.Test), size(s.Test))
}

// evalSplits makes the splits of --split (its kinds, comma-separated),
// keeping only the family splits of --families where given; the scale
// split is cut at maxTrainVertices (0: its default).
func evalSplits(ds *predict.Dataset, kinds string, fraction float64, seeds []uint64, families string, maxTrainVertices int64) ([]predict.Split, error) {
	var splits []predict.Split
	for _, k := range strings.Split(kinds, ",") {
		kind := predict.SplitKind(strings.TrimSpace(k))
		var ss []predict.Split
		var err error
		if kind == predict.ByScale {
			var s predict.Split
			s, err = predict.MakeScaleSplit(ds, maxTrainVertices, seeds[0])
			ss = []predict.Split{s}
		} else {
			ss, err = predict.MakeSplits(ds, kind, fraction, seeds)
		}
		if err != nil {
			if kind == predict.ByScale && maxTrainVertices > 0 {
				return nil, fmt.Errorf("--split scale --max-train-vertices %s: %w", predict.VertexCount(maxTrainVertices), err)
			}
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

// evalOutput is where and how "predict evaluate" writes.
type evalOutput struct {
	plotDir, levels string
	asJSON, asCSV   bool
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
// summary, or the splits' table, the size-band table where a split has
// bands and, for more than one split, the summary table (as CSV with
// out.asCSV, an empty line between tables).
func writeEvaluation(e *env, ev *predict.Evaluation, out evalOutput) error {
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
	// A ratio is a number in a report or a CSV, else text ("1.081x").
	raw := e.inReport() || out.asCSV
	tables := []*table{tableOf(ev.SplitTable(raw))}
	if ev.HasBands() {
		tables = append(tables, tableOf(ev.BandTable(raw)))
	}
	if len(ev.Splits) > 1 {
		tables = append(tables, tableOf(ev.SummaryTable(raw)))
	}
	for i, t := range tables {
		if i > 0 && !e.inReport() {
			fmt.Fprintln(e.stdout)
		}
		if err := t.write(e.stdout, out.asCSV); err != nil {
			return err
		}
	}
	return nil
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
