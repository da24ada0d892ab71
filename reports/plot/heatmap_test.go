package plot

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// smallHeatmap is handRuns as time / optimal per graph and implementation
// (the optimum of each graph is its smallest total), with the queue's run on
// graph d left out to show a missing cell.
func smallHeatmap() (rows, cols []string, values [][]float64) {
	rows = []string{"a", "b", "c", "d"}
	cols = []string{"edge-list/bulk", "queue", "vertex-push-warp16/atomic"}
	totals := [][]float64{
		{800, 980, 750},
		{2000, 8030, 1200},
		{2000, 40080, 1600},
		{2000, math.NaN(), 400},
	}
	values = make([][]float64, len(totals))
	for i, row := range totals {
		best := math.Inf(1)
		for _, v := range row {
			if !math.IsNaN(v) {
				best = math.Min(best, v)
			}
		}
		values[i] = make([]float64, len(row))
		for j, v := range row {
			values[i][j] = v / best
		}
	}
	return rows, cols, values
}

func TestHeatmapSmall(t *testing.T) {
	rows, cols, values := smallHeatmap()
	p, err := Heatmap("Time over optimum", rows, cols, values, HeatmapOptions{Log: true, Label: "time / optimal"})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "heatmap_small")
	f, err := HeatmapWithScale("Time over optimum", rows, cols, values, HeatmapOptions{Log: true, Label: "time / optimal"})
	if err != nil {
		t.Fatal(err)
	}
	checkGoldenFigure(t, f, "heatmap_small_scale", testW, testH)
	// The other format Save writes.
	wt, err := f.WriterTo(testW, testH, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if _, err := wt.WriteTo(&svg); err != nil || !bytes.Contains(svg.Bytes(), []byte("time / optimal")) {
		t.Errorf("svg: %d bytes without the scale's label (%v)", svg.Len(), err)
	}
}

// TestHeatmapLarge draws 100 graphs by 60 implementations, the size of seed
// 004's BFS heatmaps (56 implementations), at the 10x12 inches the report
// uses for them, with a linear scale fixed to [1, 4] so that values beyond 4
// saturate. The values are a made-up smooth pattern, every 7th cell missing.
func TestHeatmapLarge(t *testing.T) {
	rows := make([]string, 100)
	for i := range rows {
		rows[i] = fmt.Sprintf("konect-graph-%03d", i)
	}
	cols := make([]string, 60)
	for j := range cols {
		cols[j] = fmt.Sprintf("vertex-push-warp%d/atomic-%02d", 1<<(j%6), j)
	}
	values := make([][]float64, len(rows))
	for i := range values {
		values[i] = make([]float64, len(cols))
		for j := range values[i] {
			values[i][j] = 1 + 4*math.Abs(math.Sin(float64(i)/13)*math.Cos(float64(j)/7))
			if (i*len(cols)+j)%7 == 0 {
				values[i][j] = math.NaN()
			}
		}
	}
	f, err := HeatmapWithScale("Time over optimum, 100 graphs", rows, cols, values, HeatmapOptions{Label: "time / optimal", Min: 1, Max: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkGoldenFigure(t, f, "heatmap_large_scale", 10*vg.Inch, 12*vg.Inch)
}

func TestHeatmapErrors(t *testing.T) {
	rows, cols := []string{"a", "b"}, []string{"x", "y"}
	nan := math.NaN()
	for _, tc := range []struct {
		name       string
		rows, cols []string
		values     [][]float64
		opts       HeatmapOptions
		want       error
	}{
		{"no rows", nil, cols, nil, HeatmapOptions{}, ErrNoData},
		{"no columns", rows, nil, [][]float64{{}, {}}, HeatmapOptions{}, ErrNoData},
		{"all missing", rows, cols, [][]float64{{nan, nan}, {nan, nan}}, HeatmapOptions{}, ErrNoData},
		{"missing row", rows, cols, [][]float64{{1, 2}}, HeatmapOptions{}, ErrShape},
		{"ragged", rows, cols, [][]float64{{1, 2}, {3}}, HeatmapOptions{}, ErrShape},
		{"zero on log", rows, cols, [][]float64{{1, 2}, {0, 3}}, HeatmapOptions{Log: true}, ErrValue},
		{"negative min on log", rows, cols, [][]float64{{1, 2}, {4, 3}}, HeatmapOptions{Log: true, Min: -1, Max: 3}, ErrValue},
		{"infinite", rows, cols, [][]float64{{1, math.Inf(1)}, {4, 3}}, HeatmapOptions{}, ErrValue},
	} {
		if _, err := Heatmap("", tc.rows, tc.cols, tc.values, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("%s: Heatmap err = %v, want %v", tc.name, err, tc.want)
		}
		if _, err := HeatmapWithScale("", tc.rows, tc.cols, tc.values, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("%s: HeatmapWithScale err = %v, want %v", tc.name, err, tc.want)
		}
	}
	// One value, or all equal: drawn, not an error.
	if _, err := HeatmapWithScale("", []string{"a"}, []string{"x"}, [][]float64{{2}}, HeatmapOptions{Log: true}); err != nil {
		t.Errorf("one value: %v", err)
	}
}

// TestHeatmapParts: a heatmap of more than HeatmapRows rows is split into
// figures of at most that many, ending where a family ends when one is
// near, every row in exactly one part; one of fewer rows stays whole.
func TestHeatmapParts(t *testing.T) {
	var rows []string
	var values [][]float64
	for _, fam := range []struct {
		name string
		n    int
	}{{"ba", 30}, {"er", 36}, {"rmat", 37}} {
		for i := range fam.n {
			rows = append(rows, fmt.Sprintf("%s-s%d", fam.name, i))
			values = append(values, []float64{1 + float64(i), 2 + float64(i)})
		}
	}
	figs, err := HeatmapParts("hm", "caption", "title", rows, []string{"a", "b"}, values, HeatmapOptions{Log: true}, StdW)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 3 {
		t.Fatalf("%d parts of 103 rows, want 3", len(figs))
	}
	for k, f := range figs {
		if f.Name != fmt.Sprintf("hm-%d", k+1) || !strings.Contains(f.Title, "rows ") {
			t.Errorf("part %d: %q %q", k+1, f.Name, f.Title)
		}
		if f.H > MaxH {
			t.Errorf("part %d is %v high, more than a page", k+1, f.H)
		}
	}
	// The even split is at 34 and 68; the families end at 30 and 66.
	if !strings.Contains(figs[0].Title, "rows 1-30 of 103") || !strings.Contains(figs[1].Title, "rows 31-66 of 103") {
		t.Errorf("parts %q, %q: want them to end where a family ends", figs[0].Title, figs[1].Title)
	}
	one, err := HeatmapParts("hm", "caption", "title", rows[:10], []string{"a", "b"}, values[:10], HeatmapOptions{}, StdW)
	if err != nil || len(one) != 1 || one[0].Name != "hm" {
		t.Errorf("10 rows: %d figures %v", len(one), err)
	}
}
