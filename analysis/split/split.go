package split

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

// Kind is what a split holds out whole.
type Kind string

const (
	ByGraphs   Kind = "graphs"   // every row of a graph on one side
	ByVariants Kind = "variants" // every row of a (graph, root) on one side
	BySteps    Kind = "steps"    // rows (levels) independently, as seed 004 §7.3
	ByDataset  Kind = "dataset"  // train on everything but the named dataset
	// ByRows draws rows independently by their index, for rows that have
	// no graph, root or level (those of a CSV, ReadCSV).
	ByRows Kind = "rows"
)

// Split says how rows are divided into training and held-out rows. The
// zero Seed is a valid seed.
type Split struct {
	Kind Kind
	// Dataset, for ByDataset, names the held-out graphs: "real" for the
	// graphs the manifest loads from a file (the SNAP graphs), otherwise
	// every graph whose name starts with Dataset ("ba", "road-", ...).
	Dataset string
	// TrainFraction is the share of graphs, variants or rows trained on
	// (not used by ByDataset); the count is rounded, and kept within
	// [1, units-1] when there are two or more units.
	TrainFraction float64
	Seed          uint64
}

// DefaultSplit holds out half of the graphs: a model is judged on graphs it
// has never seen.
var DefaultSplit = Split{Kind: ByGraphs, TrainFraction: 0.5, Seed: 1}

// ParseKind reads graphs, variants, steps, rows or dataset:NAME into s.
func (s *Split) ParseKind(v string) error {
	switch k := Kind(v); k {
	case ByGraphs, ByVariants, BySteps, ByRows:
		s.Kind, s.Dataset = k, ""
		return nil
	}
	if name, ok := strings.CutPrefix(v, "dataset:"); ok && name != "" {
		s.Kind, s.Dataset = ByDataset, name
		return nil
	}
	return fmt.Errorf("split: %q: want graphs, variants, steps, rows or dataset:NAME", v)
}

// KindName is the kind as ParseKind reads it: "graphs", ...,
// "dataset:real".
func (s Split) KindName() string {
	if s.Kind == ByDataset {
		return "dataset:" + s.Dataset
	}
	return string(s.Kind)
}

func (s Split) String() string {
	if s.Kind == ByDataset {
		return "dataset:" + s.Dataset
	}
	return fmt.Sprintf("%s, train fraction %g, seed %d", s.Kind, s.TrainFraction, s.Seed)
}

// Apply divides rows into the indices of training and held-out rows, both
// in row order. The draw is deterministic: the units (graph names, variants,
// levels or row indices), in sorted order, are shuffled by a PCG seeded
// with Seed, and the first round(TrainFraction × units) train. real holds
// the graphs of the dataset "real".
func (s Split) Apply(rows []Row, real map[string]bool) (train, test []int, err error) {
	if len(rows) == 0 {
		return nil, nil, ErrNoRows
	}
	var key func(i int) string
	switch s.Kind {
	case ByGraphs:
		key = func(i int) string { return rows[i].Graph }
	case ByVariants:
		key = func(i int) string { return fmt.Sprintf("%s@%d", rows[i].Graph, rows[i].Root) }
	case BySteps:
		key = func(i int) string { return fmt.Sprintf("%s@%d#%09d", rows[i].Graph, rows[i].Root, rows[i].Level) }
	case ByRows:
		key = func(i int) string { return fmt.Sprintf("%012d", i) }
	case ByDataset:
		inSet := func(g string) bool {
			if s.Dataset == "real" {
				return real[g]
			}
			return strings.HasPrefix(g, s.Dataset)
		}
		for i := range rows {
			if inSet(rows[i].Graph) {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		if len(test) == 0 || len(train) == 0 {
			return nil, nil, fmt.Errorf("split: dataset %q holds %d of %d rows: nothing to %s", s.Dataset, len(test), len(rows),
				map[bool]string{true: "hold out", false: "train on"}[len(test) == 0])
		}
		return train, test, nil
	default:
		return nil, nil, fmt.Errorf("split: unknown kind %q", s.Kind)
	}
	if !(s.TrainFraction > 0 && s.TrainFraction < 1) {
		return nil, nil, fmt.Errorf("split: train fraction %g: want 0 < f < 1", s.TrainFraction)
	}
	seen := map[string]bool{}
	var units []string
	for i := range rows {
		if k := key(i); !seen[k] {
			seen[k] = true
			units = append(units, k)
		}
	}
	sort.Strings(units)
	rng := rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15))
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	nTrain := int(math.Round(s.TrainFraction * float64(len(units))))
	if len(units) >= 2 {
		nTrain = min(max(nTrain, 1), len(units)-1)
	}
	trainSet := map[string]bool{}
	for _, u := range units[:nTrain] {
		trainSet[u] = true
	}
	for i := range rows {
		if trainSet[key(i)] {
			train = append(train, i)
		} else {
			test = append(test, i)
		}
	}
	return train, test, nil
}

// Inputs lists the inputs of the chosen rows, by graph then root.
func Inputs(rows []Row, chosen []int) []aggregate.Input {
	seen := map[aggregate.Input]bool{}
	var ins []aggregate.Input
	for _, i := range chosen {
		if in := rows[i].Input(); !seen[in] {
			seen[in] = true
			ins = append(ins, in)
		}
	}
	sort.Slice(ins, func(i, j int) bool {
		if ins[i].Graph != ins[j].Graph {
			return ins[i].Graph < ins[j].Graph
		}
		return ins[i].Root < ins[j].Root
	})
	return ins
}
