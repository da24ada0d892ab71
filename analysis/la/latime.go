package la

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/latime"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/graph"
)

// EmbeddedTimed loads the timed runs of the H100 graphperf-la
// measurements of the repository (kernels/measured/h100/la, embedded in
// the binary, or read from the checkout in a -tags gpdatadir build).
func EmbeddedTimed() (*Result, error) {
	sub, err := fs.Sub(measured.FS(), "la")
	if err != nil {
		return nil, err
	}
	return LoadTimed([]Source{{Name: measured.Prefix + "la", FS: sub}})
}

// TimeRuns gives the LinAlg time model (model/latime) the timed runs of
// res: per timing row its times, its graph's total lines and the measured
// vertex-centric comparison (res.CompareVertexCentric) where there is one.
func TimeRuns(res *Result) []latime.Runs {
	out := make([]latime.Runs, 0, len(res.Timing))
	for _, row := range res.Timing {
		r := latime.Runs{Graph: row.Graph, N: row.N, M: row.M, Totals: res.Totals(row.Graph), TimesNs: row.TimesNs}
		if v := row.VertexCentric; v != nil {
			r.VertexCentric = &latime.MeasuredVC{Roots: v.Roots, LANs: v.LANs, BestNs: v.BestNs}
		}
		out = append(out, r)
	}
	return out
}

var (
	timeOnce  sync.Once
	timeModel *latime.Model
	timeErr   error
)

// EmbeddedTimeSamples is the LinAlg time model's training and evaluation
// data from the embedded H100 measurements: the timed runs (EmbeddedTimed),
// and latime.Samples of them with the embedded hub file, with its warnings.
func EmbeddedTimeSamples() (*Result, []latime.Sample, []string, error) {
	res, err := EmbeddedTimed()
	if err != nil {
		return nil, nil, nil, err
	}
	hubs, err := latime.EmbeddedHubs()
	if err != nil {
		return nil, nil, nil, err
	}
	s, warns := latime.Samples(TimeRuns(res), hubs)
	return res, s, warns, nil
}

// DefaultTimeModel is the LinAlg time model fitted on every graph of the
// embedded H100 measurements (EmbeddedTimeSamples), fitted once per
// process (it takes milliseconds, so no fitted file is stored). Callers
// must not modify it.
func DefaultTimeModel() (*latime.Model, error) {
	timeOnce.Do(func() {
		_, s, _, err := EmbeddedTimeSamples()
		if err != nil {
			timeErr = err
			return
		}
		timeModel, timeErr = latime.Fit(s)
	})
	return timeModel, timeErr
}

// PredictGraph is "predict la": the LinAlg time model fitted on the
// embedded H100 measurements (DefaultTimeModel) and the default
// vertex-centric BFS model (model/predict) with m's physics, on g from
// root (latime.PredictGraph); name names g in the result.
func PredictGraph(g *graph.CSR, name string, root uint32, m *machine.Machine) (*latime.Prediction, error) {
	tm, err := DefaultTimeModel()
	if err != nil {
		return nil, err
	}
	vc, err := predict.DefaultModel()
	if err != nil {
		return nil, err
	}
	ph, err := predict.NewPhysics(m)
	if err != nil {
		return nil, err
	}
	return latime.PredictGraph(tm, g, name, root, vc, ph)
}

// CorpusGraphs rebuilds the graphs of a corpus by name (kernels.BuildGraph,
// file graphs read from graphsDir); corpusName names the corpus in the
// error for a graph it lacks.
func CorpusGraphs(c *kernels.Corpus, corpusName, graphsDir string) func(name string) (*graph.CSR, error) {
	return func(name string) (*graph.CSR, error) {
		cg, ok := c.Graph(name)
		if !ok {
			return nil, fmt.Errorf("not in %s", corpusName)
		}
		return kernels.BuildGraph(cg, graphsDir)
	}
}

