package la

import (
	"io/fs"
	"sync"

	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/latime"
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
