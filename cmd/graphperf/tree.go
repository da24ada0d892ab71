package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/treefit"
	"github.com/graphperf/graphperf/model/tree"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

func treeGroup() group {
	return group{
		name:    "tree",
		summary: "decision trees that pick the fastest BFS implementation per level (seed 004 ch. 7)",
		commands: []command{
			{"dataset", "the per-level training rows of a results directory", treeDataset},
			{"train", "fit a tree on a training split (or a CSV) and report held-out accuracy", treeTrain},
			{"validate", "a saved tree's accuracy, error rates, confusion matrix and Mix-and-Match, held out and overall", treeValidate},
			{"evaluate", "Mix-and-Match aggregate table of a tree on held-out inputs", treeEvaluate},
			{"study", "held-out Mix-and-Match over a grid of splits, fractions and tree parameters (seed 004 table 8.1)", treeStudy},
			{"models", "list the trees stored with tree train --db, or write one out", treeModels},
			{"show", "print a saved tree", treeShow},
			{"export", "write a saved tree as Go, C or JSON", treeExport},
			{"importance", "feature importances of a saved tree", treeImportance},
		},
	}
}

// splitFlags are the flags that choose the rows, the split and the tree's
// parameters.
type splitFlags struct {
	split    split.Split
	kind     string
	weight   string
	maxDepth int
	minLeaf  int
}

// register adds the split flags and the tree parameters.
func (s *splitFlags) register(fs *flag.FlagSet) {
	s.registerSplit(fs)
	fs.IntVar(&s.maxDepth, "max-depth", tree.DefaultParams.MaxDepth, "largest tree depth; 0: no limit")
	fs.IntVar(&s.minLeaf, "min-leaf", tree.DefaultParams.MinSamplesLeaf, "fewest training rows in a leaf")
}

// registerSplit adds the flags that choose the rows and the split.
func (s *splitFlags) registerSplit(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "split", string(split.DefaultSplit.Kind), "hold out by graphs, variants, steps or dataset:NAME (NAME: real, or a graph name prefix); rows for --csv")
	fs.Float64Var(&s.split.TrainFraction, "train-fraction", split.DefaultSplit.TrainFraction, "share of graphs, variants, steps or rows to train on")
	fs.Uint64Var(&s.split.Seed, "seed", split.DefaultSplit.Seed, "seed of the split's PCG")
	fs.StringVar(&s.weight, "weight", string(split.WeightTime), "row weight: time (slowest minus fastest level time; with --csv the weight column) or none")
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

func (s *splitFlags) params() tree.Params { return treefit.TreeParams(s.maxDepth, s.minLeaf) }

// given are the split flags given on the command line, for a saved
// tree's training record to fill the others (treefit.RecordSplit).
func (s *splitFlags) given(fs *flag.FlagSet) treefit.SplitSettings {
	set := flagsSet(fs)
	var g treefit.SplitSettings
	if set["split"] {
		g.Kind = &s.kind
	}
	if set["train-fraction"] {
		g.TrainFraction = &s.split.TrainFraction
	}
	if set["seed"] {
		g.Seed = &s.split.Seed
	}
	if set["weight"] {
		g.Weight = &s.weight
	}
	return g
}

// dirOptions name the results directory pos names (the embedded
// dataset without one), read through the memo of loadSplit.
func dirOptions(pos []string) treefit.DirOptions {
	o := treefit.DirOptions{Load: loadSplit}
	if len(pos) > 0 {
		o.Path = pos[0]
	}
	return o
}

// storeOptions name the store of --db (none without it), rebuilding
// graphs from --graphs and saying so, and the data's warnings, on stderr.
func storeOptions(e *env, df dataFlags) treefit.StoreOptions {
	return treefit.StoreOptions{Path: df.db, Dataset: df.dataset, Platform: df.platform, Graphs: df.graphs, Log: e.stderr}
}

