package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	rtable "github.com/graphperf/graphperf/internal/table"
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
	fs := newFlagSet(e, "predict evaluate", "predict evaluate [DIR] [--split graphs,family,real] [--seeds 1-10] [--fraction 0.5] [--families LIST] [--baseline auto|none|SCRIPT] [--model FILE] [--levels FILE] [--json] [--plot DIR]", predictEvaluateHelp)
	kinds := fs.String("split", "graphs,real", "comma-separated split kinds: graphs, family, real")
	seedList := fs.String("seeds", "1-10", "seeds of the graphs split: a list (1,2,3) or a range (1-10)")
	fraction := fs.Float64("fraction", 0.5, "share of the graphs held out by the graphs split")
	families := fs.String("families", "", "with --split family: hold out only these families (comma-separated; default every one)")
	baseline := fs.String("baseline", "auto", "the scikit-learn baseline: auto (run docs/baselines/sklearn_hgb.py when python3 has scikit-learn), none, or a script path")
	modelPath := fs.String("model", "", "score this saved model instead of training")
	machineName := fs.String("machine", "h100", "machine description of the dataset's GPU")
	plotDir := fs.String("plot", "", plotFlagUsage+": predicted against measured level times on the held-out graphs of the first split")
	asJSON := fs.Bool("json", false, "print one JSON object per split, then the summary")
	levelsOut := fs.String("levels", "", "write one CSV row per held-out level to FILE: the model's pick, the per-level optimum and the input's best non-switching implementation, predicted and measured")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
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
	out := evalOutput{plotDir: *plotDir, levels: *levelsOut, asJSON: *asJSON}
	p := predict.EvaluateParams{Diagnose: *levelsOut != "", Points: *plotDir != "" || e.inReport()}
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
	return writeEvaluation(e, ev, out.asJSON)
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
	ext, err := predict.RunBaseline(ds, splits, pythonPath(), script)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	fmt.Fprintf(e.stderr, "scikit-learn baseline: %d splits in %.0fs\n", len(splits), time.Since(t0).Seconds())
	return ext, nil
}

// evalOutput is where "predict evaluate" writes besides stdout.
type evalOutput struct {
	plotDir, levels string
	asJSON          bool
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
	return predictScatter(e, o.plotDir, ev.Points)
}

// writeLevelDiagnosis writes "predict evaluate --levels FILE".
func writeLevelDiagnosis(path string, rows []predict.SplitLevel) error {
	return writeFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"split", "graph", "root", "level", "levels", "vertices", "edges", "frontier", "edges_frontier",
			"pick", "pick_pred_ns", "pick_ns", "pick_base_ns", "pick_rank", "candidates",
			"opt", "opt_pred_ns", "opt_ns", "bns", "bns_pred_ns", "bns_ns", "bns_base_ns"})
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		i := func(v int64) string { return strconv.FormatInt(v, 10) }
		for _, r := range rows {
			cw.Write([]string{r.Split, r.Graph, i(r.Root), strconv.Itoa(r.Level), strconv.Itoa(r.Levels), i(r.Vertices), i(r.Edges),
				i(r.Frontier), i(r.EdgesFront), r.Pick, f(r.PickPred), f(r.PickNs), f(r.PickBase), strconv.Itoa(r.PickRank),
				strconv.Itoa(r.Candidates), r.Opt, f(r.OptPred), f(r.OptNs), r.BNS, f(r.BNSPred), f(r.BNSNs), f(r.BNSBase)})
		}
		cw.Flush()
		return cw.Error()
	})
}

// writeEvaluation prints ev: one JSON line per split then per kind's
// summary, or the splits' table and, for more than one split, the
// summary table.
func writeEvaluation(e *env, ev *predict.Evaluation, asJSON bool) error {
	if asJSON {
		var lines []any
		for _, r := range ev.Rows() {
			lines = append(lines, r)
		}
		for _, s := range ev.Summaries() {
			lines = append(lines, s)
		}
		return writeJSONLines(e.stdout, lines)
	}
	results := ev.Splits
	hasBaseline := len(results) > 0 && len(results[0].External) > 0
	if err := writeSplitTable(e, results, hasBaseline); err != nil {
		return err
	}
	if len(results) == 1 {
		return nil
	}
	if !e.inReport() {
		fmt.Fprintln(e.stdout)
	}
	return writeSummaryTable(e, ev.Summaries(), hasBaseline)
}

