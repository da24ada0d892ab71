package dist

import (
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/graph"
)

// MaxScale is the largest Graph500 scale the studies build (2^31 vertices
// still fit a uint32 vertex id).
const MaxScale = 31

// MaxIDBytes is the largest vertex id size, in bytes, the model takes.
const MaxIDBytes = 64

// InputError is an error of one input of a study, named as the option
// that gives it ("root", "alltoall", "machine", "calibrate",
// "predictions"), so that a command can name its flag.
type InputError struct {
	Input string
	Err   error
}

func (e *InputError) Error() string { return e.Input + ": " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// inputError wraps err, when not nil, as an *InputError of input.
func inputError(input string, err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Input: input, Err: err}
}

// CheckScales checks that every Graph500 scale of scales is in
// 1..MaxScale; the error names the first that is not.
func CheckScales(scales []int) error {
	for _, s := range scales {
		if s < 1 || s > MaxScale {
			return fmt.Errorf("%d: want 1..%d", s, MaxScale)
		}
	}
	return nil
}

// TimeSources are where a prediction's times come from: a measured
// all-to-all, and for the kernel time a machine's bandwidth bound or a fit
// on calibration runs. The zero value gives volumes only.
type TimeSources struct {
	// AllToAll is the measured all-to-all file (LoadAllToAll); empty: no
	// times, and the other fields are not read.
	AllToAll string
	// Machine is an embedded machine name or a YAML file (machine.Open).
	Machine string
	// Calibrate are run directories whose levels give the kernel time
	// (CalibrateKernel) instead of Machine's bandwidth bound.
	Calibrate []string
}

// Load returns opt with the time sources loaded: the all-to-all, then the
// machine, then, with Calibrate, the fitted kernel in place of the
// machine. Errors are *InputError naming "alltoall", "machine" or
// "calibrate". It reads the files and the calibration runs once.
func (s TimeSources) Load(opt Options) (Options, error) {
	if s.AllToAll == "" {
		return opt, nil
	}
	var err error
	if opt.AllToAll, err = LoadAllToAll(s.AllToAll); err != nil {
		return Options{}, inputError("alltoall", err)
	}
	if opt.Machine, err = machine.Open(s.Machine); err != nil {
		return Options{}, inputError("machine", err)
	}
	if len(s.Calibrate) > 0 {
		k, err := CalibrateKernel(s.Calibrate)
		if err != nil {
			return Options{}, inputError("calibrate", err)
		}
		opt.Kernel, opt.Machine = &k, nil
	}
	return opt, nil
}

// PredictFrom is Predict from the root of rule (PickRoot with seed): the
// prediction of "graphperf model dist GRAPH". A bad rule is an
// *InputError naming "root". It costs one traversal of g.
func PredictFrom(g *graph.CSR, rule string, seed uint64, P int, opt Options) (*Prediction, *Volumes, error) {
	root, err := PickRoot(g, rule, seed)
	if err != nil {
		return nil, nil, inputError("root", err)
	}
	return Predict(g, root, P, opt)
}

// BytesSeries is the bytes sent per level of v without and with
// sort-unique (BytesPerLevel), as the bars of a figure: one label per
// level, and NaN where nothing is sent (no bar on a log axis). ok is false
// when nothing crosses a process boundary (one process): there is nothing
// to draw. O(levels × P²).
func BytesSeries(v *Volumes, idBytes int) (levels []int, raw, unique []float64, ok bool) {
	r, u := BytesPerLevel(v, idBytes)
	var sent int64
	for _, b := range r {
		sent += b
	}
	if sent == 0 {
		return nil, nil, nil, false
	}
	levels = make([]int, len(v.Levels))
	raw, unique = make([]float64, len(v.Levels)), make([]float64, len(v.Levels))
	bar := func(b int64) float64 {
		if b <= 0 {
			return math.NaN()
		}
		return float64(b)
	}
	for i := range v.Levels {
		levels[i] = v.Levels[i].Level
		raw[i], unique[i] = bar(r[i]), bar(u[i])
	}
	return levels, raw, unique, true
}

// NotTraversedError is a process count asked for predictions that the
// traversals do not make.
type NotTraversedError struct{ Procs int }

func (e *NotTraversedError) Error() string {
	return fmt.Sprintf("%d processes: not one of the traversed process counts", e.Procs)
}

// TableOptions are the inputs of WeakScalingStudy.
type TableOptions struct {
	Scales   []int  // Graph500 scales (CheckScales)
	Procs    []int  // process counts traversed
	Levels   []int  // levels tabulated, as Table takes them (-1: the peak)
	RootRule string // PickRoot's rule, seed 1
	// PredictProcs, when not nil, are the process counts whose per-pair
	// volumes the study keeps (Predicted); each must be one of Procs.
	PredictProcs []int
	// Done, when not nil, is called with each run as it completes.
	Done func(*Run)
}

