package latime

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/kernels/laout"
)

// Folding names how Evaluate groups graphs into folds.
type Folding string

const (
	// ByGraph leaves one graph out at a time.
	ByGraph Folding = "graph"
	// ByFamily leaves out one family at a time (Family): the sweeps' near
	// neighbours of a graph are held out with it.
	ByFamily Folding = "family"
)

var familyPattern = regexp.MustCompile(`^(rmat|ba|road|cfg|forestfire|holmekim|er|ws|kron|ff|hk|sbm)-`)

// Family is a graph's group for ByFamily: t10-ws (seed 001 tables 10-11),
// b1-ws and b1-rmat (appendix B.1), generated (the corpus's generator
// graphs) or real (the rest: files such as SNAP's).
func Family(graph string) string {
	if sw, fam, _, _, _, ok := laout.ParseSweepName(graph); ok {
		return sw + "-" + fam
	}
	if familyPattern.MatchString(graph) {
		return "generated"
	}
	return "real"
}

// ImplError is one implementation's held-out relative errors
// (predicted − measured) / measured over the graphs.
type ImplError struct {
	Impl       string  `json:"impl"`
	Graphs     int     `json:"graphs"`
	MedianAbs  float64 `json:"median_abs_rel_error"`
	WorstAbs   float64 `json:"worst_abs_rel_error"`
	WorstGraph string  `json:"worst_graph"`
	// MedianSigned is the median of the signed errors (> 0: the model
	// over-predicts on the typical graph).
	MedianSigned float64 `json:"median_rel_error"`
}

// Decision scores one "linear algebra or vertex-centric?" question over
// the held-out graphs: the model's answer, and the baseline that always
// answers the majority class of its training fold (ties: vertex-centric).
type Decision struct {
	Question        string   `json:"question"`
	Graphs          int      `json:"graphs"`
	LAFasterMeas    int      `json:"la_faster_measured"`
	ModelCorrect    int      `json:"model_correct"`
	BaselineCorrect int      `json:"baseline_correct"`
	ModelWrong      []string `json:"model_wrong,omitempty"`
	// Warnings say what the numbers rest on (an in-sample vertex-centric
	// prediction, too few graphs).
	Warnings []string `json:"warnings,omitempty"`
}

