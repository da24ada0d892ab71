package ompredict

import (
	"fmt"
	"os"
	"strconv"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// InputError is an input of a pipeline that could not be used: Input
// names it ("counters", "measured", "levels", "service"), Err says why.
type InputError struct {
	Input string
	Err   error
}

func (e *InputError) Error() string { return e.Input + ": " + e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// RootError is a sweep root that is not a vertex id.
type RootError struct {
	Spec string
}

func (e *RootError) Error() string { return fmt.Sprintf("%q is not a vertex id", e.Spec) }

// OpenMeasured reads the sweep results at path (ReadMeasured) from the
// root rootSpec names, a vertex id; nil and no error for path "". A bad
// root is a *RootError, a bad file an *InputError of "measured". It costs
// one read of the file.
func OpenMeasured(path, rootSpec string) (*Measured, error) {
	if path == "" {
		return nil, nil
	}
	root, err := strconv.ParseUint(rootSpec, 10, 32)
	if err != nil {
		return nil, &RootError{Spec: rootSpec}
	}
	meas, err := ReadMeasured(path, uint32(root))
	if err != nil {
		return nil, &InputError{Input: "measured", Err: err}
	}
	return meas, nil
}

// CountersOptions say what PredictCounters predicts.
type CountersOptions struct {
	// NCU is the ncu CSV (--page raw, one launch per BFS level), Machine
	// the machine predicted on, GPU the prediction's options.
	NCU     string
	Machine *machine.Machine
	GPU     om.GPUOptions
	// Measured is the sweep results file ("" for none) and Root the root
	// it ran from (OpenMeasured). Levels is the level-properties file of
	// the counters' tail phase with Measured: "" for the one beside
	// Measured (Measured.Levels), "none" for none.
	Measured, Root, Levels string
}

// readNCU reads the launches of the ncu CSV at path; an unreadable file is
// an *InputError of "counters".
func readNCU(path string) (launches []om.Counters, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{Input: "counters", Err: err}
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return om.ReadNCU(f, path)
}

// PredictCounters reads o.NCU, the sweep's medians and the level
// properties beside it, and predicts every launch (FromCounters). Errors
// of an input are *InputError ("counters", "measured", "levels") or
// *RootError. It costs a read of each file and one prediction per launch.
func PredictCounters(o CountersOptions) (*Result, error) {
	launches, err := readNCU(o.NCU)
	if err != nil {
		return nil, err
	}
	if len(launches) == 0 {
		return nil, &InputError{Input: "counters", Err: fmt.Errorf("%s has no launches", o.NCU)}
	}
	meas, err := OpenMeasured(o.Measured, o.Root)
	if err != nil {
		return nil, err
	}
	var lv []cost.BFSLevel
	var lvFile string
	if meas != nil && o.Levels != "none" {
		if lv, lvFile, err = meas.Levels(o.Levels); err != nil {
			return nil, &InputError{Input: "levels", Err: err}
		}
	}
	res, err := FromCounters(launches, o.NCU, o.Machine, o.GPU, meas, lv)
	if err != nil {
		return nil, err
	}
	res.LevelsFile = lvFile
	return res, nil
}

// SimulationOptions say what PredictSimulation simulates and predicts.
type SimulationOptions struct {
	// Source names the graph; Load reads it (called after the sweep is
	// read, so that a bad sweep is reported first).
	Source string
	Load   func() (*graph.CSR, error)
	// Kernel is the simulated kernel (warp.ParseKernel), Root the root
	// (props.ParseRoot: an id, "max" or "random" with Seed; the sweep's
	// root with Measured).
	Kernel string
	Root   string
	Seed   uint64
	// Preset is the simulated GPU (gpu.LookupPreset), Machine the machine
	// predicted on, GPU the prediction's options.
	Preset  gpu.Preset
	Machine *machine.Machine
	GPU     om.GPUOptions
	// Measured is the sweep results file, "" for none.
	Measured string
}

// PredictSimulation reads the sweep (OpenMeasured) and the graph,
// simulates o.Kernel from o.Root and predicts every level (FromSimulation).
// A bad root is a *RootError or a *props.RootSpecError. It costs one
// simulated BFS.
func PredictSimulation(o SimulationOptions) (*Result, error) {
	meas, err := OpenMeasured(o.Measured, o.Root)
	if err != nil {
		return nil, err
	}
	g, err := o.Load()
	if err != nil {
		return nil, err
	}
	root, err := props.ParseRoot(g, o.Root, o.Seed)
	if err != nil {
		return nil, err
	}
	cfg := SimulationConfig{Kernel: o.Kernel, Root: root, Preset: o.Preset, Source: o.Source}
	return FromSimulation(g, cfg, o.Machine, o.GPU, meas)
}

// PredictBoth predicts one traversal from its simulation (sim) and from
// its counters (cnt) and lines both up against the sweep per level
// (Compare, seed 000 figure 7). It costs PredictSimulation and
// PredictCounters.
func PredictBoth(sim SimulationOptions, cnt CountersOptions) (*Comparison, error) {
	s, err := PredictSimulation(sim)
	if err != nil {
		return nil, err
	}
	c, err := PredictCounters(cnt)
	if err != nil {
		return nil, err
	}
	return Compare(s, c), nil
}

// AbstractOptions say which round AbstractRound analyses.
type AbstractOptions struct {
	// Source names the graph; Load reads it.
	Source string
	Load   func() (*graph.CSR, error)
	// Root is the root (props.ParseRoot: an id, "max" or "random" with
	// Seed), Round the round LEVEL = K from 1.
	Root  string
	Seed  uint64
	Round int
	// Service are the service times NAME=S,... (om.ParseServiceTimes; 1
	// for every server not named).
	Service string
}

// AbstractRound builds the abstract operator machine of topology-driven
// BFS for o.Round (om.Abstract) and analyses it (AnalyseRound). A bad
// root is a *props.RootSpecError, bad service times an *InputError of
// "service". It costs a load of the graph and a BFS.
func AbstractRound(o AbstractOptions) (*Round, error) {
	g, err := o.Load()
	if err != nil {
		return nil, err
	}
	root, err := props.ParseRoot(g, o.Root, o.Seed)
	if err != nil {
		return nil, err
	}
	m, err := om.Abstract(g, root, o.Round)
	if err != nil {
		return nil, err
	}
	times, err := om.ParseServiceTimes(o.Service, m.Servers)
	if err != nil {
		return nil, &InputError{Input: "service", Err: err}
	}
	return AnalyseRound(m, o.Source, root, o.Round, times)
}
