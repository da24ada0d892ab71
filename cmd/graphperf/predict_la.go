package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/latime"
)

const predictLAHelp = `Predicts, for a graph file (or "embedded:graph/NAME", a graph of the embedded
BFS dataset rebuilt from its generator spec) and no GPU, the total time of every graphperf-la
implementation (kernels/cuda/LINALG.md: bfs-push, bfs-pull, pr-spmv, sssp-la,
the optimised LinAlg SSSP variants sssp-v1-atomic, -v1-shared, -v2, -v3, and
the vertex-centric sssp-worklist) from --root, with the LinAlg time model
(model/latime): per implementation T = a*launches + b*edges + c*rows, the
counts from a CPU BFS and a CPU Bellman-Ford over the runner's weights
(max weight 64, seed 1), the coefficients fitted on the 51 graphs of the
embedded H100 measurements (kernels/measured/h100/la). The vertex-centric
BFS is the time model of "predict bfs" (its best single implementation).
Then, per algorithm, which side is predicted faster and the ratio
LinAlg / vertex-centric: BFS (faster of bfs-push and bfs-pull against the
best vertex-centric implementation), SSSP (fastest optimised LinAlg variant
against sssp-worklist); PageRank is not covered (no vertex-centric PageRank
time model). PageRank's time is for 20 iterations, as measured. How far to
trust it: "predict la-evaluate" and docs/ACCURACY.md.`

