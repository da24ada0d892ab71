package stats_test

import (
	"fmt"

	"github.com/graphperf/graphperf/internal/stats"
)

// Predicted against measured level times (ns): the last measurement is
// missing (NaN), so three levels are compared.
func Example() {
	pred := []float64{110, 150, 260, 40}
	meas := []float64{100, 200, 250, stats.Median(nil)}
	within, compared := stats.CountWithin(pred, meas, stats.Within20)
	fmt.Printf("within ±20 %%: %d of %d\n", within, compared)
	fmt.Printf("median error: %.3f\n", stats.MedianRelError(pred, meas))
	fmt.Printf("largest error: %+.0f %%\n", stats.MaxErrorPct(pred, meas))
	fmt.Printf("Spearman: %.1f\n", stats.Spearman(pred[:3], meas[:3]))
	// Output:
	// within ±20 %: 2 of 3
	// median error: 0.100
	// largest error: -25 %
	// Spearman: 1.0
}
