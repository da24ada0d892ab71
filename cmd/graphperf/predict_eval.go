package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/model/machine"
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

// evalJSON is one split of "predict evaluate --json".
type evalSplitJSON struct {
	Split            string   `json:"split"`
	Kind             string   `json:"kind"`
	Seed             uint64   `json:"seed"`
	TestGraphs       []string `json:"test_graphs"`
	Inputs           int      `json:"inputs"`
	MixAndMatch      float64  `json:"mix_and_match_total"`
	MixAndMatchAvg   float64  `json:"mix_and_match_avg"`
	MixAndMatchWorst float64  `json:"mix_and_match_worst"`
	// SwitchTotal is the switching BFS's plan (predict.Score.Switch: the
	// picks of least predicted total with frontier conversions, charged
	// their measured level times and predicted conversions); nil when
	// unknown.
	SwitchTotal      *float64           `json:"switch_total,omitempty"`
	BestNonSwitching float64            `json:"best_non_switching_total"`
	BestFixed        float64            `json:"best_fixed_total"`
	BestFixedImpl    string             `json:"best_fixed_impl"`
	Tree             *float64           `json:"classification_tree_total,omitempty"` // nil when no tree was trained (--model)
	Baselines        map[string]float64 `json:"baselines,omitempty"`
	BaselineErrors   map[string]float64 `json:"baseline_median_errors,omitempty"`
	MedianError      float64            `json:"median_error"`
	Within20         float64            `json:"within_20"`
	Spearman         float64            `json:"spearman"`
	Target           string             `json:"target,omitempty"`
	Trees            int                `json:"trees,omitempty"`
	MaxLeaves        int                `json:"max_leaves,omitempty"`
	MinLeaf          int                `json:"min_leaf,omitempty"`
}

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
	seeds, err := parseSeeds(*seedList)
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
	if *modelPath != "" {
		return predictEvaluateModel(e, ds, *modelPath, *plotDir, *levelsOut, *asJSON)
	}
	var splits []predict.Split
	for _, k := range strings.Split(*kinds, ",") {
		ss, err := predict.MakeSplits(ds, predict.SplitKind(strings.TrimSpace(k)), *fraction, seeds)
		if err != nil {
			return fmt.Errorf("--split: %w", err)
		}
		if predict.SplitKind(strings.TrimSpace(k)) == predict.ByFamily && *families != "" {
			if ss, err = onlyFamilies(ss, *families); err != nil {
				return fmt.Errorf("--families: %w", err)
			}
		}
		splits = append(splits, ss...)
	}
	if *families != "" && !strings.Contains(*kinds, string(predict.ByFamily)) {
		return fmt.Errorf("--families: only with --split family")
	}
	script, why := baselineScript(*baseline)
	if why != "" {
		fmt.Fprintln(e.stderr, "note:", why)
	}
	var ext map[string]map[string]predict.Score
	if script != "" {
		t0 := time.Now()
		if ext, err = predict.RunBaseline(ds, splits, pythonPath(), script); err != nil {
			return fmt.Errorf("--baseline: %w", err)
		}
		fmt.Fprintf(e.stderr, "scikit-learn baseline: %d splits in %.0fs\n", len(splits), time.Since(t0).Seconds())
	}
	bar := progress.New(e.stderr, e.interactive, "evaluate", false)
	defer bar.Done()
	var results []*predict.SplitResult
	var diag []levelDiagRow
	perSplit := len(predict.DefaultGrid.Targets)*len(predict.DefaultGrid.MaxLeaves)*len(predict.DefaultGrid.MinLeaf) + 1
	for i, s := range splits {
		res, m, err := predict.EvaluateSplit(ds, s, predict.DefaultGrid, func(d, t int) {
			bar.Update(int64(i*perSplit+d), int64(len(splits)*perSplit))
		})
		if err != nil {
			return err
		}
		res.External = ext[s.Name]
		results = append(results, res)
		if *levelsOut != "" {
			test := ds.LevelsOf(s.Test)
			for _, d := range predict.DiagnoseLevels(ds, test, m.PredictDataset(ds, test)) {
				diag = append(diag, levelDiagRow{s.Name, d})
			}
		}
		if i == 0 && (*plotDir != "" || e.inReport()) {
			if err := predictScatter(e, *plotDir, ds, s, m); err != nil {
				return err
			}
		}
	}
	bar.Done()
	if *levelsOut != "" {
		if err := writeLevelDiagnosis(*levelsOut, diag); err != nil {
			return err
		}
	}
	return writeEvaluation(e, results, *asJSON)
}

