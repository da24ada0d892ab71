package main

import (
	"gonum.org/v1/plot/vg"
	"math"

	rplot "github.com/graphperf/graphperf/reports/plot"

	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

func treeGroup() group {
	return group{
		name:    "tree",
		summary: "decision trees that pick the fastest BFS implementation per level (seed 004 ch. 7)",
		commands: []command{
			{"dataset", "the per-level training rows of a results directory", treeDataset},
			{"train", "fit a tree on a training split and report held-out accuracy", treeTrain},
			{"evaluate", "Mix-and-Match aggregate table of a tree on held-out inputs", treeEvaluate},
			{"show", "print a saved tree", treeShow},
			{"export", "write a saved tree as Go, C or JSON", treeExport},
			{"importance", "feature importances of a saved tree", treeImportance},
		},
	}
}

// splitFlags are the flags that choose the rows and the split.
type splitFlags struct {
	split    split.Split
	kind     string
	weight   string
	maxDepth int
	minLeaf  int
}

func (s *splitFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "split", string(split.DefaultSplit.Kind), "hold out by graphs, variants, steps or dataset:NAME (NAME: real, or a graph name prefix)")
	fs.Float64Var(&s.split.TrainFraction, "train-fraction", split.DefaultSplit.TrainFraction, "share of graphs, variants or steps to train on")
	fs.Uint64Var(&s.split.Seed, "seed", split.DefaultSplit.Seed, "seed of the split's PCG")
	fs.StringVar(&s.weight, "weight", string(split.WeightTime), "row weight: time (slowest minus fastest level time) or none")
	fs.IntVar(&s.maxDepth, "max-depth", tree.DefaultParams.MaxDepth, "largest tree depth; 0: no limit")
	fs.IntVar(&s.minLeaf, "min-leaf", tree.DefaultParams.MinSamplesLeaf, "fewest training rows in a leaf")
}

func (s *splitFlags) check() (split.Weighting, error) {
	if err := s.split.ParseKind(s.kind); err != nil {
		return "", err
	}
	if s.maxDepth < 0 || s.minLeaf < 0 {
		return "", fmt.Errorf("--max-depth and --min-leaf must not be negative")
	}
	return split.ParseWeighting(s.weight)
}

func (s *splitFlags) params() tree.Params {
	p := tree.DefaultParams
	p.MaxDepth, p.MinSamplesLeaf = s.maxDepth, max(s.minLeaf, 1)
	return p
}

