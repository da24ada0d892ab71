package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
)

func predictGroup() group {
	return group{
		name:    "predict",
		summary: "per-level BFS times of every implementation on graphs never measured (time model, Mix-and-Match)",
		commands: []command{
			{"bfs", "predict every implementation's time at every level of a BFS of a graph file", predictBFS},
			{"evaluate", "train and score the time model on held-out graphs, beside the baselines (or score a saved model)", predictEvaluate},
			{"train", "train a time model and write it as JSON", predictTrain},
			{"la", "predict graphperf-la's LinAlg kernels and sssp-worklist on a graph file: linear algebra or vertex-centric?", predictLA},
			{"la-hubs", "rebuild the graphperf-la corpus's graphs and write their hub walks, the LinAlg time model's input from the graphs", predictLAHubs},
			{"la-evaluate", "leave-graph-out evaluation of the LinAlg time model on the embedded graphperf-la measurements", predictLAEvaluate},
			{"dataset", "the (level, implementation) rows with seed 004's 27 features, for outside baselines", predictDataset},
		},
	}
}

// dataFlags choose the measurements the time model is trained or scored
// on: the embedded dataset, a results directory DIR, or a store.
type dataFlags struct {
	db, dataset, graphs, platform string
}

func (f *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.db, "db", "", "read the validated BFS runs of this store (graphperf bench ingest) instead of a results directory")
	fs.StringVar(&f.dataset, "dataset", "", "with --db: only this dataset of the store")
	fs.StringVar(&f.platform, "platform", "", "with --db: only the runs of this GPU (its name in \"data list\", or a part of it such as h200); default: the store's only one")
	fs.StringVar(&f.graphs, "graphs", os.Getenv(GraphsEnv), "folder holding the file graphs (SNAP and the like) a manifest or store names, rebuilt for their level properties when the data has none; default $"+GraphsEnv)
}

// timeData is the embedded dataset, DIR or --db laid out for the time model.
func timeData(e *env, dirArgs []string, m *machine.Machine, df dataFlags) (*predict.Dataset, error) {
	ds, err := timeDataOnce(e, dirArgs, m, df)
	if err != nil {
		return nil, err
	}
	for _, w := range ds.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	return ds, nil
}

// embeddedTimeData memoizes the time model's dataset of the embedded
// measurements per machine: a report's cells (the summary, predict
// evaluate of both held-out models) and a test process read it many times,
// and building it (every level row's features for 59 implementations)
// takes seconds. Nothing changes a Dataset once built.
var (
	embeddedTimeMu   sync.Mutex
	embeddedTimeData = map[string]*predict.Dataset{}
)

// timeDataOnce is timeData without the warnings, memoized for the
// embedded dataset.
func timeDataOnce(e *env, dirArgs []string, m *machine.Machine, df dataFlags) (*predict.Dataset, error) {
	if len(dirArgs) == 0 && df == (dataFlags{graphs: df.graphs}) && e.defaultDB == "" {
		embeddedTimeMu.Lock()
		defer embeddedTimeMu.Unlock()
		key := m.Name + "\x00" + m.File + "\x00" + df.graphs
		if ds := embeddedTimeData[key]; ds != nil {
			return ds, nil
		}
		ds, err := timeDataLoad(e, dirArgs, m, df)
		if err == nil {
			embeddedTimeData[key] = ds
		}
		return ds, err
	}
	return timeDataLoad(e, dirArgs, m, df)
}

// timeDataLoad builds the dataset of timeData.
func timeDataLoad(e *env, dirArgs []string, m *machine.Machine, df dataFlags) (*predict.Dataset, error) {
	ph, err := predict.NewPhysics(m)
	if err != nil {
		return nil, err
	}
	if df.db != "" {
		if len(dirArgs) > 0 {
			return nil, fmt.Errorf("give a results directory or --db, not both")
		}
		return loadTimeData(e, "", df.db, df.dataset, df.platform, df.graphs, ph)
	}
	if df.dataset != "" {
		return nil, fmt.Errorf("--dataset needs --db")
	}
	if df.platform != "" {
		return nil, fmt.Errorf("--platform needs --db (a results directory holds one GPU's runs)")
	}
	dir, err := resultsDir(dirArgs)
	if err != nil {
		return nil, err
	}
	return loadTimeData(e, dir, "", "", "", df.graphs, ph)
}