type levelDiagRow struct {
	split string
	predict.LevelDiagnosis
}

// writeLevelDiagnosis writes "predict evaluate --levels FILE".
func writeLevelDiagnosis(path string, rows []levelDiagRow) error {
	return writeFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"split", "graph", "root", "level", "levels", "vertices", "edges", "frontier", "edges_frontier",
			"pick", "pick_pred_ns", "pick_ns", "pick_base_ns", "pick_rank", "candidates",
			"opt", "opt_pred_ns", "opt_ns", "bns", "bns_pred_ns", "bns_ns", "bns_base_ns"})
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		i := func(v int64) string { return strconv.FormatInt(v, 10) }
		for _, r := range rows {
			cw.Write([]string{r.split, r.Graph, i(r.Root), strconv.Itoa(r.Level), strconv.Itoa(r.Levels), i(r.Vertices), i(r.Edges),
				i(r.Frontier), i(r.EdgesFront), r.Pick, f(r.PickPred), f(r.PickNs), f(r.PickBase), strconv.Itoa(r.PickRank),
				strconv.Itoa(r.Candidates), r.Opt, f(r.OptPred), f(r.OptNs), r.BNS, f(r.BNSPred), f(r.BNSNs), f(r.BNSBase)})
		}
		cw.Flush()
		return cw.Error()
	})
}

// onlyFamilies keeps the family splits of the families named in list.
func onlyFamilies(ss []predict.Split, list string) ([]predict.Split, error) {
	byName := map[string]predict.Split{}
	var known []string
	for _, s := range ss {
		f := strings.TrimPrefix(s.Name, "family-")
		byName[f] = s
		known = append(known, f)
	}
	var out []predict.Split
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		s, ok := byName[f]
		if !ok {
			return nil, fmt.Errorf("no family %q (the data's: %s)", f, strings.Join(known, ", "))
		}
		out = append(out, s)
	}
	return out, nil
}

func splitJSON(r *predict.SplitResult) evalSplitJSON {
	j := evalSplitJSON{Split: r.Split.Name, Kind: string(r.Split.Kind), Seed: r.Split.Seed, TestGraphs: r.Split.Test,
		Inputs: r.Model.Inputs, MixAndMatch: r.Model.MixAndMatch.Total, MixAndMatchAvg: r.Model.MixAndMatch.Avg,
		MixAndMatchWorst: r.Model.MixAndMatch.Worst, BestNonSwitching: r.Model.BestNonSwitching.Total,
		BestFixed: r.Model.BestFixed.Total, BestFixedImpl: r.Model.BestFixed.Name,
		MedianError: r.Model.MedianError, Within20: r.Model.Within20, Spearman: r.Model.Spearman,
		Target: string(r.Target), Trees: r.Trees, MaxLeaves: r.Params.MaxLeaves, MinLeaf: r.Params.MinLeaf}
	if !math.IsNaN(r.Tree.Total) {
		j.Tree = &r.Tree.Total
	}
	if sw := r.Model.Switch.Total; r.Model.Switch.Inputs > 0 && !math.IsNaN(sw) {
		j.SwitchTotal = &sw
	}
	for name, sc := range r.External {
		if j.Baselines == nil {
			j.Baselines, j.BaselineErrors = map[string]float64{}, map[string]float64{}
		}
		j.Baselines[name] = sc.MixAndMatch.Total
		j.BaselineErrors[name] = sc.MedianError
	}
	return j
}

// evalSummaryJSON is the last line of "predict evaluate --json": per split
// kind, mean [min, max] of each column and the model's wins.
type evalSummaryJSON struct {
	Kind                 string                     `json:"kind"`
	Splits               int                        `json:"splits"`
	MixAndMatch          predict.Summary            `json:"mix_and_match_total"`
	BestNonSwitching     predict.Summary            `json:"best_non_switching_total"`
	BestFixed            predict.Summary            `json:"best_fixed_total"`
	Tree                 *predict.Summary           `json:"classification_tree_total,omitempty"` // nil when a split has no tree (--model)
	Baselines            map[string]predict.Summary `json:"baselines,omitempty"`
	MedianError          predict.Summary            `json:"median_error"`
	WinsOverNonSwitching int                        `json:"wins_over_best_non_switching"`
	WinsOverBaselines    map[string]int             `json:"wins_over_baselines,omitempty"`
}