// loadRows reads the training rows of the results directory args names
// (the embedded dataset when args is empty).
func loadRows(args []string, w split.Weighting) (*split.Data, []split.Row, []string, error) {
	dir, err := resultsDir(args)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := loadSplit(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	rows, impls, _, err := split.Rows(d, w)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	return d, rows, impls, nil
}

const treeDatasetHelp = `The training rows of seed 004 §7.2, one per (graph, root, level): the 23
graph properties, the level's frontier and cumulative discovered vertices
(absolute and relative to the vertices), the fastest implementation's name,
and the row's weight. DIR defaults to ` + defaultResultsName + `.`

func treeDataset(e *env, args []string) error {
	fs := newFlagSet(e, "tree dataset", "tree dataset [DIR] [--csv] [--weight time|none] [-o FILE]", treeDatasetHelp)
	asCSV := fs.Bool("csv", false, "print CSV instead of a table")
	out := fs.String("o", "", "write to FILE instead of stdout")
	weight := fs.String("weight", string(split.WeightTime), "row weight: time or none")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	w, err := split.ParseWeighting(*weight)
	if err != nil {
		return err
	}
	_, rows, impls, err := loadRows(pos, w)
	if err != nil {
		return err
	}
	t := &table{header: append(append([]string{"graph", "root", "level"}, split.FeatureNames...), "label", "weight")}
	for _, r := range rows {
		cells := []string{r.Graph, itoa(r.Root), strconv.Itoa(r.Level)}
		for _, v := range r.Features {
			cells = append(cells, strconv.FormatFloat(v, 'g', -1, 64))
		}
		t.add(append(cells, impls[r.Label], strconv.FormatFloat(r.Weight, 'g', -1, 64))...)
	}
	if *out == "" {
		return t.write(e.stdout, *asCSV)
	}
	return writeFile(*out, func(w io.Writer) error { return t.write(w, *asCSV) })
}

// writeFile writes path with write, capturing Close's error.
func writeFile(path string, write func(io.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return write(f)
}

// fitSplit fits a tree on the training rows of s.
func fitSplit(rows []split.Row, impls []string, d *split.Data, s split.Split, p tree.Params) (*tree.Classifier, []int, []int, error) {
	train, test, err := s.Apply(rows, d.Real)
	if err != nil {
		return nil, nil, nil, err
	}
	X, y, w := make([][]float64, len(train)), make([]int, len(train)), make([]float64, len(train))
	for i, r := range train {
		X[i], y[i], w[i] = rows[r].Features, rows[r].Label, rows[r].Weight
	}
	c, err := tree.Fit(X, y, w, impls, split.FeatureNames, p)
	if err != nil {
		return nil, nil, nil, err
	}
	return c, train, test, nil
}

// accuracy is the share of the chosen rows whose label c predicts.
func accuracy(c *tree.Classifier, rows []split.Row, chosen []int) float64 {
	if len(chosen) == 0 {
		return 0
	}
	hit := 0
	for _, i := range chosen {
		if c.Classes[c.Predict(rows[i].Features)] == c.Classes[rows[i].Label] {
			hit++
		}
	}
	return float64(hit) / float64(len(chosen))
}

const treeTrainHelp = `Fits a CART tree (model/tree) on the training rows of a split and writes it
as JSON. Prints the accuracy (share of levels whose fastest implementation
is predicted) on the held-out rows and on all rows. The default split holds
out half of the graphs (PCG, seed 1); dataset:real holds out the SNAP
graphs, dataset:PREFIX the graphs whose names start with PREFIX. With
--weight time a row counts by the slowest minus the fastest level time.`

func treeTrain(e *env, args []string) error {
	fs := newFlagSet(e, "tree train", "tree train [DIR] [--split KIND] [--train-fraction F] [--seed S] [--max-depth D] [--min-leaf K] [--weight time|none] -o MODEL.json", treeTrainHelp)
	var sf splitFlags
	sf.register(fs)
	out := fs.String("o", "", "write the model to MODEL.json (required unless --plot)")
	plotDir := fs.String("plot", "", plotFlagUsage+": the Gini importances and the tree's top levels")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	w, err := sf.check()
	if err != nil {
		return err
	}
	if *out == "" && *plotDir == "" && !e.inReport() {
		return fmt.Errorf("-o MODEL.json is required (or --plot DIR for the figures alone)")
	}
	d, rows, impls, err := loadRows(pos, w)
	if err != nil {
		return err
	}
	c, train, test, err := fitSplit(rows, impls, d, sf.split, sf.params())
	if err != nil {
		return err
	}
	if *out != "" {
		data, err := json.MarshalIndent(c, "", " ")
		if err != nil {
			return err
		}
		if err := writeFileAtomic(*out, append(data, '\n')); err != nil {
			return err
		}
	}
	if *plotDir != "" || e.inReport() {
		p, err := rplot.HorizontalBars("Gini importance of each feature", "importance", c.Features, c.Importances())
		if err != nil {
			return err
		}
		if err := e.figure(*plotDir, "tree-importances", "What the tree splits on: normalised Gini importance per feature", p, 5*vg.Inch, 5*vg.Inch); err != nil {
			return err
		}
		td, err := rplot.TreeDiagram(fmt.Sprintf("Decision tree (depth %d, %d leaves), top 3 levels", c.Depth(), c.NumLeaves()), c, 3)
		if err != nil {
			return err
		}
		if err := e.figure(*plotDir, "tree", "The trained tree's first three levels (deeper subtrees collapsed)", td, 9*vg.Inch, 5*vg.Inch); err != nil {
			return err
		}
	}
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	fmt.Fprintf(e.stdout, "split: %s\nrows: %d train, %d held out; %d implementations\n", sf.split, len(train), len(test), len(impls))
	fmt.Fprintf(e.stdout, "tree: depth %d, %d leaves\n", c.Depth(), c.NumLeaves())
	fmt.Fprintf(e.stdout, "held-out accuracy: %.4f\nall-rows accuracy: %.4f\n", accuracy(c, rows, test), accuracy(c, rows, all))
	if *out != "" {
		fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	}
	return nil
}

const treeEvaluateHelp = `The aggregate table (seed 004 tables 4.6 and 7.1, against the per-level
optimum) on the held-out inputs of the split: optimal, best non-switching,
each implementation, and "model: ID", Mix-and-Match: at each level the
measured time of the implementation the tree predicts. Without --model it
trains a tree with the split flags and evaluates it; with --model the split
flags only choose the held-out inputs. With the steps split, an input is
held out if any of its levels is, and all its levels are evaluated.`

// evalRowJSON is one row of "tree evaluate --json".
type evalRowJSON struct {
	Name     string  `json:"name"`
	Total    float64 `json:"total"`
	Avg      float64 `json:"avg"`
	Within2x float64 `json:"within_2x"`
	Over5x   float64 `json:"over_5x"`
	Over20x  float64 `json:"over_20x"`
	Worst    float64 `json:"worst"`
}

func treeEvaluate(e *env, args []string) error {
	fs := newFlagSet(e, "tree evaluate", "tree evaluate [DIR] [--model MODEL.json] [split flags] [--json]", treeEvaluateHelp)
	var sf splitFlags
	sf.register(fs)
	modelPath := fs.String("model", "", "a tree written by \"tree train\"; default: train one")
	plotDir := fs.String("plot", "", plotFlagUsage+": a heatmap of the tree's Mix-and-Match time over the optimum per held-out graph, beside the best non-switching implementation and each family's best member")
	asJSON := fs.Bool("json", false, "print JSON lines, one object per row")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	w, err := sf.check()
	if err != nil {
		return err
	}
	d, rows, impls, err := loadRows(pos, w)
	if err != nil {
		return err
	}
	var c *tree.Classifier
	var test []int
	id := "tree"
	if *modelPath != "" {
		if c, err = readTree(*modelPath); err != nil {
			return err
		}
		if strings.Join(c.Features, ",") != strings.Join(split.FeatureNames, ",") {
			return fmt.Errorf("%s: features %v are not the dataset's", *modelPath, c.Features)
		}
		if _, test, err = sf.split.Apply(rows, d.Real); err != nil {
			return err
		}
		id = strings.TrimSuffix(filepath.Base(*modelPath), ".json")
	} else if c, _, test, err = fitSplit(rows, impls, d, sf.split, sf.params()); err != nil {
		return err
	}
	inputs := split.Inputs(rows, test)
	tab, err := aggregate.Summarize(d.RunsOn(inputs), aggregate.AgainstLevels)
	if err != nil {
		return err
	}
	model, warnings := split.MixAndMatch("model: "+id, tab, rows, func(r *split.Row) string {
		return c.Classes[c.Predict(r.Features)]
	})
	out := append([]aggregate.Row{tab.Optimal, tab.BestNonSwitching, model}, tab.Rows...)
	if *plotDir != "" || e.inReport() {
		predict := func(r *split.Row) string { return c.Classes[c.Predict(r.Features)] }
		if err := treePredictionHeatmap(e, *plotDir, id, tab, d.RunsOn(inputs), rows, predict); err != nil {
			return err
		}
	}
	for _, wmsg := range append(tab.Warnings, warnings...) {
		fmt.Fprintln(e.stderr, "warning:", wmsg)
	}
	if *asJSON {
		js := make([]evalRowJSON, len(out))
		for i, r := range out {
			js[i] = evalRowJSON{r.Name, r.Total, r.Avg, r.Within2x, r.Over5x, r.Over20x, r.Worst}
		}
		return writeJSONLines(e.stdout, js)
	}
	fmt.Fprintf(e.stdout, "split: %s; %d held-out inputs\n\n", sf.split, len(tab.Inputs))
	t := &table{header: []string{"name", "total", "avg", "1-2x", ">5x", ">20x", "worst"}, name: "tree-evaluate",
		title: fmt.Sprintf("Held-out inputs of the %s split (%d): the tree's Mix-and-Match against the per-level optimum (seed 004 table 7.1)", sf.split, len(tab.Inputs))}
	pct := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" }
	for _, r := range out {
		if e.inReport() {
			t.add(r.Name, ftoa(r.Total), ftoa(r.Avg), ftoa(r.Within2x), ftoa(r.Over5x), ftoa(r.Over20x), ftoa(r.Worst))
			continue
		}
		t.add(r.Name, fmt.Sprintf("%.2fx", r.Total), fmt.Sprintf("%.2fx", r.Avg), pct(r.Within2x), pct(r.Over5x), pct(r.Over20x), fmt.Sprintf("%.2fx", r.Worst))
	}
	return t.write(e.stdout, false)
}

func readTree(path string) (*tree.Classifier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c tree.Classifier
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

func treeShow(e *env, args []string) error {
	fs := newFlagSet(e, "tree show", "tree show MODEL.json", "Prints a saved tree, one node per line.")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	c, err := readTree(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "depth %d, %d leaves, %d classes, %d features\n", c.Depth(), c.NumLeaves(), len(c.Classes), len(c.Features))
	fmt.Fprint(e.stdout, c.String())
	return nil
}

func treeExport(e *env, args []string) error {
	fs := newFlagSet(e, "tree export", "tree export MODEL.json --lang go|c|json", "Writes a saved tree as a Go function (package tree, func Predict), a C function (predict) or JSON.")
	lang := fs.String("lang", "go", "go, c or json")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *lang != "go" && *lang != "c" && *lang != "json" {
		return fmt.Errorf("--lang %q: want go, c or json", *lang)
	}
	c, err := readTree(pos[0])
	if err != nil {
		return err
	}
	switch *lang {
	case "go":
		return c.WriteGo(e.stdout, "tree", "Predict")
	case "c":
		return c.WriteC(e.stdout, "predict")
	}
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", data)
	return err
}

func treeImportance(e *env, args []string) error {
	fs := newFlagSet(e, "tree importance", "tree importance MODEL.json [--json|--csv]", "Gini importances of a saved tree's features, largest first.")
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	c, err := readTree(pos[0])
	if err != nil {
		return err
	}
	imp := c.Importances()
	order := make([]int, len(imp))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return imp[order[a]] > imp[order[b]] })
	type impJSON struct {
		Feature    string  `json:"feature"`
		Importance float64 `json:"importance"`
	}
	if of.json {
		js := make([]impJSON, len(order))
		for i, f := range order {
			js[i] = impJSON{c.Features[f], imp[f]}
		}
		return writeJSON(e.stdout, js)
	}
	t := &table{header: []string{"feature", "importance"}}
	for _, f := range order {
		t.add(c.Features[f], strconv.FormatFloat(imp[f], 'f', 4, 64))
	}
	return t.write(e.stdout, of.csv)
}

// treePredictionHeatmap draws, per held-out graph, the time of the tree's
// Mix-and-Match (at each level the measured time of the predicted
// implementation), of the best non-switching implementation and of each
// family's best member, all over the per-level optimum, summed over the
// graph's roots: the heatmap of predictions.
func treePredictionHeatmap(e *env, dir, id string, tab *aggregate.Table, runs []aggregate.Run, rows []split.Row, predict func(*split.Row) string) error {
	var fams []string
	for i, f := range tab.Families() {
		if i < 12 {
			fams = append(fams, f.Name)
		}
	}
	graphs, famValues := summaryHeatmap(tab, runs, fams)
	byInput := map[aggregate.Input][]*split.Row{}
	for i := range rows {
		byInput[rows[i].Input()] = append(byInput[rows[i].Input()], &rows[i])
	}
	type acc struct{ model, best, opt float64 }
	per := map[string]*acc{}
	bad := map[string]bool{}
	for _, o := range tab.Optima {
		a := per[o.Graph]
		if a == nil {
			a = &acc{}
			per[o.Graph] = a
		}
		a.best += o.BestNs
		a.opt += o.Ns
		rs := byInput[o.Input]
		if len(rs) != len(o.LevelImpls) {
			bad[o.Graph] = true
			continue
		}
		for _, r := range rs {
			ns, ok := r.LevelNs[predict(r)]
			if !ok {
				bad[o.Graph] = true
			}
			a.model += ns
		}
	}
	cols := append([]string{"tree (Mix-and-Match)", "best non-switching"}, fams...)
	values := make([][]float64, len(graphs))
	for i, g := range graphs {
		a := per[g]
		m := a.model / a.opt
		if bad[g] {
			m = math.NaN()
		}
		values[i] = append([]float64{m, a.best / a.opt}, famValues[i]...)
	}
	hm, err := rplot.HeatmapWithScale("Held-out graphs: time / per-level optimum", graphs, cols, values,
		rplot.HeatmapOptions{Log: true, Label: "time / optimal (×)"})
	if err != nil {
		return err
	}
	return e.figure(dir, "tree-predictions-"+slug(id), "The tree's choices (Mix-and-Match) on every held-out graph, beside the best single implementation and each family's best member",
		hm, 8*vg.Inch, vg.Length(2.5+0.14*float64(len(graphs)))*vg.Inch)
}