// machineFlag is --machine: an embedded machine name or a YAML file.
func loadMachine(spec string) (*machine.Machine, error) {
	if strings.HasSuffix(spec, ".yaml") || strings.HasSuffix(spec, ".yml") {
		return machine.Load(spec)
	}
	return machine.Lookup(spec)
}

// readModelFile reads a time model from path, or the embedded default
// (predict.OpenModel).
func readModelFile(path string) (*predict.Model, error) { return predict.OpenModel(path) }

const predictBFSHelp = `Predicts, for any graph file and no GPU, the time of every BFS implementation
of the CUDA runner at every level of a BFS from --root, with the time model
(model/predict): gradient-boosted regression trees over the graph's degree
properties, the level's frontier quantities and each implementation's exact
per-level work (workload/cost), correcting a physical base time from the
machine file. Per level it prints the --top fastest implementations and the
recommended one, with what bounds that one's level in the machine file's
terms: the largest term of its physical base time, "overhead" (the level's
fixed cost T_0), "bandwidth" (its accesses x 32 B over the read bandwidth)
or "latency" (its lockstep warp rounds over the resident warps, or its hub
chain, times the DRAM latency); then the predicted totals of Mix-and-Match (the
recommended implementation at every level, conversions not included), of
the best single implementation and of dobfs; and the switching BFS's total:
Mix-and-Match plus the frontier conversions it needs to run those picks (a
queue or bitmap built when a level reads one the previous level did not
leave), each one kernel launch (the machine file's level_overhead) plus its
bytes over the read bandwidth.

Without --model it uses the default model, trained on every graph of the
embedded H100 dataset and embedded in the binary; "predict evaluate" says
how such a model does on graphs it never saw.

A model file records the size range of its training graphs (least and most
vertices and edges) and its machine. A graph outside that range (more
vertices or edges than the largest training graph, or fewer than the
smallest) gets a warning naming the range, on stderr and in --json's
"warnings": the regression then extrapolates from the physical base time
(a model trained up to 2^20 vertices and tested at 2^21-2^22: docs/ACCURACY.md,
"Graphs larger than the training graphs"). A model file older than the
range gets a warning that it is unknown.`