func summarizeKind(kind string, rs []*predict.SplitResult) evalSummaryJSON {
	s := evalSummaryJSON{Kind: kind, Splits: len(rs),
		MixAndMatch:      predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.Model.MixAndMatch.Total }),
		BestNonSwitching: predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.Model.BestNonSwitching.Total }),
		BestFixed:        predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.Model.BestFixed.Total }),
		MedianError:      predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.Model.MedianError }),
	}
	tree := predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.Tree.Total })
	if !math.IsNaN(tree.Mean) {
		s.Tree = &tree
	}
	for _, r := range rs {
		if r.Model.MixAndMatch.Total < r.Model.BestNonSwitching.Total {
			s.WinsOverNonSwitching++
		}
		for name, sc := range r.External {
			if s.WinsOverBaselines == nil {
				s.WinsOverBaselines = map[string]int{}
			}
			if r.Model.MixAndMatch.Total < sc.MixAndMatch.Total {
				s.WinsOverBaselines[name]++
			} else {
				s.WinsOverBaselines[name] += 0
			}
		}
	}
	if len(rs) > 0 {
		for name := range rs[0].External {
			if s.Baselines == nil {
				s.Baselines = map[string]predict.Summary{}
			}
			s.Baselines[name] = predict.Summarize(rs, func(r *predict.SplitResult) float64 { return r.External[name].MixAndMatch.Total })
		}
	}
	return s
}