// TableStudy is seed 003's weak-scaling table of "graphperf model dist
// table", and the runs restricted to TableOptions.PredictProcs (nil
// without them), for WritePredictions.
type TableStudy struct {
	*WeakScaling
	Predicted []*Run
}

// WeakScalingStudy builds and traverses Graph500 of every scale
// (RunGraph500s), tabulates the levels (NewWeakScaling) and keeps the
// runs of the predicted process counts. A predicted count that is not
// traversed is a *NotTraversedError, found before anything is built. It
// costs one generation and one traversal per scale (about 9 GB at SCALE
// 26).
func WeakScalingStudy(opt TableOptions) (*TableStudy, error) {
	for _, p := range opt.PredictProcs {
		if !slices.Contains(opt.Procs, p) {
			return nil, &NotTraversedError{Procs: p}
		}
	}
	runs, err := RunGraph500s(opt.Scales, opt.Procs, opt.RootRule, opt.Done)
	if err != nil {
		return nil, err
	}
	st := &TableStudy{WeakScaling: NewWeakScaling(runs, opt.Levels)}
	if opt.PredictProcs != nil {
		st.Predicted = SubsetRuns(runs, opt.PredictProcs)
	}
	return st, nil
}

// RunCheck is CheckRun's result: the graph line of the predictions and
// the comparison.
type RunCheck struct {
	Graph  PredictedGraph
	Result CheckResult
}

// CheckRun compares the dist_bfs.cu run in dir with the predictions file
// of its graph ("graphperf model dist check"): Check of ReadRun(dir)
// against ReadPredictions(predictions), unique counts with sortUnique,
// raw without. A predictions file that cannot be opened, or that holds
// other than one graph, is an *InputError naming "predictions"; its
// parse errors are prefixed with its path. It reads both once.
func CheckRun(predictions, dir string, sortUnique bool) (*RunCheck, error) {
	f, err := os.Open(predictions)
	if err != nil {
		return nil, inputError("predictions", err)
	}
	graphs, pairs, err := ReadPredictions(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s:%w", predictions, err)
	}
	if len(graphs) != 1 {
		return nil, inputError("predictions", fmt.Errorf("%s holds %d graphs, want one", predictions, len(graphs)))
	}
	levels, total, err := ReadRun(dir)
	if err != nil {
		return nil, err
	}
	return &RunCheck{Graph: graphs[0], Result: Check(levels, total, graphs[0], pairs, sortUnique)}, nil
}

// Failure is nil when the run passed (Passed), else the error that says
// how the run in dir differs from the predictions.
func (c CheckResult) Failure(dir string) error {
	if c.Passed() {
		return nil
	}
	return fmt.Errorf("%s: the run differs from the predictions (%d of %d messages equal, hash equal %v)", dir, c.Equal, c.Messages, c.HashEqual)
}

// TimesOptions are the inputs of Times.
type TimesOptions struct {
	// AllToAll and Machine are Options' (Machine is not read with
	// Calibrate).
	AllToAll *AllToAll
	Machine  *machine.Machine
	Runs     []string // run directories scored
	// Calibrate are run directories the kernel time is fitted on
	// (never scored); none: Machine's bandwidth bound.
	Calibrate []string
	MinScale  int // the summary's SCALE threshold
}

// Times reads the scored runs, then the calibration runs, and scores them
// (CheckTimes): "graphperf model dist times". A calibration run that
// cannot be read is an *InputError naming "calibrate". It reads every run
// once.
func Times(opt TimesOptions) (TimeReport, error) {
	runs, err := ReadRunsData(opt.Runs)
	if err != nil {
		return TimeReport{}, err
	}
	var calib []*RunData
	if len(opt.Calibrate) > 0 {
		if calib, err = ReadRunsData(opt.Calibrate); err != nil {
			return TimeReport{}, inputError("calibrate", err)
		}
	}
	mopt := Options{AllToAll: opt.AllToAll}
	if len(opt.Calibrate) == 0 {
		mopt.Machine = opt.Machine
	}
	return CheckTimes(runs, calib, mopt, opt.MinScale)
}

// SeedProcs is the process count of seed 003's network pattern
// (SeedMessages: SCALE 20, N_P = 4).
const SeedProcs = 4

// Graph500Pattern builds Graph500 scale (generator seed 1), traverses it
// from rootRule's root on SeedProcs processes and lists its sort-unique
// messages at idBytes per vertex beside the seed's (SeedPattern): "graphperf
// model dist messages". It costs one generation and one traversal.
func Graph500Pattern(scale, idBytes int, rootRule string) (*Messages, error) {
	run, err := RunGraph500(scale, []int{SeedProcs}, rootRule)
	if err != nil {
		return nil, err
	}
	return SeedPattern(run, idBytes), nil
}
