package ompredict

import (
	"math"

	"github.com/graphperf/graphperf/model/om"
)

// VisitsPerClass is, per class of Classes, the visits per job V of each
// level of rows (seed 000 figure 8).
func VisitsPerClass(rows []Level) [][]float64 {
	out := make([][]float64, len(Classes))
	for i, c := range Classes {
		for _, r := range rows {
			out[i] = append(out[i], r.Classes[c].Visits)
		}
	}
	return out
}

// MLPPerLevel is, per level of rows, the memory-level parallelism achieved
// at the L2 (m of the L2 hits) and at DRAM (m of the row hits plus the row
// misses), NaN where not positive, and the number of levels with a
// positive DRAM MLP (seed 000 figure 11).
func MLPPerLevel(rows []Level) (l2, dram []float64, positive int) {
	for _, r := range rows {
		a := r.Classes[om.ClassL2Hit].MLP
		b := r.Classes[om.ClassDRAMRowHit].MLP + r.Classes[om.ClassDRAMRowMiss].MLP
		if !(a > 0) {
			a = math.NaN()
		}
		if !(b > 0) {
			b = math.NaN()
		} else {
			positive++
		}
		l2, dram = append(l2, a), append(dram, b)
	}
	return l2, dram, positive
}
