package mixmatch

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/catalog"
)

// Issue 15's targets for the switching BFS.
const (
	// TargetTotal bounds the switch's measured Total (the sum of its
	// times over the sum of the per-level optima).
	TargetTotal = 1.15
	// TargetWithin is the share of inputs whose measured switch total must
	// be within WithinTolerance of the offline Mix-and-Match.
	TargetWithin    = 0.80
	WithinTolerance = 0.10
	// TargetBeatsDOBFS is the share of inputs where the switch must be
	// faster than dobfs (it must also be faster in Total).
	TargetBeatsDOBFS = 0.75
)

// Input is one switch measurement (a graph from one root) beside its
// references. Times are medians over the timed repetitions, in ns.
type Input struct {
	aggregate.Input
	Levels int
	// SwitchNs is the switch's measured total (kernels plus conversions),
	// KernelNs and ConvertNs its parts; Conversions the levels with a
	// conversion, Switches the levels whose implementation is not the
	// previous level's.
	SwitchNs, KernelNs, ConvertNs float64
	Conversions, Switches         int
	// OwnDOBFSNs is dobfs measured in the same runner call.
	OwnDOBFSNs float64
	// Picks is the implementation the switch ran at each level.
	Picks []string
	// SameCallNs is the offline Mix-and-Match of the same runner call:
	// the sum over levels of the level time of the pick, run alone in the
	// switch's call (WithSameCall); 0 when the call did not run them.
	SameCallNs float64
	// PredictedNs is the model's predicted Mix-and-Match total (the sum of
	// its picks' predicted times); 0 when the manifest has none.
	PredictedNs float64
	// OfflineNs is the offline Mix-and-Match: the sum over levels of the
	// reference dataset's measured level time of the implementation the
	// switch ran there ("predict evaluate"'s Mix-and-Match).
	OfflineNs float64
	// ConvertPredictedNs is the predicted time of the conversions those
	// picks need (predict.Physics.ConversionNs); 0 when not given.
	ConvertPredictedNs float64
	// OptimumNs is the reference dataset's per-level optimum (the sum over
	// levels of the fastest implementation's level time), BestImpl and
	// BestNs its fastest single implementation, DOBFSNs its dobfs.
	OptimumNs float64
	BestImpl  string
	BestNs    float64
	DOBFSNs   float64
}

// Ratio is one aggregate row: a strategy's summed time over the summed
// per-level optima (seed 004 line 1074, as aggregate.Row's Total), and the
// mean and largest per-input ratio.
type Ratio struct {
	Name      string  `json:"name"`
	TimeNs    float64 `json:"time_ns"`
	OptimalNs float64 `json:"optimal_ns"`
	Total     float64 `json:"total"`
	Avg       float64 `json:"avg"`
	Worst     float64 `json:"worst"`
}

// Report compares the switch with its references over the inputs that
// have all of them.
type Report struct {
	Inputs []Input
	// Rows: the switch measured, the offline Mix-and-Match, (when
	// Compare was given predicted conversions) the offline Mix-and-Match
	// plus them, the best non-switching implementation, dobfs of the
	// dataset, and dobfs of the switch's own runner call, each against the
	// per-level optimum.
	Rows []Ratio
	// WithinOffline is the share of inputs whose switch total is within
	// WithinTolerance of the offline Mix-and-Match; BeatsDOBFS the share
	// where the switch is faster than its own call's dobfs, and
	// DOBFSTotal the switch's summed time over that dobfs's.
	WithinOffline, BeatsDOBFS, DOBFSTotal float64
	// ConvertShare is the conversions' share of the switch's summed
	// time; SwitchesPerInput and ConversionsPerInput means over inputs.
	ConvertShare, SwitchesPerInput, ConversionsPerInput float64
	// PredictedOverMeasured is the summed predicted Mix-and-Match over the
	// summed measured switch (inputs with a prediction).
	PredictedOverMeasured float64
	// WithinSameCall is the share of inputs whose switch total is within
	// WithinTolerance of the same call's offline Mix-and-Match (set by
	// WithSameCall; nil without the same call's runs).
	WithinSameCall *float64
	// WithinSameCallMet says whether WithinSameCall reaches TargetWithin
	// (the per-input target judged against the switch's own call; false
	// without it).
	WithinSameCallMet bool
	// Met says whether each of issue 15's targets is met.
	TotalMet, WithinMet, BeatsDOBFSMet bool
	Warnings                           []string
	withConvert                        bool // Compare was given predicted conversions
}