// writeSplitTable prints one row per split.
func writeSplitTable(e *env, results []*predict.SplitResult, hasBaseline bool) error {
	t := &table{name: "predict-evaluate",
		title: "Time model on held-out graphs: Mix-and-Match Total against the per-level optimum, beside the baselines on the same inputs"}
	// A ratio is a number in a report, else text ("1.081x"); "-" for none.
	raw := e.inReport()
	ratio := func(name string) rtable.Column { return orMissing(valueCol(name, "x", raw), "-") }
	t.column(textCol("split"), intCol("inputs", ""), ratio("mix_and_match"), ratio("switch_plan"), ratio("best_non_switching"),
		ratio("best_other_roots"), ratio("best_fixed"), textCol("best_fixed_impl"), ratio("classification_tree"))
	if hasBaseline {
		t.column(ratio("sklearn_hgb"))
	}
	t.column(textUnitCol("median_error", "%"), textUnitCol("within_20", "%"),
		numCol("spearman", ""), textCol("chosen"))
	x := func(v float64) string {
		switch {
		case math.IsNaN(v) || v == 0:
			// No classification tree was trained, or no best fixed
			// implementation chosen (--model on data without the
			// model's training graphs); a ratio to the optimum is >= 1.
			return "-"
		case e.inReport():
			return ftoa(v)
		}
		return fmt.Sprintf("%.3fx", v)
	}
	for _, r := range results {
		sw := math.NaN()
		if r.Model.Switch.Inputs > 0 {
			sw = r.Model.Switch.Total
		}
		row := []string{r.Split.Name, strconv.Itoa(r.Model.Inputs), x(r.Model.MixAndMatch.Total), x(sw), x(r.Model.BestNonSwitching.Total),
			x(r.Model.BestOtherRoots.Total), x(r.Model.BestFixed.Total), r.Model.BestFixed.Name, x(r.Tree.Total)}
		if hasBaseline {
			row = append(row, x(r.External[baselineName].MixAndMatch.Total))
		}
		row = append(row, pct(r.Model.MedianError), pct(r.Model.Within20), fmt.Sprintf("%.3f", r.Model.Spearman),
			fmt.Sprintf("%s, %d trees x %d leaves, min leaf %d", r.Target, r.Trees, r.Params.MaxLeaves, r.Params.MinLeaf))
		t.add(row...)
	}
	return t.write(e.stdout, false)
}

// writeSummaryTable prints one row per split kind: mean [min-max].
func writeSummaryTable(e *env, sums []predict.KindSummary, hasBaseline bool) error {
	s := &table{header: []string{"kind", "splits", "mix_and_match", "best_non_switching", "best_other_roots", "best_fixed", "classification_tree"},
		name: "predict-evaluate-summary", title: "Mean [min-max] over the splits of each kind"}
	if hasBaseline {
		s.header = append(s.header, "sklearn_hgb")
	}
	s.header = append(s.header, "median_error", "beats_best_non_switching")
	if hasBaseline {
		s.header = append(s.header, "beats_sklearn_hgb")
	}
	rng := func(m *predict.Summary) string {
		if m == nil {
			return "-"
		}
		if e.inReport() {
			return fmt.Sprintf("%.3g [%.3g-%.3g]", m.Mean, m.Min, m.Max)
		}
		return fmt.Sprintf("%.3fx [%.3f-%.3f]", m.Mean, m.Min, m.Max)
	}
	for _, sum := range sums {
		row := []string{sum.Kind, strconv.Itoa(sum.Splits), rng(&sum.MixAndMatch), rng(&sum.BestNonSwitching), rng(sum.BestOtherRoots), rng(&sum.BestFixed), rng(sum.Tree)}
		if hasBaseline {
			b := sum.Baselines[baselineName]
			row = append(row, rng(&b))
		}
		row = append(row, fmt.Sprintf("%s [%s-%s]", pct(sum.MedianError.Mean), pct(sum.MedianError.Min), pct(sum.MedianError.Max)),
			fmt.Sprintf("%d of %d", sum.WinsOverNonSwitching, sum.Splits))
		if hasBaseline {
			row = append(row, fmt.Sprintf("%d of %d", sum.WinsOverBaselines[baselineName], sum.Splits))
		}
		s.add(row...)
	}
	return s.write(e.stdout, false)
}

func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

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
	return writeEvaluation(e, ev, out.asJSON)
}

const baselineName = predict.BaselineName

// baselineScript is --baseline's script: none, the repository's where
// python has scikit-learn (auto), or the path given; or why it will not
// run.
func baselineScript(flag string) (string, string) {
	switch flag {
	case "none":
		return "", ""
	case "auto":
		script, why := predict.FindBaseline(pythonPath(), ".", repoRoot())
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

func pythonPath() string {
	if p := os.Getenv("GRAPHPERF_PYTHON"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

// predictScatter draws the predicted against measured level times of pts.
func predictScatter(e *env, dir string, pts *predict.LevelPoints) error {
	p, err := rplot.PredictedMeasured(fmt.Sprintf("Time model on held-out graphs (%d of them)", len(pts.Split.Test)), pts.Predicted, pts.Measured, 0.2)
	if err != nil {
		return err
	}
	return e.figure(dir, "predict-scatter", "Predicted against measured level times on held-out graphs", p, 5*vg.Inch, 5*vg.Inch)
}

// predictPlot draws "predict bfs"'s level times.
func predictPlot(e *env, dir string, p *predict.Prediction) error {
	series := map[string][]float64{}
	var mm []float64
	for _, l := range p.Levels {
		mm = append(mm, l.Times[0].Ns)
		for _, t := range l.Times {
			if t.Impl == p.BestSingle.Impl || t.Impl == "dobfs" {
				series[t.Impl] = append(series[t.Impl], t.Ns)
			}
		}
	}
	series["mix-and-match (recommended)"] = mm
	fig, err := rplot.LevelTimes(series, nil, fmt.Sprintf("Predicted level times, %s from %d", p.Graph, p.Root))
	if err != nil {
		return err
	}
	return e.figure(dir, "predict-levels", "Predicted level times", fig, 6*vg.Inch, 4*vg.Inch)
}