// ModelAccuracy and BaselineAccuracy are the shares correct (NaN with no
// graphs).
func (d Decision) ModelAccuracy() float64    { return ratio(d.ModelCorrect, d.Graphs) }
func (d Decision) BaselineAccuracy() float64 { return ratio(d.BaselineCorrect, d.Graphs) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// GraphResult is one held-out graph: measured and predicted times, and
// the SSSP and BFS answers.
type GraphResult struct {
	Graph       string             `json:"graph"`
	Fold        string             `json:"fold"`
	MeasuredNs  map[string]float64 `json:"measured_ns"`
	PredictedNs map[string]float64 `json:"predicted_ns"`
	// SSSP: the best optimised LinAlg variant over sssp-worklist (> 1:
	// worklist faster), measured and predicted; 0 where a run is missing.
	SSSPBestLAOverWorklistMeas float64 `json:"sssp_best_la_over_worklist_measured,omitempty"`
	SSSPBestLAOverWorklistPred float64 `json:"sssp_best_la_over_worklist_predicted,omitempty"`
	// BFS, where the vertex-centric side is known: LinAlg BFS (faster of
	// push and pull) over the best vertex-centric implementation.
	BFSLAOverVCMeas float64 `json:"bfs_la_over_vertex_centric_measured,omitempty"`
	BFSLAOverVCPred float64 `json:"bfs_la_over_vertex_centric_predicted,omitempty"`
}

// VertexCentric is a graph's vertex-centric BFS side for the BFS
// question: the measured LinAlg and best vertex-centric times on the same
// roots (MeasuredVC) and the vertex-centric time model's
// predicted best single implementation (model/predict, mean over the same
// roots); InSample says that model was trained on this graph.
type VertexCentric struct {
	MeasuredLANs   float64 `json:"measured_la_ns"`
	MeasuredBestNs float64 `json:"measured_best_ns"`
	PredictedNs    float64 `json:"predicted_best_single_ns"`
	PredictedImpl  string  `json:"predicted_best_single"`
	Model          string  `json:"model"`
	InSample       bool    `json:"in_sample"`
}

// Options are Evaluate's choices; the zero value folds by graph, lets
// the fit choose among AllForms and skips the BFS question.
type Options struct {
	Folding Folding
	// Forms restricts the forms the fit chooses from (FitForms).
	Forms []Form
	// VertexCentric is the BFS question's vertex-centric side per graph
	// (VertexCentricSide); nil skips the question.
	VertexCentric map[string]VertexCentric
}

// Evaluation is Evaluate's result.
type Evaluation struct {
	Folding Folding       `json:"folding"`
	Forms   []Form        `json:"forms"`
	Folds   int           `json:"folds"`
	Graphs  []GraphResult `json:"graphs"`
	Errors  []ImplError   `json:"errors"`
	SSSP    Decision      `json:"sssp"`
	BFS     Decision      `json:"bfs"`
}

// ErrNoSamples is an evaluation without data.
var ErrNoSamples = errors.New("latime: no samples")

// Evaluate fits the model on all folds but one and predicts the graphs of
// that one, for every fold (folding by graph or family); nothing of a
// held-out graph (time, workload, label) enters its fit. It scores every
// implementation's relative error and the two questions: SSSP (the
// fastest of laout.OptimisedSSSP against sssp-worklist, every graph) and BFS
// (the faster of bfs-push and bfs-pull against the vertex-centric
// prediction, the graphs of vc). The baselines answer their fold's
// training graphs' majority class.
func Evaluate(samples []Sample, opt Options) (*Evaluation, error) {
	if len(samples) == 0 {
		return nil, ErrNoSamples
	}
	folding := opt.Folding
	if folding == "" {
		folding = ByGraph
	}
	group, err := foldOf(folding)
	if err != nil {
		return nil, err
	}
	var folds []string
	for _, s := range samples {
		if f := group(s.Graph); !slices.Contains(folds, f) {
			folds = append(folds, f)
		}
	}
	sort.Strings(folds)
	ev := &Evaluation{Folding: folding, Folds: len(folds), Forms: opt.Forms,
		SSSP: Decision{Question: "SSSP: fastest optimised LinAlg variant or sssp-worklist"},
		BFS:  Decision{Question: "BFS: LinAlg BFS (faster of push and pull) or the best vertex-centric implementation"}}
	errs := map[string][]graphErr{}
	for _, f := range folds {
		var train, test []Sample
		for _, s := range samples {
			if group(s.Graph) == f {
				test = append(test, s)
			} else {
				train = append(train, s)
			}
		}
		if err := ev.evaluateFold(f, train, test, opt, errs); err != nil {
			return nil, err
		}
	}
	sort.Slice(ev.Graphs, func(i, j int) bool { return ev.Graphs[i].Graph < ev.Graphs[j].Graph })
	ev.Errors = implErrors(errs)
	if len(ev.Forms) == 0 {
		ev.Forms = AllForms
	}
	if ev.BFS.Graphs > 0 && ev.BFS.Graphs < 10 {
		ev.BFS.Warnings = append(ev.BFS.Warnings, fmt.Sprintf("only %d graphs have both a LinAlg and a vertex-centric BFS measurement", ev.BFS.Graphs))
	}
	return ev, nil
}

// foldOf returns the function naming a graph's fold under folding.
func foldOf(folding Folding) (func(graph string) string, error) {
	switch folding {
	case ByGraph:
		return func(g string) string { return g }, nil
	case ByFamily:
		return Family, nil
	}
	return nil, fmt.Errorf("latime: unknown folding %q (graph or family)", folding)
}

// graphErr is one held-out graph's relative error of an implementation.
type graphErr struct {
	graph string
	e     float64
}

// majority is a fold's baseline for both questions: whether the training
// graphs' majority answer is "linear algebra" (ties: vertex-centric).
type majority struct{ sssp, bfs bool }

// trainingMajority counts the training graphs' measured answers
// (vc: the BFS question's vertex-centric side).
func trainingMajority(train []Sample, vc map[string]VertexCentric) majority {
	ssspLA, ssspN, bfsLA, bfsN := 0, 0, 0, 0
	for _, s := range train {
		if r, ok := bestLAOverWorklist(s.TimesNs); ok {
			ssspN++
			if r < 1 {
				ssspLA++
			}
		}
		if v, ok := vc[s.Graph]; ok && v.MeasuredBestNs > 0 {
			bfsN++
			if v.MeasuredLANs < v.MeasuredBestNs {
				bfsLA++
			}
		}
	}
	return majority{sssp: 2*ssspLA > ssspN, bfs: 2*bfsLA > bfsN}
}

// evaluateFold fits the model on train (FitForms with opt.Forms) and
// predicts every graph of test, held out as fold f: its errors go to errs
// by implementation, its answers are scored against the fold's majority
// baseline, its GraphResult appended to ev.Graphs.
func (ev *Evaluation) evaluateFold(f string, train, test []Sample, opt Options, errs map[string][]graphErr) error {
	m, err := FitForms(train, opt.Forms)
	if err != nil {
		return fmt.Errorf("fold %s: %w", f, err)
	}
	base := trainingMajority(train, opt.VertexCentric)
	for _, s := range test {
		pred := m.Times(s.Workload)
		gr := GraphResult{Graph: s.Graph, Fold: f, MeasuredNs: s.TimesNs, PredictedNs: pred}
		for _, impl := range Impls {
			y, ok := s.TimesNs[impl]
			if !ok {
				continue
			}
			errs[impl] = append(errs[impl], graphErr{s.Graph, stats.SignedRelError(pred[impl], y)})
		}
		if rm, ok := bestLAOverWorklist(s.TimesNs); ok {
			rp, _ := bestLAOverWorklist(pred)
			gr.SSSPBestLAOverWorklistMeas, gr.SSSPBestLAOverWorklistPred = rm, rp
			score(&ev.SSSP, s.Graph, rm < 1, rp < 1, base.sssp)
		}
		if v, ok := opt.VertexCentric[s.Graph]; ok && v.MeasuredBestNs > 0 && v.PredictedNs > 0 {
			laPred := math.Min(pred[laout.BFSPush], pred[laout.BFSPull])
			gr.BFSLAOverVCMeas = v.MeasuredLANs / v.MeasuredBestNs
			gr.BFSLAOverVCPred = laPred / v.PredictedNs
			score(&ev.BFS, s.Graph, gr.BFSLAOverVCMeas < 1, gr.BFSLAOverVCPred < 1, base.bfs)
			if v.InSample {
				ev.BFS.Warnings = append(ev.BFS.Warnings, fmt.Sprintf("%s: the vertex-centric prediction is in-sample (the model/predict model of split %q was trained on it; no embedded held-out model left it out)", s.Graph, v.Model))
			}
		}
		ev.Graphs = append(ev.Graphs, gr)
	}
	return nil
}

// implErrors summarises the held-out errors per implementation, in the
// order of Impls: median absolute and signed, and the worst graph.
func implErrors(errs map[string][]graphErr) []ImplError {
	var out []ImplError
	for _, impl := range Impls {
		ge := errs[impl]
		if len(ge) == 0 {
			continue
		}
		ie := ImplError{Impl: impl, Graphs: len(ge)}
		var e, abs []float64
		for _, x := range ge {
			e = append(e, x.e)
			abs = append(abs, math.Abs(x.e))
			if math.Abs(x.e) > ie.WorstAbs {
				ie.WorstAbs, ie.WorstGraph = math.Abs(x.e), x.graph
			}
		}
		ie.MedianAbs, ie.MedianSigned = stats.Median(abs), stats.Median(e)
		out = append(out, ie)
	}
	return out
}

func score(d *Decision, graph string, meas, pred, baseline bool) {
	d.Graphs++
	if meas {
		d.LAFasterMeas++
	}
	if pred == meas {
		d.ModelCorrect++
	} else {
		d.ModelWrong = append(d.ModelWrong, graph)
	}
	if baseline == meas {
		d.BaselineCorrect++
	}
}

// bestLAOverWorklist is the fastest of laout.OptimisedSSSP over
// sssp-worklist in times; ok false when one is missing.
func bestLAOverWorklist(times map[string]float64) (float64, bool) {
	w, ok := times[laout.Worklist]
	if !ok || !(w > 0) {
		return 0, false
	}
	best := math.Inf(1)
	for _, impl := range laout.OptimisedSSSP {
		v, ok := times[impl]
		if !ok {
			return 0, false
		}
		best = math.Min(best, v)
	}
	return best / w, true
}
