package main

import (
	"io/fs"
	"sync"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/latime"
)

// laEmbeddedTimed loads the timed runs of the H100 graphperf-la
// measurements of the repository (kernels/measured/h100/la, embedded).
func laEmbeddedTimed() (*la.Result, error) {
	sub, err := fs.Sub(measured.FS(), "la")
	if err != nil {
		return nil, err
	}
	return la.LoadTimed([]la.Source{{Name: measured.Prefix + "la", FS: sub}})
}

// laTimeRuns gives the LinAlg time model (model/latime) the timed runs of
// res: per timing row its times, its graph's total lines and the measured
// vertex-centric comparison (res.CompareVertexCentric) where there is one.
func laTimeRuns(res *la.Result) []latime.Runs {
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
	laTimeOnce  sync.Once
	laTimeModel *latime.Model
	laTimeErr   error
)

// laTimeDefaultModel is the LinAlg time model fitted on every graph of
// the embedded H100 measurements (kernels/measured/h100/la), fitted once
// (it takes milliseconds, so no fitted file is stored). Callers must not
// modify it.
func laTimeDefaultModel() (*latime.Model, error) {
	laTimeOnce.Do(func() {
		res, err := laEmbeddedTimed()
		if err != nil {
			laTimeErr = err
			return
		}
		hubs, err := latime.EmbeddedHubs()
		if err != nil {
			laTimeErr = err
			return
		}
		s, _ := latime.Samples(laTimeRuns(res), hubs)
		laTimeModel, laTimeErr = latime.Fit(s)
	})
	return laTimeModel, laTimeErr
}