// Compare builds the report from a switch measurement's totals (those of
// impl switch and dobfs, validated), the predicted totals by input, the
// predicted conversion times by input (PredictedConversions; nil for
// none), and
// the reference dataset's runs of the same graphs and roots. An input
// without a dobfs run, or without reference runs with level times, or
// whose switch ran another number of levels than the references, is left
// out with a warning. ErrNoInputs when none is left.
func Compare(totals []kernels.Total, predicted, convert map[aggregate.Input]float64, ref []aggregate.Run) (*Report, error) {
	rep := &Report{withConvert: convert != nil}
	own := map[aggregate.Input]float64{}
	var switches []kernels.Total
	for _, t := range totals {
		in := aggregate.Input{Graph: strings.TrimSuffix(t.Graph, ".gpg"), Root: t.Root}
		switch t.Impl {
		case kernels.ImplSwitch:
			switches = append(switches, t)
		case kernels.ImplDOBFS:
			own[in] = t.MedianNs
		}
	}
	byInput := map[aggregate.Input]map[string]aggregate.Run{}
	var kept []aggregate.Run
	for _, r := range ref {
		if r.Impl == kernels.ImplSwitch {
			continue
		}
		m := byInput[r.Input]
		if m == nil {
			m = map[string]aggregate.Run{}
			byInput[r.Input] = m
		}
		m[r.Impl] = r
		kept = append(kept, r)
	}
	optima := map[aggregate.Input]aggregate.Optimum{}
	if len(kept) > 0 {
		tab, err := aggregate.Summarize(kept, aggregate.AgainstLevels)
		if err != nil {
			return nil, err
		}
		for _, o := range tab.Optima {
			optima[o.Input] = o
		}
	}
	for _, t := range switches {
		in := aggregate.Input{Graph: strings.TrimSuffix(t.Graph, ".gpg"), Root: t.Root}
		x := Input{Input: in, Levels: len(t.SwitchImpls), Picks: t.SwitchImpls, SwitchNs: t.MedianNs, KernelNs: t.KernelMedianNs,
			ConvertNs: t.ConvertMedianNs, Conversions: t.Conversions, PredictedNs: predicted[in],
			ConvertPredictedNs: convert[in]}
		for L := 1; L < len(t.SwitchImpls); L++ {
			if t.SwitchImpls[L] != t.SwitchImpls[L-1] {
				x.Switches++
			}
		}
		var ok bool
		if x.OwnDOBFSNs, ok = own[in]; !ok {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: no dobfs run in the switch's call; left out", in))
			continue
		}
		o, ok := optima[in]
		runs := byInput[in]
		if !ok || len(o.LevelImpls) == 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: no reference runs with level times; left out", in))
			continue
		}
		if len(o.LevelImpls) != x.Levels {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: the switch ran %d levels, the reference %d; left out", in, x.Levels, len(o.LevelImpls)))
			continue
		}
		x.OptimumNs, x.BestImpl, x.BestNs = o.Ns, o.BestImpl, o.BestNs
		x.DOBFSNs = runs[kernels.ImplDOBFS].TotalNs
		offline := 0.0
		for L, impl := range t.SwitchImpls {
			r, ok := runs[impl]
			if !ok || len(r.LevelNs) != x.Levels {
				offline = math.NaN()
				break
			}
			offline += r.LevelNs[L]
		}
		if math.IsNaN(offline) || x.DOBFSNs == 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: the reference lacks the level times of an implementation the switch ran, or dobfs; left out", in))
			continue
		}
		x.OfflineNs = offline
		rep.Inputs = append(rep.Inputs, x)
	}
	if len(rep.Inputs) == 0 {
		return nil, ErrNoInputs
	}
	sort.Slice(rep.Inputs, func(i, j int) bool {
		a, b := rep.Inputs[i], rep.Inputs[j]
		if a.Graph != b.Graph {
			return a.Graph < b.Graph
		}
		return a.Root < b.Root
	})
	rep.summarise()
	return rep, nil
}

// ErrNoInputs is returned when no input has a switch run and all its
// references.
var ErrNoInputs = errors.New("mixmatch: no input with a switch run and its references")

// Row names of Report.Rows.
const (
	RowSwitch      = "switch (measured)"
	RowOffline     = "Mix-and-Match offline (model's picks, dataset times)"
	RowBest        = "best non-switching"
	RowDOBFS       = "dobfs (dataset)"
	RowOwnDOBFS    = "dobfs (same call)"
	RowPredicted   = "Mix-and-Match predicted (model's times)"
	RowOfflineConv = "offline Mix-and-Match + conversions (predicted)"
	RowSameCall    = "Mix-and-Match offline (picks run alone in the switch's call)"
)