func predictBFS(e *env, args []string) error {
	fs := newFlagSet(e, "predict bfs", "predict bfs GRAPH [--root R|max|random] [--model FILE] [--machine h100] [--top K] [--json|--csv] [--plot DIR]", predictBFSHelp)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	modelPath := fs.String("model", "", "a time model written by \"predict train\" (default: the embedded H100 model)")
	machineName := fs.String("machine", "h100", "machine description: an embedded name (graphperf model machine list) or a YAML file; must be the model's")
	top := fs.Int("top", 3, "implementations to print per level, fastest first (0: all)")
	plotDir := fs.String("plot", "", plotFlagUsage+": predicted level times of the recommended implementation, the best single one and dobfs")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *top < 0 {
		return fmt.Errorf("--top %d: want 0 (all) or more", *top)
	}
	m, ph, err := modelAndPhysics(*modelPath, *machineName)
	if err != nil {
		return err
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	if g.NumVertices() == 0 {
		return fmt.Errorf("%s: the graph has no vertices", pos[0])
	}
	r, err := pickRoot(g, *root, *seed)
	if err != nil {
		return err
	}
	p, err := predict.PredictBFS(m, g, filepath.Base(pos[0]), r, ph)
	if err != nil {
		return err
	}
	for _, w := range p.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	k := *top
	if k == 0 {
		k = len(m.Kernels)
	}
	if e.wantFigures(*plotDir) {
		if err := predictPlot(e, *plotDir, p); err != nil {
			return err
		}
	}
	if of.json {
		return writeJSON(e.stdout, p.WithTop(k))
	}
	return writePredictBFS(e, p, k, of.csv)
}

// modelAndPhysics reads the time model (the embedded default for "") and
// the machine it must have been trained with, and the machine's physics.
func modelAndPhysics(modelPath, machineName string) (*predict.Model, predict.Physics, error) {
	m, err := readModelFile(modelPath)
	if err != nil {
		return nil, predict.Physics{}, err
	}
	mach, err := loadMachine(machineName)
	if err != nil {
		return nil, predict.Physics{}, fmt.Errorf("--machine: %w", err)
	}
	ph, err := predict.PhysicsFor(m, mach)
	if mm := (*predict.MachineMismatchError)(nil); errors.As(err, &mm) {
		return nil, predict.Physics{}, fmt.Errorf("--%s", mm.Error())
	}
	return m, ph, err
}

// writePredictBFS renders p as the per-level table (the k fastest
// implementations a level) and, unless csv, the totals and the switching
// plan.
func writePredictBFS(e *env, p *predict.Prediction, k int, csv bool) error {
	if !csv {
		fmt.Fprintf(e.stdout, "%s: n=%d m=%d, root %d, %d levels; model %s, machine %s\n\n",
			p.Graph, p.Vertices, p.Edges, p.Root, len(p.Levels), p.Model, p.Machine)
	}
	if err := tableOf(p.LevelTable(k)).write(e.stdout, csv); err != nil {
		return err
	}
	if csv {
		return nil
	}
	fmt.Fprintf(e.stdout, "\npredicted total: Mix-and-Match %s us; best single implementation %s %s us; dobfs %s us\n",
		us(p.MixAndMatchNs), p.BestSingle.Impl, us(p.BestSingle.Ns), us(p.DOBFSNs))
	fmt.Fprintf(e.stdout, "the switching BFS (graphperf-bfs --impl switch, the plan of least predicted total with frontier conversions): %s us, of which %d conversions %s us; %s\n",
		us(p.SwitchNs), p.Conversions, us(p.ConversionsNs), p.SwitchNote())
	return nil
}

const predictTrainHelp = `Trains the time model (model/predict) on the embedded H100 dataset (or a
results directory DIR) and writes it as JSON. --split all trains on every
graph, with a quarter of them set aside to choose the hyper-parameters
(targets, leaves, minimum leaf, number of trees) and then folded back in:
this is how the embedded default model is made. --split graphs|family|real|scale
trains on the training side of that split only (--seed, --fraction,
--max-train-vertices as for "predict evaluate") and records the test graphs
in the file, so that "predict evaluate --model FILE" scores it on exactly
those (or, on another GPU's data, on every graph it did not train on).

The file records the machine, the dataset (source) and the size range of
the training graphs (least and most vertices and edges); "predict bfs"
warns when a graph is outside that range.`

func predictTrain(e *env, args []string) error {
	fs := newFlagSet(e, "predict train", "predict train [DIR] [--split all|graphs|family|real|scale] [--seed N] [--fraction F] [--max-train-vertices N] [--machine h100] -o MODEL.json", predictTrainHelp)
	kind := fs.String("split", "all", "all, graphs, family, real or scale")
	maxTrain := fs.String("max-train-vertices", "", "with --split scale: train on the graphs of at most `N` vertices (a number or 2^K; default: the largest power of two below the largest graph)")
	seed := fs.Uint64("seed", 1, "seed of the split (and of the validation graphs)")
	fraction := fs.Float64("fraction", 0.5, "share of graphs held out for --split graphs")
	machineName := fs.String("machine", "h100", "machine description of the dataset's GPU")
	out := fs.String("o", "", "write the model to FILE (.gz: gzipped)")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o FILE is required")
	}
	var maxTrainVertices int64
	if *maxTrain != "" {
		if *kind != string(predict.ByScale) {
			return fmt.Errorf("--max-train-vertices: only with --split scale")
		}
		if maxTrainVertices, err = predict.ParseVertexCount(*maxTrain); err != nil {
			return fmt.Errorf("--max-train-vertices: %w", err)
		}
	}
	mach, err := loadMachine(*machineName)
	if err != nil {
		return fmt.Errorf("--machine: %w", err)
	}
	ds, err := timeData(e, pos, mach, df)
	if err != nil {
		return err
	}
	var s predict.Split
	switch *kind {
	case string(predict.ByScale):
		if s, err = predict.MakeScaleSplit(ds, maxTrainVertices, *seed); err != nil {
			return fmt.Errorf("--split scale: %w", err)
		}
		fmt.Fprintln(e.stderr, scaleNote(ds, s))
	case "all":
		tr, val := predict.AllGraphs(ds, *seed)
		s = predict.Split{Name: "all", Kind: "all", Seed: *seed, Train: tr, Validation: val}
	default:
		ss, err := predict.MakeSplits(ds, predict.SplitKind(*kind), *fraction, []uint64{*seed})
		if err != nil {
			return fmt.Errorf("--split: %w", err)
		}
		s = ss[0]
	}
	bar := progress.New(e.stderr, e.interactive, "train", false)
	defer bar.Done()
	t0 := time.Now()
	m, err := predict.Train(ds, s, predict.DefaultGrid, func(d, t int) { bar.Update(int64(d), int64(t)) })
	if err != nil {
		return err
	}
	m.Machine = mach.Name
	m.Training.Source = sourceName(pos, df)
	m.Training.Date = time.Now().UTC().Format("2006-01-02")
	m.Training.Version = version()
	if err := writeFile(*out, func(w io.Writer) error { return predict.WriteModel(w, m, strings.HasSuffix(*out, ".gz")) }); err != nil {
		return err
	}
	r := m.Training.Range
	fmt.Fprintf(e.stdout, "trained on %d graphs (%d-%d vertices, %d-%d edges; %d rows) in %.1fs: target %s, %d trees of %d leaves, min leaf %d; wrote %s\n",
		len(s.Train)+len(s.Validation), r.MinVertices, r.MaxVertices, r.MinEdges, r.MaxEdges, m.Training.Rows, time.Since(t0).Seconds(), m.Target, len(m.Trees.Trees),
		m.Training.Params.MaxLeaves, m.Training.Params.MinLeaf, *out)
	return nil
}