// EmbeddedHubFile is "predict la-hubs": the hub walks of every graph of
// the embedded H100 graphperf-la measurements (EmbeddedTimed), each graph
// rebuilt from corpus c (named corpusPath in the file, with slashes; file
// graphs read from graphsDir). A rebuilt graph of another size than the
// measured one is an error. It costs a rebuild and a BFS per measured
// root of every graph (latime.ComputeHubFile).
func EmbeddedHubFile(c *kernels.Corpus, corpusPath, graphsDir string) (*latime.HubFile, error) {
	res, err := EmbeddedTimed()
	if err != nil {
		return nil, err
	}
	hf, err := latime.ComputeHubFile(fmt.Sprint(res.Sources), TimeRuns(res), CorpusGraphs(c, corpusPath, graphsDir))
	if err != nil {
		return nil, err
	}
	hf.Corpus = filepath.ToSlash(corpusPath)
	hf.Source = "embedded:la (kernels/measured/h100/la)"
	return hf, nil
}

// TimeEvalOptions are EvaluateTimeModel's choices; the zero value folds
// by graph, lets the fit choose among every form and skips the BFS
// question.
type TimeEvalOptions struct {
	Folding latime.Folding
	Forms   []latime.Form
	// Graphs rebuilds a measured graph by name (CorpusGraphs) for the BFS
	// question's vertex-centric predictions; nil skips the question.
	Graphs func(name string) (*graph.CSR, error)
	// Machine gives the vertex-centric model its physics; with Graphs.
	Machine *machine.Machine
}

// TimeEvaluation is "predict la-evaluate": the held-out evaluation of the
// LinAlg time model on the embedded H100 measurements, with the warnings
// of its data (hub walks, the vertex-centric comparison).
type TimeEvaluation struct {
	*latime.Evaluation
	Warnings []string `json:"warnings,omitempty"`
	// Samples is the number of graphs evaluated.
	Samples int `json:"-"`
}

// EvaluateTimeModel evaluates the LinAlg time model on the embedded H100
// measurements (EmbeddedTimeSamples, latime.Evaluate): every fold held out
// of the fit in turn. With opt.Graphs, the BFS question is answered on the
// graphs where the embedded H100 BFS dataset measured the vertex-centric
// side (ReadVertexCentric), each graph's vertex-centric prediction from the
// embedded held-out model that never saw it where one exists (split real,
// then graphs), else the default model (flagged in-sample).
func EvaluateTimeModel(opt TimeEvalOptions) (*TimeEvaluation, error) {
	res, samples, warns, err := EmbeddedTimeSamples()
	if err != nil {
		return nil, err
	}
	var vc map[string]latime.VertexCentric
	if opt.Graphs != nil {
		var w []string
		vc, w, err = vertexCentricSide(res, opt.Graphs, opt.Machine)
		if err != nil {
			return nil, err
		}
		warns = append(warns, w...)
	}
	ev, err := latime.Evaluate(samples, latime.Options{Folding: opt.Folding, Forms: opt.Forms, VertexCentric: vc})
	if err != nil {
		return nil, err
	}
	return &TimeEvaluation{Evaluation: ev, Warnings: warns, Samples: len(samples)}, nil
}

// vertexCentricSide is the BFS question's vertex-centric side of
// EvaluateTimeModel: res compared with the embedded BFS dataset, then
// latime.VertexCentricSide with the held-out and default models; its
// warnings are res's (after the comparison) and the side's.
func vertexCentricSide(res *Result, build func(string) (*graph.CSR, error), m *machine.Machine) (map[string]latime.VertexCentric, []string, error) {
	vcTotals, err := ReadVertexCentric(measured.FS(), res.TimedGraphs())
	if err != nil {
		return nil, nil, err
	}
	res.CompareVertexCentric(vcTotals)
	warns := append([]string(nil), res.Warnings...)
	var models latime.VCModels
	for _, split := range []string{"real", "graphs"} {
		hm, err := predict.HeldOutModel(split)
		if err != nil {
			return nil, nil, err
		}
		models = append(models, hm)
	}
	def, err := predict.DefaultModel()
	if err != nil {
		return nil, nil, err
	}
	models = append(models, def)
	if m == nil {
		return nil, nil, fmt.Errorf("la: the BFS question needs a machine")
	}
	ph, err := predict.NewPhysics(m)
	if err != nil {
		return nil, nil, err
	}
	vc, w, err := latime.VertexCentricSide(TimeRuns(res), build, models, ph)
	if err != nil {
		return nil, nil, err
	}
	return vc, append(warns, w...), nil
}
