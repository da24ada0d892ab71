package predict

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/workload/cost"
)

// LevelSource returns the level properties (cost.BFSLevels) of a BFS of a
// measured graph from root: from a precomputed file, or by building the
// graph.
type LevelSource func(graph string, root int64) ([]cost.BFSLevel, error)

// Dataset is a measured dataset laid out for the time model: one row per
// (BFS level, implementation), level-major. Row r*K+j is level row r
// (Levels[r]) of kernel j, K = len(Kernels).
type Dataset struct {
	Kernels []Kernel
	// Levels are the level rows of split.Rows (graph, root, level order),
	// with every implementation's measured time in LevelNs: what
	// Mix-and-Match is scored with.
	Levels []split.Row
	// X holds the features (FeatureNames) of every row, row-major.
	X []float64
	// Base is every row's physical base time in ns.
	Base []float64
	// Ns is every row's measured median time in ns; NaN where the
	// implementation has no time at that level.
	Ns []float64
	// Graphs are the graph names, sorted; Real marks the graphs loaded from
	// a file (the SNAP graphs) rather than generated.
	Graphs []string
	Real   map[string]bool
	// Traversal holds, per level row, what the switching BFS's conversions
	// depend on (SwitchCost): the graph's vertices, the frontier and
	// dobfs's direction by the runner's rule. Physics is the machine's.
	Traversal []LevelTraversal
	Physics   Physics
	// Data is what the dataset was built from (MixAndMatch's optimum needs
	// its runs).
	Data     *split.Data
	Warnings []string
}

// NewDataset lays out d for the model: the level rows of split.Rows, each
// joined with its level properties from levels (whose frontier must be the
// one the runner measured at that level), and every implementation's
// features there. Graphs without properties or level properties are left
// out with a warning. O(rows x kernels x features).
func NewDataset(d *split.Data, levels LevelSource, ph Physics) (*Dataset, error) {
	rows, impls, warnings, err := split.Rows(d, split.WeightNone)
	if err != nil {
		return nil, err
	}
	ks, err := ParseKernels(impls)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Kernels: ks, Real: map[string]bool{}, Data: d, Warnings: warnings, Physics: ph}
	for g := range d.Real {
		ds.Real[g] = true
	}
	nf := len(FeatureNames)
	// At most every row is kept: one allocation instead of doublings of a
	// slice that reaches hundreds of megabytes on the embedded dataset.
	ds.X = make([]float64, 0, len(rows)*len(ks)*nf)
	ds.Base = make([]float64, 0, len(rows)*len(ks))
	ds.Ns = make([]float64, 0, len(rows)*len(ks))
	graphs := map[string]bool{}
	for start := 0; start < len(rows); {
		end := start
		for end < len(rows) && rows[end].Graph == rows[start].Graph && rows[end].Root == rows[start].Root {
			end++
		}
		in := rows[start:end]
		start = end
		g := in[0].Graph
		lv, err := levels(g, in[0].Root)
		if err != nil {
			ds.Warnings = append(ds.Warnings, fmt.Sprintf("%s root %d: %v; left out", g, in[0].Root, err))
			continue
		}
		p, ok := d.Props[g]
		if !ok {
			ds.Warnings = append(ds.Warnings, fmt.Sprintf("%s: no graph properties; left out", g))
			continue
		}
		if err := sameFrontiers(g, in, lv); err != nil {
			return nil, err
		}
		gr := &Graph{Name: g, Props: p}
		x, base := Features(gr, lv[:len(in)], ks, ph)
		ds.X = append(ds.X, x...)
		ds.Base = append(ds.Base, base...)
		for _, r := range in {
			for _, k := range ks {
				ns, ok := r.LevelNs[k.Name]
				if !ok || ns <= 0 || math.IsInf(ns, 0) || math.IsNaN(ns) {
					ns = math.NaN()
				}
				ds.Ns = append(ds.Ns, ns)
			}
		}
		ds.Levels = append(ds.Levels, in...)
		ds.Traversal = append(ds.Traversal, Traversal(lv)[:len(in)]...)
		graphs[g] = true
	}
	if len(ds.Levels) == 0 {
		return nil, fmt.Errorf("predict: no level of any input has level properties")
	}
	if len(ds.X) != len(ds.Levels)*len(ks)*nf {
		panic("predict: feature rows out of step") // a bug here, not bad input
	}
	for g := range graphs {
		ds.Graphs = append(ds.Graphs, g)
	}
	sort.Strings(ds.Graphs)
	return ds, nil
}