// treeError is err, from treefit, said in terms of the flags: the split
// asked (s), --db, a results directory.
func treeError(err error, s split.Split) error {
	var se *treefit.StoreError
	switch {
	case errors.Is(err, treefit.ErrCSVSplit):
		return fmt.Errorf("--split %s: a CSV's rows are split by --split rows (it has no graphs, variants or steps)", s.KindName())
	case errors.Is(err, treefit.ErrDirRows):
		return errDirRows
	case errors.Is(err, treefit.ErrStoreAndDir):
		return fmt.Errorf("give a results directory or --db, not both")
	case errors.As(err, &se):
		return fmt.Errorf("--db %w", err)
	}
	return err
}

// errDirRows is --split rows given for a results directory.
var errDirRows = fmt.Errorf("--split rows is for CSV rows; the levels of a results directory are split by --split steps")

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
	ds, err := treefit.LoadDataset(dirOptions(pos), w)
	if err != nil {
		return err
	}
	t := tableOf(ds.Table())
	if *out == "" {
		return t.write(e.stdout, *asCSV)
	}
	return writeFile(*out, func(w io.Writer) error { return t.write(w, *asCSV) })
}

const treeTrainHelp = `Fits a CART tree (model/tree) on the training rows of a split and writes it
as JSON, with the split, seed and parameters it was trained with (so that
"tree validate" can rebuild the held-out rows). Prints the accuracy (share
of levels whose fastest implementation is predicted) on the held-out rows
and on all rows. The default split holds out half of the graphs (PCG,
seed 1); dataset:real holds out the SNAP graphs, dataset:PREFIX the graphs
whose names start with PREFIX. With --weight time a row counts by the
slowest minus the fastest level time.

With --csv FILE --label COLUMN it trains on any CSV with a header line
instead (such as "tree dataset --csv"): the label column holds the class
names, the weight column (--weight-column, default "weight", used when the
file has it; --weight none ignores it) the row weights, and every other
column is a numeric feature, except the columns --ignore names and those in
which no value is a number (a graph name, say), which are left out. Rows
are split by index (--split rows) with the same --train-fraction and
--seed. For "tree dataset --csv" output add --ignore root,level to train on
the 27 features of seed 004 §7.2.

With --db FILE the tree is also stored in the store's models table, and the
stored runs of the training inputs in model_runs (role train; inputs with
held-out rows only: validation); a run is linked when the store holds
exactly one validated run of that graph, root and implementation with the
same median time. The tree's training record (source, split, seed, a hash
of the rows) goes into training_query as JSON whether or not runs are
linked: the rows come from a results directory or CSV, not from the store.`