func predictLA(e *env, args []string) error {
	fs := newFlagSet(e, "predict la", "predict la GRAPH [--root R|max|random] [--seed N] [--json]", predictLAHelp)
	var lf loadFlags
	lf.register(fs)
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	jsonOut := fs.Bool("json", false, "print JSON (stable keys) instead of tables")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	r, err := pickRoot(g, *root, *seed)
	if err != nil {
		return err
	}
	mach, err := loadMachine("h100")
	if err != nil {
		return err
	}
	p, err := la.PredictGraph(g, filepath.Base(pos[0]), r, mach)
	if err != nil {
		return err
	}
	for _, w := range p.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	if *jsonOut {
		return writeJSON(e.stdout, p)
	}
	w := p.Workload
	fmt.Fprintf(e.stdout, "%s: n=%d m=%d, root %d: %g BFS levels, %g Bellman-Ford iterations (%g distances lowered, %g V2 rows); H100\n\n",
		p.Graph, p.Vertices, p.Edges, p.Root, w.BFSLevels, w.SSSPIterations, w.SSSPChanged, w.SSSPRows)
	if err := tableOf(p.TimesTable()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	return tableOf(p.AnswersTable()).write(e.stdout, false)
}

const predictLAEvaluateHelp = `Evaluates the LinAlg time model (model/latime, "predict la") on the embedded
H100 graphperf-la measurements (51 graphs): the model is fitted on all
graphs but the held-out fold and predicts that fold, for every fold
(--folds graph: one graph at a time; family: one family at a time, the
t10-ws, b1-ws and b1-rmat sweeps, the generated and the real graphs, so a
sweep's near neighbours are held out together). Per implementation the
median and worst relative error; then two questions, each beside the
baseline that always answers its training fold's majority: SSSP (fastest
optimised LinAlg variant against sssp-worklist, every graph) and, with
--corpus, BFS (faster of bfs-push and bfs-pull against the best vertex-centric
implementation predicted by "predict bfs", on the graphs where both sides
were measured; each graph's vertex-centric prediction from an embedded
held-out model that never saw it where one exists, else the default model,
flagged in-sample). --corpus names kernels/corpus/h100-la.yaml, whose
generated graphs are rebuilt; its file graphs are read from --graphs.`

func predictLAEvaluate(e *env, args []string) error {
	fs := newFlagSet(e, "predict la-evaluate", "predict la-evaluate [--folds graph|family] [--corpus FILE [--graphs DIR]] [--json]", predictLAEvaluateHelp)
	folds := fs.String("folds", "graph", "graph (leave one graph out) or family (leave one family out)")
	corpus := fs.String("corpus", "", "the corpus of the measurements (kernels/corpus/h100-la.yaml), to rebuild graphs for the BFS question; without it the BFS question is skipped")
	graphsDir := fs.String("graphs", os.Getenv(GraphsEnv), "folder of the corpus's file graphs (SNAP); default $"+GraphsEnv)
	forms := fs.String("forms", "base,hub", "the model forms the fit chooses from per implementation (inside each fold): base (launches, edges, rows), hub (and the hub walk), or both")
	jsonOut := fs.Bool("json", false, "print JSON (stable keys) instead of tables")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	opt := la.TimeEvalOptions{Folding: latime.Folding(*folds)}
	for _, f := range strings.Split(*forms, ",") {
		f = strings.TrimSpace(f)
		if f != string(latime.Base) && f != string(latime.WithHub) {
			return fmt.Errorf("--forms %q: want base, hub or base,hub", *forms)
		}
		opt.Forms = append(opt.Forms, latime.Form(f))
	}
	if opt.Folding != latime.ByGraph && opt.Folding != latime.ByFamily {
		return fmt.Errorf("--folds %q: want graph or family", *folds)
	}
	if *corpus != "" {
		c, err := kernels.LoadCorpus(*corpus)
		if err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
		if opt.Machine, err = loadMachine("h100"); err != nil {
			return err
		}
		opt.Graphs = la.CorpusGraphs(c, *corpus, *graphsDir)
	}
	ev, err := la.EvaluateTimeModel(opt)
	if err != nil {
		return err
	}
	if *jsonOut {
		return writeJSON(e.stdout, ev)
	}
	for _, w := range ev.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	fmt.Fprintf(e.stdout, "LinAlg time model (model/latime) on the embedded H100 graphperf-la measurements, %d graphs held out by %s (%d folds); forms %v chosen per implementation inside each fold\n\n",
		ev.Samples, ev.Folding, ev.Folds, ev.Forms)
	if err := tableOf(ev.ErrorsTable()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	if err := tableOf(ev.DecisionsTable()).write(e.stdout, false); err != nil {
		return err
	}
	for _, q := range []latime.Decision{ev.SSSP, ev.BFS} {
		if q.Graphs == 0 {
			continue
		}
		fmt.Fprintf(e.stdout, "\n%s", q.Verdict())
		for _, w := range q.Warnings {
			fmt.Fprintf(e.stdout, "\n  note: %s", w)
		}
	}
	fmt.Fprintln(e.stdout)
	return nil
}

const predictLAHubsHelp = `Rebuilds every graph of the embedded graphperf-la measurements from the
corpus (generated graphs from their spec and seed, file graphs from --graphs)
and writes, per graph, the hub walks the LinAlg time model needs from the
graph itself (model/latime Hubs: the largest degrees, and per BFS from each
measured root the largest frontier out-degree and the largest unvisited
in-degree summed over the levels, mean over the roots). The embedded
model/latime/hubs-h100-la.json was written by
  graphperf predict la-hubs --corpus kernels/corpus/h100-la.yaml --graphs ../shared/graphs -o model/latime/hubs-h100-la.json
A rebuilt graph of another size than the measured one is an error.`

func predictLAHubs(e *env, args []string) error {
	fs := newFlagSet(e, "predict la-hubs", "predict la-hubs --corpus FILE [--graphs DIR] -o FILE", predictLAHubsHelp)
	corpus := fs.String("corpus", "", "the corpus of the measurements (kernels/corpus/h100-la.yaml) (required)")
	graphsDir := fs.String("graphs", os.Getenv(GraphsEnv), "folder of the corpus's file graphs (SNAP); default $"+GraphsEnv)
	out := fs.String("o", "", "write the hub file to FILE (required)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *corpus == "" || *out == "" {
		return fmt.Errorf("--corpus and -o are required")
	}
	c, err := kernels.LoadCorpus(*corpus)
	if err != nil {
		return fmt.Errorf("--corpus: %w", err)
	}
	hf, err := la.EmbeddedHubFile(c, *corpus, *graphsDir)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := hf.Write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "predict la-hubs: %d graphs written to %s\n", len(hf.Graphs), *out)
	return nil
}
