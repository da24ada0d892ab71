package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
	t := &table{header: []string{"implementation", "model", "predicted_us"}, name: "predict-la",
		title: fmt.Sprintf("Predicted graphperf-la times on %s from root %d", p.Graph, p.Root)}
	for _, it := range p.Times {
		kind := "linalg"
		if it.Impl == la.Worklist {
			kind = "vertex-centric"
		}
		t.add(it.Impl, kind, us(it.Ns))
	}
	t.add("bfs: "+p.VertexCentricBFS.Impl, "vertex-centric (predict bfs, best single)", us(p.VertexCentricBFS.Ns))
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	a := &table{header: []string{"algorithm", "linalg", "linalg_us", "vertex_centric", "vertex_centric_us", "linalg/vc", "predicted_faster"}, name: "predict-la-answers",
		title: "Linear algebra or vertex-centric?"}
	for _, ans := range p.Answers {
		if !ans.Covered {
			a.add(ans.Algorithm, ans.LA, us(ans.LANs), "-", "-", "-", ans.Note)
			continue
		}
		a.add(ans.Algorithm, ans.LA, us(ans.LANs), ans.VertexCentric, us(ans.VCNs), strconv.FormatFloat(ans.Ratio, 'f', 2, 64), ans.Faster)
	}
	return a.write(e.stdout, false)
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
	if err := laEvalErrorsTable(ev.Evaluation).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	return laEvalDecisions(e, ev.Evaluation)
}

// laEvalErrorsTable is la-evaluate's table of held-out relative errors per
// implementation.
func laEvalErrorsTable(ev *latime.Evaluation) *table {
	t := &table{header: []string{"implementation", "graphs", "median_abs_rel_err", "median_rel_err", "worst_abs_rel_err", "worst_graph"}, name: "predict-la-errors",
		title: fmt.Sprintf("LinAlg time model, held out by %s (%d folds), forms %v", ev.Folding, ev.Folds, ev.Forms)}
	for _, ie := range ev.Errors {
		t.add(ie.Impl, strconv.Itoa(ie.Graphs), f3nan(ie.MedianAbs), f3nan(ie.MedianSigned), f3nan(ie.WorstAbs), ie.WorstGraph)
	}
	return t
}

// laEvalDecisions prints la-evaluate's SSSP and BFS questions: a table of
// the model against the majority baseline, then a verdict per question
// evaluated with its notes.
func laEvalDecisions(e *env, ev *latime.Evaluation) error {
	d := &table{header: []string{"question", "graphs", "linalg_faster_measured", "model_correct", "baseline_correct", "model_wrong_on"}, name: "predict-la-decisions",
		title: "Linear algebra or vertex-centric? Model against the majority baseline"}
	for _, q := range []latime.Decision{ev.SSSP, ev.BFS} {
		if q.Graphs == 0 {
			d.add(q.Question, "0", "-", "-", "-", "not evaluated (BFS: give --corpus)")
			continue
		}
		d.add(q.Question, strconv.Itoa(q.Graphs), strconv.Itoa(q.LAFasterMeas), frac(q.ModelCorrect, q.Graphs), frac(q.BaselineCorrect, q.Graphs), strings.Join(q.ModelWrong, " "))
	}
	if err := d.write(e.stdout, false); err != nil {
		return err
	}
	for _, q := range []latime.Decision{ev.SSSP, ev.BFS} {
		if q.Graphs == 0 {
			continue
		}
		verdict := "beats"
		switch {
		case q.ModelCorrect < q.BaselineCorrect:
			verdict = "LOSES to"
		case q.ModelCorrect == q.BaselineCorrect:
			verdict = "ties with"
		}
		fmt.Fprintf(e.stdout, "\n%s: the model %s the majority baseline (%d against %d of %d)", strings.SplitN(q.Question, ":", 2)[0], verdict, q.ModelCorrect, q.BaselineCorrect, q.Graphs)
		for _, w := range q.Warnings {
			fmt.Fprintf(e.stdout, "\n  note: %s", w)
		}
	}
	fmt.Fprintln(e.stdout)
	return nil
}

func f3nan(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func frac(a, b int) string { return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b)) }

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
	res, err := la.EmbeddedTimed()
	if err != nil {
		return err
	}
	hf, err := latime.ComputeHubFile(fmt.Sprint(res.Sources), la.TimeRuns(res), la.CorpusGraphs(c, *corpus, *graphsDir))
	if err != nil {
		return err
	}
	hf.Corpus = filepath.ToSlash(*corpus)
	hf.Source = "embedded:la (kernels/measured/h100/la)"
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
