package predict

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphperf/graphperf/workload/catalog"
)

// TestPlanSwitchBruteForce: on small random instances the plan's total is
// the least over every sequence of implementations, each costed as the
// runner would run it (catalog.SwitchConversions, with the root's queue
// there when any level reads a queue or a bitmap).
func TestPlanSwitchBruteForce(t *testing.T) {
	ph := Physics{OverheadNs: 7500, BytesPerNs: 3000}
	var impls []catalog.Impl
	for _, name := range []string{"topo", "queue", "dobfs", "vertex-pull-warp4/atomic"} {
		k, err := catalog.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		impls = append(impls, k)
	}
	r := rand.New(rand.NewPCG(1, 2))
	compared := 0
	for trial := range 300 {
		levels := 1 + r.IntN(5)
		times := make([][]float64, levels)
		trav := make([]LevelTraversal, levels)
		for L := range levels {
			times[L] = make([]float64, len(impls))
			for j := range impls {
				times[L][j] = 5000 + 20000*r.Float64()
				if r.IntN(10) == 0 {
					times[L][j] = math.NaN()
				}
			}
			trav[L] = LevelTraversal{Vertices: 1 << 20, Frontier: int64(r.IntN(1 << 18)), BottomUp: r.IntN(2) == 0}
		}
		best := math.Inf(1)
		seq := make([]int, levels)
		var walk func(L int)
		walk = func(L int) {
			if L == levels {
				total := 0.0
				forms := make([]catalog.Form, levels)
				for i, j := range seq {
					total += times[i][j]
					forms[i] = impls[j].Form(trav[i].BottomUp)
				}
				for i, c := range catalog.SwitchConversions(forms) {
					if c != catalog.ConvNone {
						total += ph.ConversionNs(c, trav[i].Vertices, trav[i].Frontier)
					}
				}
				if total < best { // a NaN total (a level without that candidate) never wins
					best = total
				}
				return
			}
			for j := range impls {
				seq[L] = j
				walk(L + 1)
			}
		}
		walk(0)
		p := PlanSwitch(times, impls, trav, ph)
		if math.IsInf(best, 1) {
			continue // some level has no candidate
		}
		compared++
		if math.Abs(p.TotalNs-best) > 1e-6*best {
			t.Fatalf("trial %d: plan %v costs %v, the best sequence %v", trial, p.Picks, p.TotalNs, best)
		}
		// The plan's own accounting: level times plus its conversions.
		sum := p.ConvNs
		for L, j := range p.Picks {
			sum += times[L][j]
		}
		if math.Abs(sum-p.TotalNs) > 1e-6*sum {
			t.Fatalf("trial %d: the plan's parts sum to %v, its total is %v", trial, sum, p.TotalNs)
		}
	}
	if compared < 200 {
		t.Fatalf("only %d of 300 instances compared", compared)
	}
}
