package predict

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// EvaluateParams are Evaluate's and EvaluateSaved's options; the zero
// value trains with DefaultGrid and returns the scores only.
type EvaluateParams struct {
	// Grid is what Train compares on each split's validation graphs; nil
	// is DefaultGrid. EvaluateSaved trains nothing and ignores it.
	Grid *Grid
	// External holds outside baselines' scores by split name, then by
	// baseline name (RunBaseline's result); each split's result carries
	// its own.
	External map[string]map[string]Score
	// Diagnose asks for a LevelDiagnosis of every test level of every
	// split (Evaluation.Levels).
	Diagnose bool
	// Points asks for the predicted and measured level times of the
	// first split's test graphs (Evaluation.Points).
	Points bool
	// Bands asks for every split's score per size band of its test graphs
	// (SplitResult.Bands), which ByScale splits and models trained under
	// one have anyway.
	Bands bool
	// Progress, when not nil, is called after each fit with the fits done
	// and the fits of the whole evaluation.
	Progress func(done, total int)
}

// Evaluation is an evaluation of the time model: one result per split, in
// order, and what EvaluateParams asked for besides.
type Evaluation struct {
	Splits []*SplitResult
	// Levels is every test level of every split, split by split, with
	// EvaluateParams.Diagnose.
	Levels []SplitLevel
	// Points are the first split's predicted and measured level times,
	// with EvaluateParams.Points.
	Points *LevelPoints
	// LeftOut is, for EvaluateSaved, how many graphs of the data were left
	// out because the model trained on them.
	LeftOut int
}

// SplitLevel is one test level of a split as Mix-and-Match saw it.
type SplitLevel struct {
	Split string
	LevelDiagnosis
}

// LevelPoints are the predicted and measured times of every (level,
// implementation) of a split's test graphs that has both.
type LevelPoints struct {
	Split               Split
	Predicted, Measured []float64
}

// Evaluate trains and scores the time model on every split in order
// (EvaluateSplit), each beside its outside baselines of p.External. A fit
// takes seconds to minutes; the cost is
// len(splits) × (|targets| × |leaves| × |min leaf| + 1) fits.
func Evaluate(ds *Dataset, splits []Split, p EvaluateParams) (*Evaluation, error) {
	g := DefaultGrid
	if p.Grid != nil {
		g = *p.Grid
	}
	perSplit := len(g.Targets)*len(g.MaxLeaves)*len(g.MinLeaf) + 1
	ev := &Evaluation{}
	for i, s := range splits {
		res, m, err := EvaluateSplit(ds, s, g, func(done, _ int) {
			if p.Progress != nil {
				p.Progress(i*perSplit+done, len(splits)*perSplit)
			}
		})
		if err != nil {
			return nil, err
		}
		res.External = p.External[s.Name]
		ev.Splits = append(ev.Splits, res)
		if err := ev.describe(ds, s, m, p, i == 0); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// describe adds what p asks for of split s, the last of ev.Splits, scored
// with m.
func (ev *Evaluation) describe(ds *Dataset, s Split, m *Model, p EvaluateParams, first bool) error {
	res := ev.Splits[len(ev.Splits)-1]
	if !p.Diagnose && !(p.Points && first) && !(p.Bands && res.Bands == nil) {
		return nil
	}
	test := ds.LevelsOf(s.Test)
	pred := m.PredictDataset(ds, test)
	if p.Bands && res.Bands == nil {
		var err error
		if res.Bands, err = ScoreBands(ds, s.Test, pred, res.Model.BestFixed.Name); err != nil {
			return err
		}
	}
	if p.Diagnose {
		for _, d := range DiagnoseLevels(ds, test, pred) {
			ev.Levels = append(ev.Levels, SplitLevel{s.Name, d})
		}
	}
	if p.Points && first {
		ev.Points = &LevelPoints{Split: s}
		for _, r := range test {
			for j := range ds.K() {
				i := r*ds.K() + j
				if !math.IsNaN(ds.Ns[i]) && !math.IsNaN(pred[i]) {
					ev.Points.Predicted = append(ev.Points.Predicted, pred[i])
					ev.Points.Measured = append(ev.Points.Measured, ds.Ns[i])
				}
			}
		}
	}
	return nil
}

// Unseen returns the graphs of ds that m did not train on (neither among
// its training nor its validation graphs), in ds's order, and how many of
// ds's graphs it did train on.
func Unseen(ds *Dataset, m *Model) (unseen []string, trained int) {
	known := map[string]bool{}
	for _, g := range m.Training.TrainGraphs {
		known[g] = true
	}
	for _, g := range m.Training.ValidationGraphs {
		known[g] = true
	}
	for _, g := range ds.Graphs {
		if known[g] {
			trained++
		} else {
			unseen = append(unseen, g)
		}
	}
	return unseen, trained
}

// EvaluateSaved scores the saved model m on the graphs of ds it did not
// train on (EvaluateModel), as one split named "LABEL: N unseen graphs",
// with its size bands when p.Bands asks or m was trained under a scale
// split.
// The error wraps ErrNothingToScore when no graph of ds is left.
func EvaluateSaved(ds *Dataset, m *Model, label string, p EvaluateParams) (*Evaluation, error) {
	unseen, trained := Unseen(ds, m)
	res, err := evaluateModel(ds, m, fmt.Sprintf("%s: %d unseen graphs", label, len(unseen)), p.Bands)
	if err != nil {
		return nil, err
	}
	res.External = p.External[res.Split.Name]
	ev := &Evaluation{Splits: []*SplitResult{res}, LeftOut: trained}
	if err := ev.describe(ds, res.Split, m, p, true); err != nil {
		return nil, err
	}
	return ev, nil
}

// OnlyFamilies keeps the family splits (ByFamily, named "family-F") of
// the families named, in the order named. A name that no split holds is
// an error listing the data's families.
func OnlyFamilies(ss []Split, families []string) ([]Split, error) {
	byName := map[string]Split{}
	var known []string
	for _, s := range ss {
		f := strings.TrimPrefix(s.Name, "family-")
		byName[f] = s
		known = append(known, f)
	}
	var out []Split
	for _, f := range families {
		s, ok := byName[f]
		if !ok {
			return nil, fmt.Errorf("no family %q (the data's: %s)", f, strings.Join(known, ", "))
		}
		out = append(out, s)
	}
	return out, nil
}

// MaxSeedRange is the most HIGH-LOW ParseSeeds accepts in a range (so a
// range holds at most MaxSeedRange+1 seeds).
const MaxSeedRange = 1000

// ParseSeeds reads the seeds of the graphs split: a range "LOW-HIGH"
// (both included, at most MaxSeedRange+1 of them) or a comma-separated
// list "1,2,5".
func ParseSeeds(s string) ([]uint64, error) {
	if a, b, ok := strings.Cut(s, "-"); ok {
		lo, err1 := strconv.ParseUint(a, 10, 64)
		hi, err2 := strconv.ParseUint(b, 10, 64)
		if err1 != nil || err2 != nil || hi < lo || hi-lo > MaxSeedRange {
			return nil, fmt.Errorf("%q: want a range LOW-HIGH of at most %d seeds", s, MaxSeedRange)
		}
		var out []uint64
		for v := lo; ; v++ { // v <= hi would never end at HIGH = 2^64-1
			out = append(out, v)
			if v == hi {
				return out, nil
			}
		}
	}
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a seed", f)
		}
		out = append(out, v)
	}
	return out, nil
}
