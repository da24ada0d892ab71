package aggregate

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Orderings are the memory orderings a graph's name may end in
// ("-ORDERING"), in the order an OrderingTable shows them.
var Orderings = []string{"original", "random", "degree", "degree-pessimal", "in-degree", "in-degree-pessimal", "out-degree", "out-degree-pessimal"}

// OrderingTable is the time of every implementation on every memory
// ordering of one base graph (seed 004 figure 6.1), in ms.
type OrderingTable struct {
	Base      string
	Orderings []string // those with a run, in the order of Orderings
	Impls     []string // every implementation of the runs, in run order
	// Ms[o][i] is implementation i's median total time on ordering o;
	// MinMs and MaxMs its least and greatest over the timed repetitions.
	// NaN where unknown.
	Ms, MinMs, MaxMs [][]float64
	// MaxCV[i] is the largest coefficient of variation over the
	// repetitions among implementation i's orderings, from the cv given to
	// ByOrdering; NaN when it has none.
	MaxCV []float64
}

// ByOrdering groups runs on graphs named BASE-ORDERING into one table per
// base graph, in run order. cv holds a coefficient of variation per (graph,
// implementation). A graph without an ordering suffix is an error.
func ByOrdering(runs []Run, cv map[[2]string]float64) ([]OrderingTable, error) {
	type key struct{ base, order, impl string }
	runOf := map[key]Run{}
	var bases, impls []string
	seenBase, seenImpl := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		base, order := splitOrdering(r.Graph)
		if base == "" {
			return nil, fmt.Errorf("graph %q does not end in -ORDERING (%s)", r.Graph, strings.Join(longestFirst(), ", "))
		}
		runOf[key{base, order, r.Impl}] = r
		if !seenBase[base] {
			seenBase[base] = true
			bases = append(bases, base)
		}
		if !seenImpl[r.Impl] {
			seenImpl[r.Impl] = true
			impls = append(impls, r.Impl)
		}
	}
	if len(bases) == 0 {
		return nil, errors.New("no runs")
	}
	var out []OrderingTable
	for _, base := range bases {
		t := OrderingTable{Base: base, Impls: impls, MaxCV: make([]float64, len(impls))}
		for _, o := range Orderings {
			for _, im := range impls {
				if _, ok := runOf[key{base, o, im}]; ok {
					t.Orderings = append(t.Orderings, o)
					break
				}
			}
		}
		for _, o := range t.Orderings {
			ms, lo, hi := make([]float64, len(impls)), make([]float64, len(impls)), make([]float64, len(impls))
			for i, im := range impls {
				ms[i], lo[i], hi[i] = math.NaN(), math.NaN(), math.NaN()
				if r, ok := runOf[key{base, o, im}]; ok {
					ms[i] = r.TotalNs / 1e6
					if r.Total.MaxNs > 0 {
						lo[i], hi[i] = r.Total.MinNs/1e6, r.Total.MaxNs/1e6
					}
				}
			}
			t.Ms, t.MinMs, t.MaxMs = append(t.Ms, ms), append(t.MinMs, lo), append(t.MaxMs, hi)
		}
		for i, im := range impls {
			t.MaxCV[i] = maxCV(cv, base, t.Orderings, im)
		}
		out = append(out, t)
	}
	return out, nil
}

// maxCV is the largest cv of impl over base's orderings; NaN when none.
func maxCV(cv map[[2]string]float64, base string, orderings []string, impl string) float64 {
	m := math.NaN()
	for _, o := range orderings {
		if c, ok := cv[[2]string{base + "-" + o, impl}]; ok {
			if math.IsNaN(m) {
				m = 0
			}
			m = math.Max(m, c)
		}
	}
	return m
}

// longestFirst is Orderings with each suffix before those it ends in.
func longestFirst() []string {
	return []string{"in-degree-pessimal", "out-degree-pessimal", "degree-pessimal", "in-degree", "out-degree", "degree", "random", "original"}
}

// splitOrdering splits BASE-ORDERING; base is "" when graph has no
// ordering suffix.
func splitOrdering(graph string) (base, order string) {
	for _, o := range longestFirst() {
		if b, ok := strings.CutSuffix(graph, "-"+o); ok {
			return b, o
		}
	}
	return "", ""
}

// Widest is the largest (max - min) / median of any cell of t with a
// spread.
func (t *OrderingTable) Widest() float64 {
	widest := 0.0
	for s := range t.Ms {
		for g, v := range t.Ms[s] {
			if v > 0 && t.MaxMs[s][g] >= t.MinMs[s][g] {
				widest = math.Max(widest, (t.MaxMs[s][g]-t.MinMs[s][g])/v)
			}
		}
	}
	return widest
}