// LevelTraversal is one level row's n, n_f and dobfs direction.
type LevelTraversal struct {
	Vertices, Frontier int64
	BottomUp           bool
}

// sameFrontiers checks that the level properties describe the BFS the
// runner measured: the same frontier at every measured level.
func sameFrontiers(g string, in []split.Row, lv []cost.BFSLevel) error {
	if len(lv) < len(in) {
		return fmt.Errorf("predict: %s root %d: %d levels measured, the level properties have %d", g, in[0].Root, len(in), len(lv))
	}
	for i, r := range in {
		if r.Level != i || lv[i].Level.Level != i {
			return fmt.Errorf("predict: %s root %d: level rows out of order at %d", g, r.Root, i)
		}
		if want := int64(math.Round(r.Features[len(split.FeatureNames)-4])); lv[i].Frontier != want {
			return fmt.Errorf("predict: %s root %d level %d: frontier %d in the level properties, %d measured",
				g, r.Root, i, lv[i].Frontier, want)
		}
	}
	return nil
}

// K is the number of kernels.
func (ds *Dataset) K() int { return len(ds.Kernels) }

// Row returns the features of row i.
func (ds *Dataset) Row(i int) []float64 {
	nf := len(FeatureNames)
	return ds.X[i*nf : (i+1)*nf]
}

// LevelsOf returns the indices of the level rows whose graph is in graphs.
func (ds *Dataset) LevelsOf(graphs []string) []int {
	want := map[string]bool{}
	for _, g := range graphs {
		want[g] = true
	}
	var out []int
	for i := range ds.Levels {
		if want[ds.Levels[i].Graph] {
			out = append(out, i)
		}
	}
	return out
}

// Family returns the generator family of a graph name ("rmat" for
// rmat-s18-e8, "road" for road-512x512), or "real" for a file graph.
func (ds *Dataset) Family(g string) string {
	if ds.Real[g] {
		return "real"
	}
	return FamilyOf(g)
}

// FamilyOf returns the name before the first '-'.
func FamilyOf(g string) string {
	f, _, _ := strings.Cut(g, "-")
	return f
}

// FarWeight and FarRatio are an experiment switch (docs/ACCURACY.md): with
// FarWeight > 0, a training row whose measured time is more than FarRatio
// times the level's fastest gets weight FarWeight instead of 1, so the fit
// spends its leaves where Mix-and-Match chooses. 0: every row weighs 1.
var FarWeight, FarRatio = 0.0, 1.5

// TrainingRows returns the (level, kernel) rows of the given level rows
// that have a measured time, as flat features, targets (log ns, or log of
// the time over the base time for Target log-residual) and weights.
func (ds *Dataset) TrainingRows(levels []int, target Target) (x []float64, y, w []float64) {
	nf, k := len(FeatureNames), ds.K()
	for _, r := range levels {
		// Every level of an input weighs the same in total whatever its
		// number of implementations; the inputs' weight is left to their
		// level counts (a 300-level road graph counts more than a 5-level
		// R-MAT, as its total time does).
		best := math.Inf(1)
		for j := range k {
			if ns := ds.Ns[r*k+j]; ns < best {
				best = ns
			}
		}
		for j := range k {
			i := r*k + j
			ns := ds.Ns[i]
			if math.IsNaN(ns) {
				continue
			}
			x = append(x, ds.X[i*nf:(i+1)*nf]...)
			y = append(y, target.encode(ns, ds.Base[i]))
			wt := 1.0
			if FarWeight > 0 && ns > FarRatio*best {
				wt = FarWeight
			}
			w = append(w, wt)
		}
	}
	return x, y, w
}

// Target is what the regression predicts.
type Target string

const (
	// TargetLog is the natural log of the level time in ns.
	TargetLog Target = "log"
	// TargetResidual is the log of the level time over the physical base
	// time (kernelFeatures): the regression corrects a physical estimate,
	// so it extrapolates to graphs larger than any it was trained on as
	// the base time does.
	TargetResidual Target = "log-residual"
)

func (t Target) encode(ns, base float64) float64 {
	if t == TargetResidual {
		return math.Log(ns / base)
	}
	return math.Log(ns)
}

func (t Target) decode(y, base float64) float64 {
	if t == TargetResidual {
		return base * math.Exp(y)
	}
	return math.Exp(y)
}

// ParseTarget reads "log" or "log-residual".
func ParseTarget(s string) (Target, error) {
	switch t := Target(s); t {
	case TargetLog, TargetResidual:
		return t, nil
	}
	return "", fmt.Errorf("predict: target %q: want log or log-residual", s)
}