func treeTrain(e *env, args []string) error {
	fs := newFlagSet(e, "tree train", "tree train [DIR | --csv FILE --label COLUMN] [--split KIND] [--train-fraction F] [--seed S] [--max-depth D] [--min-leaf K] [--weight time|none] [-o MODEL.json] [--db FILE]", treeTrainHelp)
	var sf splitFlags
	sf.register(fs)
	out := fs.String("o", "", "write the model to MODEL.json (required unless --db or --plot)")
	plotDir := fs.String("plot", "", plotFlagUsage+": the Gini importances and the tree's top levels")
	csvPath := fs.String("csv", "", "train on the rows of this CSV file instead of a results directory")
	label := fs.String("label", "", "with --csv: the column of class names")
	weightColumn := fs.String("weight-column", "weight", "with --csv: the column of row weights, when the file has it (never a feature)")
	ignore := fs.String("ignore", "", "with --csv: comma-separated columns that are not features")
	dbPath := fs.String("db", "", "also store the model, and the stored runs it was trained on, in this store (created when missing)")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	set := flagsSet(fs)
	if *csvPath == "" && (set["label"] || set["weight-column"] || set["ignore"]) {
		return fmt.Errorf("--label, --weight-column and --ignore need --csv")
	}
	if *csvPath != "" {
		if len(pos) > 0 {
			return fmt.Errorf("--csv and a results directory %q exclude each other", pos[0])
		}
		if *label == "" {
			return fmt.Errorf("--csv needs --label COLUMN")
		}
		if !set["split"] {
			sf.kind = string(split.ByRows)
		}
	}
	w, err := sf.check()
	if err != nil {
		return err
	}
	if *csvPath == "" && sf.split.Kind == split.ByRows {
		return fmt.Errorf("--split rows is for --csv; the levels of a results directory are split by --split steps")
	}
	if *out == "" && *plotDir == "" && *dbPath == "" && !e.inReport() {
		return fmt.Errorf("-o MODEL.json is required (or --db FILE, or --plot DIR for the figures alone)")
	}
	var ts *treefit.Set
	if *csvPath != "" {
		ts, err = treefit.ReadCSVSet(treefit.CSVOptions{Path: *csvPath, Label: *label, WeightColumn: *weightColumn,
			Ignore: splitList(*ignore), RequireWeight: set["weight-column"]}, sf.split, w)
	} else {
		ts, err = treefit.DirSet(dirOptions(pos), sf.split, w)
	}
	if err != nil {
		return treeError(err, sf.split)
	}
	f, err := treefit.Train(ts, sf.params())
	if err != nil {
		return err
	}
	if *out != "" {
		if err := writeFileAtomic(*out, f.JSON); err != nil {
			return err
		}
	}
	var stored string
	if *dbPath != "" {
		if stored, err = storeTree(*dbPath, f); err != nil {
			return err
		}
	}
	if err := treeFigures(e, *plotDir, f.Tree); err != nil {
		return err
	}
	writeTrained(e, f, *csvPath, *label)
	if *out != "" {
		fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	}
	if stored != "" {
		fmt.Fprintln(e.stdout, stored)
	}
	return nil
}

// treeFigures draws a trained tree's Gini importances and its top levels
// (--plot, or in a report): rplot.TreeFigures.
func treeFigures(e *env, dir string, c *tree.Classifier) error {
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.TreeFigures(c)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}

// writeTrained prints what "tree train" trained on (the CSV's columns with
// --csv) and the tree's size and accuracy.
func writeTrained(e *env, f *treefit.Fitted, csvPath, label string) {
	ts := f.Set
	what := "implementations"
	if csvPath != "" {
		what = "classes"
		fmt.Fprintf(e.stdout, "csv: %s: %d rows, %d features, label %q", csvPath, len(ts.Rows), len(ts.Features), label)
		if ts.Record.WeightColumn != "" {
			fmt.Fprintf(e.stdout, ", weight column %q", ts.Record.WeightColumn)
		}
		fmt.Fprintln(e.stdout)
		if len(ts.Ignored) > 0 {
			fmt.Fprintf(e.stdout, "not features: %s\n", strings.Join(ts.Ignored, ", "))
		}
	}
	fmt.Fprintf(e.stdout, "split: %s\nrows: %d train, %d held out; %d %s\n", ts.Split, len(ts.Train), len(ts.Test), len(ts.Labels), what)
	fmt.Fprintf(e.stdout, "tree: depth %d, %d leaves\n", f.Depth, f.Leaves)
	fmt.Fprintf(e.stdout, "held-out accuracy: %.4f\nall-rows accuracy: %.4f\n", f.HeldOutAccuracy, f.AllAccuracy)
}

const treeEvaluateHelp = `The aggregate table (seed 004 tables 4.6 and 7.1, against the per-level
optimum) on the held-out inputs of the split: optimal, best non-switching,
each implementation, and "model: ID", Mix-and-Match: at each level the
measured time of the implementation the tree predicts. Without --model it
trains a tree with the split flags and evaluates it; with --model the split
flags only choose the held-out inputs. With the steps split, an input is
held out if any of its levels is, and all its levels are evaluated.

--db STORE evaluates on the validated BFS runs of a store instead (graphperf
bench ingest of a sweep on a GPU); with --model and no --split every input
of the store is scored, which is the check of a saved tree on measurements
of graphs it never saw. Graph properties the store lacks are computed by
rebuilding its graphs (file graphs from --graphs).`