func writeEvaluation(e *env, results []*predict.SplitResult, asJSON bool) error {
	var kinds []string
	byKind := map[string][]*predict.SplitResult{}
	for _, r := range results {
		k := string(r.Split.Kind)
		if _, ok := byKind[k]; !ok {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], r)
	}
	if asJSON {
		var lines []any
		for _, r := range results {
			lines = append(lines, splitJSON(r))
		}
		for _, k := range kinds {
			lines = append(lines, summarizeKind(k, byKind[k]))
		}
		return writeJSONLines(e.stdout, lines)
	}
	hasBaseline := len(results) > 0 && len(results[0].External) > 0
	header := []string{"split", "inputs", "mix_and_match", "switch_plan", "best_non_switching", "best_fixed", "best_fixed_impl", "classification_tree"}
	if hasBaseline {
		header = append(header, "sklearn_hgb")
	}
	header = append(header, "median_error", "within_20", "spearman", "chosen")
	t := &table{header: header, name: "predict-evaluate",
		title: "Time model on held-out graphs: Mix-and-Match Total against the per-level optimum, beside the baselines on the same inputs"}
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
			x(r.Model.BestFixed.Total), r.Model.BestFixed.Name, x(r.Tree.Total)}
		if hasBaseline {
			row = append(row, x(r.External[baselineName].MixAndMatch.Total))
		}
		row = append(row, pct(r.Model.MedianError), pct(r.Model.Within20), fmt.Sprintf("%.3f", r.Model.Spearman),
			fmt.Sprintf("%s, %d trees x %d leaves, min leaf %d", r.Target, r.Trees, r.Params.MaxLeaves, r.Params.MinLeaf))
		t.add(row...)
	}
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	if len(results) == 1 {
		return nil
	}
	s := &table{header: []string{"kind", "splits", "mix_and_match", "best_non_switching", "best_fixed", "classification_tree"},
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
	for _, k := range kinds {
		sum := summarizeKind(k, byKind[k])
		row := []string{k, strconv.Itoa(sum.Splits), rng(&sum.MixAndMatch), rng(&sum.BestNonSwitching), rng(&sum.BestFixed), rng(sum.Tree)}
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
	if !e.inReport() {
		fmt.Fprintln(e.stdout)
	}
	return s.write(e.stdout, false)
}

func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// parseSeeds reads "1-10" or "1,2,5".
func parseSeeds(s string) ([]uint64, error) {
	if a, b, ok := strings.Cut(s, "-"); ok {
		lo, err1 := strconv.ParseUint(a, 10, 64)
		hi, err2 := strconv.ParseUint(b, 10, 64)
		if err1 != nil || err2 != nil || hi < lo || hi-lo > 1000 {
			return nil, fmt.Errorf("%q: want a range LOW-HIGH of at most 1000 seeds", s)
		}
		var out []uint64
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
		return out, nil
	}
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a seed", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// evaluateModel is predict.EvaluateModel with the user's messages: which
// graphs it leaves out, and what to give it when nothing is left.
func evaluateModel(e *env, ds *predict.Dataset, m *predict.Model, path string) (*predict.SplitResult, error) {
	trained := 0
	for _, g := range ds.Graphs {
		if slices.Contains(m.Training.TrainGraphs, g) || slices.Contains(m.Training.ValidationGraphs, g) {
			trained++
		}
	}
	test := len(ds.Graphs) - trained
	res, err := predict.EvaluateModel(ds, m, fmt.Sprintf("%s: %d unseen graphs", filepath.Base(path), test))
	if errors.Is(err, predict.ErrNothingToScore) && test == 0 {
		return nil, fmt.Errorf("%s: the model was trained on every graph of the data (%d): nothing to score it on; give it measurements of other graphs (a results directory or --db)", path, len(ds.Graphs))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if trained > 0 {
		fmt.Fprintf(e.stderr, "scoring %s on the %d graphs it did not train on (%d of the data's graphs left out: it trained on them)\n", path, test, trained)
	}
	return res, nil
}

// predictEvaluateModel scores a saved model on the test graphs its file
// records, or on every graph of ds for a model trained on everything.
func predictEvaluateModel(e *env, ds *predict.Dataset, path, plotDir, levelsOut string, asJSON bool) error {
	m, err := readModelFile(path)
	if err != nil {
		return err
	}
	res, err := evaluateModel(e, ds, m, path)
	if err != nil {
		return err
	}
	s := res.Split
	if levelsOut != "" {
		test := ds.LevelsOf(s.Test)
		var rows []levelDiagRow
		for _, d := range predict.DiagnoseLevels(ds, test, m.PredictDataset(ds, test)) {
			rows = append(rows, levelDiagRow{s.Name, d})
		}
		if err := writeLevelDiagnosis(levelsOut, rows); err != nil {
			return err
		}
	}
	if plotDir != "" || e.inReport() {
		if err := predictScatter(e, plotDir, ds, s, m); err != nil {
			return err
		}
	}
	return writeEvaluation(e, []*predict.SplitResult{res}, asJSON)
}

const baselineName = predict.BaselineName

// baselineScript finds the scikit-learn baseline script, or says why it
// will not run.
func baselineScript(flag string) (string, string) {
	switch flag {
	case "none":
		return "", ""
	case "auto":
		for _, p := range []string{"docs/baselines/sklearn_hgb.py", filepath.Join(repoRoot(), "docs/baselines/sklearn_hgb.py")} {
			if _, err := os.Stat(p); err == nil {
				if err := exec.Command(pythonPath(), "-c", "import sklearn").Run(); err != nil {
					return "", "the scikit-learn baseline is skipped: python3 has no scikit-learn (Debian: apt-get install python3-sklearn)"
				}
				return p, ""
			}
		}
		return "", "the scikit-learn baseline is skipped: docs/baselines/sklearn_hgb.py not found (run from the repository)"
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

// predictScatter draws predicted against measured level times of s's test
// graphs with m.
func predictScatter(e *env, dir string, ds *predict.Dataset, s predict.Split, m *predict.Model) error {
	test := ds.LevelsOf(s.Test)
	pred := m.PredictDataset(ds, test)
	var ps, ms []float64
	for _, r := range test {
		for j := range ds.K() {
			i := r*ds.K() + j
			if !math.IsNaN(ds.Ns[i]) && !math.IsNaN(pred[i]) {
				ps, ms = append(ps, pred[i]), append(ms, ds.Ns[i])
			}
		}
	}
	p, err := rplot.PredictedMeasured(fmt.Sprintf("Time model on held-out graphs (%d of them)", len(s.Test)), ps, ms, 0.2)
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

var _ = aggregate.Input{}
var _ = machine.Lookup