// WithSameCall adds the offline Mix-and-Match of the switch's own runner
// call (Input.SameCallNs, row RowSameCall after the offline row, and
// WithinSameCall) from runs, the implementations that call ran alone
// (Measurement.SameCall). It adds them only when every input has all its
// picks' level times there; otherwise it says how many lack them and adds
// nothing (the offline sum of a subset would not compare). O(inputs ·
// levels).
func (rep *Report) WithSameCall(runs []aggregate.Run) {
	if len(runs) == 0 {
		return
	}
	type key struct {
		in   aggregate.Input
		impl string
	}
	byKey := map[key]aggregate.Run{}
	for _, r := range runs {
		byKey[key{r.Input, r.Impl}] = r
	}
	missing := 0
	sums := make([]float64, len(rep.Inputs))
	for i, x := range rep.Inputs {
		for L, impl := range x.Picks {
			r, ok := byKey[key{x.Input, impl}]
			if !ok || len(r.LevelNs) != len(x.Picks) {
				sums[i] = math.NaN()
				break
			}
			sums[i] += r.LevelNs[L]
		}
		if math.IsNaN(sums[i]) {
			missing++
		}
	}
	if missing > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d of %d inputs lack their picks' runs in the switch's own call: no same-call offline row", missing, len(rep.Inputs)))
		return
	}
	within := 0
	for i := range rep.Inputs {
		rep.Inputs[i].SameCallNs = sums[i]
		if stats.Within(rep.Inputs[i].SwitchNs, sums[i], WithinTolerance) {
			within++
		}
	}
	share := float64(within) / float64(len(rep.Inputs))
	rep.WithinSameCall = &share
	rep.WithinSameCallMet = share >= TargetWithin
	row := Ratio{Name: RowSameCall}
	for _, x := range rep.Inputs {
		row.TimeNs += x.SameCallNs
		row.OptimalNs += x.OptimumNs
		q := x.SameCallNs / x.OptimumNs
		row.Avg += q
		row.Worst = math.Max(row.Worst, q)
	}
	row.Total = row.TimeNs / row.OptimalNs
	row.Avg /= float64(len(rep.Inputs))
	at := slices.IndexFunc(rep.Rows, func(r Ratio) bool { return r.Name == RowOffline }) + 1
	rep.Rows = slices.Insert(rep.Rows, at, row)
}

func (rep *Report) summarise() {
	ratio := func(name string, f func(Input) float64) Ratio {
		r := Ratio{Name: name}
		for _, x := range rep.Inputs {
			t := f(x)
			r.TimeNs += t
			r.OptimalNs += x.OptimumNs
			q := t / x.OptimumNs
			r.Avg += q
			r.Worst = math.Max(r.Worst, q)
		}
		r.Total = r.TimeNs / r.OptimalNs
		r.Avg /= float64(len(rep.Inputs))
		return r
	}
	rep.Rows = []Ratio{
		ratio(RowSwitch, func(x Input) float64 { return x.SwitchNs }),
		ratio(RowOffline, func(x Input) float64 { return x.OfflineNs }),
		ratio(RowBest, func(x Input) float64 { return x.BestNs }),
		ratio(RowDOBFS, func(x Input) float64 { return x.DOBFSNs }),
		ratio(RowOwnDOBFS, func(x Input) float64 { return x.OwnDOBFSNs }),
	}
	if rep.withConvert {
		rep.Rows = slices.Insert(rep.Rows, 2, ratio(RowOfflineConv, func(x Input) float64 { return x.OfflineNs + x.ConvertPredictedNs }))
	}
	n := float64(len(rep.Inputs))
	var within, beats, sw, dob, conv, switches, conversions, pred, predSw float64
	for _, x := range rep.Inputs {
		if stats.Within(x.SwitchNs, x.OfflineNs, WithinTolerance) {
			within++
		}
		if x.SwitchNs < x.OwnDOBFSNs {
			beats++
		}
		sw += x.SwitchNs
		dob += x.OwnDOBFSNs
		conv += x.ConvertNs
		switches += float64(x.Switches)
		conversions += float64(x.Conversions)
		if x.PredictedNs > 0 {
			pred += x.PredictedNs
			predSw += x.SwitchNs
		}
	}
	rep.WithinOffline, rep.BeatsDOBFS, rep.DOBFSTotal = within/n, beats/n, sw/dob
	rep.ConvertShare, rep.SwitchesPerInput, rep.ConversionsPerInput = conv/sw, switches/n, conversions/n
	if predSw > 0 {
		rep.PredictedOverMeasured = pred / predSw
	}
	rep.TotalMet = rep.Rows[0].Total <= TargetTotal
	rep.WithinMet = rep.WithinOffline >= TargetWithin
	rep.BeatsDOBFSMet = rep.BeatsDOBFS >= TargetBeatsDOBFS && rep.DOBFSTotal < 1
}