// sourceName names the data a model was trained on, as its file records
// it: the embedded H100 dataset, a results directory (an embedded one as
// "embedded:h200"), or a store with its platform and dataset.
func sourceName(pos []string, df dataFlags) string {
	switch {
	case df.db != "":
		s := "store " + df.db
		if df.platform != "" {
			s += ", platform " + df.platform
		}
		if df.dataset != "" {
			s += ", dataset " + df.dataset
		}
		return s
	case len(pos) == 0:
		return "embedded H100 dataset (kernels/measured/h100)"
	}
	return pos[0]
}

const predictDatasetHelp = `Writes one CSV row per (graph, root, level, implementation) of the embedded
H100 dataset (or DIR): graph, root, level, impl, time_ns and the 27 features
of seed 004 §7.2 (split.FeatureNames). It is the input of the scikit-learn
baseline (docs/baselines/), which "predict evaluate --baseline" runs on the
same splits.`

func predictDataset(e *env, args []string) error {
	fs := newFlagSet(e, "predict dataset", "predict dataset [DIR] -o ROWS.csv[.gz]", predictDatasetHelp)
	out := fs.String("o", "", "write to FILE (.gz: gzipped)")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o FILE is required")
	}
	mach, err := machine.Lookup("h100")
	if err != nil {
		return err
	}
	ds, err := timeData(e, pos, mach, df)
	if err != nil {
		return err
	}
	return writeFile(*out, func(w io.Writer) error { return predict.WriteBaselineRows(w, ds, *out) })
}