func treeEvaluate(e *env, args []string) error {
	fs := newFlagSet(e, "tree evaluate", "tree evaluate [DIR] [--model MODEL.json] [split flags] [--json | --csv]", treeEvaluateHelp)
	var sf splitFlags
	sf.register(fs)
	modelPath := fs.String("model", "", "a tree written by \"tree train\"; default: train one")
	plotDir := fs.String("plot", "", plotFlagUsage+": a heatmap of the tree's Mix-and-Match time over the optimum per held-out graph, beside the best non-switching implementation and each family's best member")
	asJSON := fs.Bool("json", false, "print JSON lines, one object per row")
	asCSV := fs.Bool("csv", false, "print the table as CSV, its ratios plain numbers")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return errors.New("--json and --csv exclude each other")
	}
	w, err := sf.check()
	if err != nil {
		return err
	}
	if sf.split.Kind == split.ByRows {
		return errDirRows
	}
	ts, err := treefit.EvaluationSet(treefit.RowsOptions{Store: storeOptions(e, df), Dir: dirOptions(pos)}, sf.split, w,
		*modelPath != "" && !flagsSet(fs)["split"])
	if err != nil {
		return treeError(err, sf.split)
	}
	ev, err := treefit.EvaluateModel(ts, treefit.EvaluateOptions{Model: *modelPath, Params: sf.params()})
	if err != nil {
		return err
	}
	if e.wantFigures(*plotDir) {
		if err := treePredictionHeatmap(e, *plotDir, ev); err != nil {
			return err
		}
	}
	for _, wmsg := range ev.Warnings {
		fmt.Fprintln(e.stderr, "warning:", wmsg)
	}
	if *asJSON {
		return writeJSONLines(e.stdout, ev.EvalRows())
	}
	if *asCSV {
		return tableOf(ev.ResultTable(true)).write(e.stdout, true)
	}
	return writeTreeEvaluation(e, ev)
}

// writeTreeEvaluation prints the aggregate table of "tree evaluate".
func writeTreeEvaluation(e *env, ev *treefit.Evaluation) error {
	s, n := ev.Set.Split, len(ev.Table.Inputs)
	fmt.Fprintf(e.stdout, "split: %s; %d held-out inputs\n\n", s, n)
	return tableOf(ev.ResultTable(e.inReport())).write(e.stdout, false)
}

func treeShow(e *env, args []string) error {
	fs := newFlagSet(e, "tree show", "tree show MODEL.json", "Prints a saved tree, one node per line.")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	c, err := treefit.ReadTree(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "depth %d, %d leaves, %d classes, %d features\n", c.Depth(), c.NumLeaves(), len(c.Classes), len(c.Features))
	if r := c.Training; r != nil {
		fmt.Fprintf(e.stdout, "trained on %s: split %s, train fraction %g, seed %d, weight %s; %d train, %d held-out rows\n",
			r.Source, r.Split, r.TrainFraction, r.Seed, r.Weight, r.TrainRows, r.HeldOutRows)
	}
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
	c, err := treefit.ReadTree(pos[0])
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
	c, err := treefit.ReadTree(pos[0])
	if err != nil {
		return err
	}
	imps := treefit.Importances(c)
	if of.json {
		return writeJSON(e.stdout, imps)
	}
	return tableOf(treefit.ImportanceTable(imps)).write(e.stdout, of.csv)
}

// treePredictionHeatmap draws the heatmap of predictions on the held-out
// graphs: rplot.TreePredictionFigures.
func treePredictionHeatmap(e *env, dir string, ev *treefit.Evaluation) error {
	figs, err := rplot.TreePredictionFigures(ev)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}