// Platform returns the embedded dataset of a GPU name: h100 for "NVIDIA
// H100 80GB HBM3", h200 for "NVIDIA H200".
func Platform(device string) (string, error) {
	d := strings.ToUpper(device)
	switch {
	case strings.Contains(d, "H100"):
		return "h100", nil
	case strings.Contains(d, "H200"):
		return "h200", nil
	}
	return "", fmt.Errorf("mixmatch: no embedded dataset for the GPU %q (give the dataset's directory)", device)
}

// Measurement is a switch results directory as LoadDir reads it: the
// validated totals, the predicted totals by input, the GPU's name and the
// graphs.
type Measurement struct {
	Dir    string
	Device string
	Graphs []string
	Totals []kernels.Total
	// SwitchLevels are the switch's level lines (its picks, frontier
	// forms and conversions).
	SwitchLevels []kernels.Level
	// SameCall are the runs of the implementations the switch's call also
	// ran alone (kernels.SwitchCallImpls; switch and dobfs excluded), with
	// their level times: empty for a measurement made before they were.
	SameCall  []aggregate.Run
	Predicted map[aggregate.Input]float64
	Warnings  []string
}

// PredictedConversions is, per input, the predicted time of the
// conversions the switch's level lines record (its picks' frontier forms,
// catalog.SwitchConversions), each ph.ConversionNs.
func PredictedConversions(levels []kernels.Level, ph predict.Physics) map[aggregate.Input]float64 {
	out := map[aggregate.Input]float64{}
	for _, l := range levels {
		if l.Impl != kernels.ImplSwitch || l.Convert == catalog.ConvNone || l.Convert == "" {
			continue
		}
		in := aggregate.Input{Graph: strings.TrimSuffix(l.Graph, ".gpg"), Root: l.Root}
		out[in] += ph.ConversionNs(l.Convert, l.N, l.Frontier)
	}
	return out
}

// LoadDir reads a "graphperf bench switch" results directory: its
// manifest and every graph's NAME.switch.jsonl.gz. A graph the manifest
// does not mark validated is left out, with a warning.
func LoadDir(dir string) (*Measurement, error) {
	data, err := os.ReadFile(filepath.Join(dir, kernels.ManifestName))
	if err != nil {
		return nil, fmt.Errorf("mixmatch: %w", err)
	}
	var man kernels.Manifest
	if err := json.Unmarshal(data, &man); err != nil {
		return nil, fmt.Errorf("mixmatch: %s: %w", filepath.Join(dir, kernels.ManifestName), err)
	}
	m := &Measurement{Dir: dir, Predicted: map[aggregate.Input]float64{}}
	for _, r := range man.Runs {
		if m.Device == "" && r.Device != nil {
			m.Device = r.Device.Name
		}
	}
	for _, rec := range man.Graphs {
		if rec.Algorithm != kernels.AlgorithmSwitch {
			continue
		}
		if !rec.Validated {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s: not validated (%s); left out", rec.Name, strings.Join(rec.Problems, "; ")))
			continue
		}
		res, err := kernels.ReadFile(filepath.Join(dir, rec.Results))
		if err != nil {
			return nil, err
		}
		m.Graphs = append(m.Graphs, rec.Name)
		m.Totals = append(m.Totals, res.Totals...)
		if runs, _, err := aggregate.FromResults(res); err == nil {
			for _, r := range runs {
				if r.Impl != kernels.ImplSwitch && r.Impl != kernels.ImplDOBFS {
					m.SameCall = append(m.SameCall, r)
				}
			}
		}
		for _, l := range res.Levels {
			if l.Impl == kernels.ImplSwitch {
				m.SwitchLevels = append(m.SwitchLevels, l)
			}
		}
		if rec.Switch != nil && len(rec.Switch.PredictedNs) == len(rec.Roots) {
			for i, r := range rec.Roots {
				m.Predicted[aggregate.Input{Graph: rec.Name, Root: r}] = rec.Switch.PredictedNs[i]
			}
		}
		if m.Device == "" && res.Device != nil {
			m.Device = res.Device.Name
		}
	}
	return m, nil
}

// ReferenceRuns reads the BFS runs of graphs from a dataset (NAME.jsonl.gz
// in fsys, as a sweep's results directory holds them), through
// aggregate.FromResults. A graph the dataset lacks gives a warning.
func ReferenceRuns(fsys fs.FS, graphs []string) ([]aggregate.Run, []string, error) {
	var runs []aggregate.Run
	var warnings []string
	for _, g := range graphs {
		name := g + kernels.ResultsSuffix
		f, err := fsys.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			warnings = append(warnings, fmt.Sprintf("%s: the reference dataset has no %s", g, name))
			continue
		} else if err != nil {
			return nil, nil, err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		res, err := kernels.Parse(zr, name)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		rs, _, err := aggregate.FromResults(res)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		runs = append(runs, rs...)
	}
	return runs, warnings, nil
}
