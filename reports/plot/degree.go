package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DegreeDistribution draws the empirical degree distribution of a graph,
// the share of its vertices with degree k,
//
//	P̂(k) = |{v : deg(v) = k}| / n,
//
// as points, against a target probability mass function target(k) drawn as
// a line over the same range of k: the analogue of seed 004 figures 5.1 to
// 5.3 (generated graphs against their uniform, exponential and normal target
// distributions). degrees[v] is the degree of vertex v; target may be nil
// (no line), targetName names it in the legend.
//
// On a linear plot every k from the smallest to the largest degree is drawn,
// zero shares included. With logLog both axes are logarithmic, as for
// power-law degrees, and the points with k = 0 or a share of zero, and
// target values that are not positive, are left out.
//
// It is an error (ErrNoData) when degrees is empty, or with logLog when no
// vertex has a positive degree, and ErrValue when a degree is negative or a
// target value is not finite. It takes O(n + K) time and O(K) memory for n
// vertices and largest degree K (a map instead when K is much larger than
// n), so millions of degrees are cheap.
func DegreeDistribution(title string, degrees []int, target func(k int) float64, targetName string, logLog bool) (*plot.Plot, error) {
	if len(degrees) == 0 {
		return nil, fmt.Errorf("%w: degree distribution %q has no vertices", ErrNoData, title)
	}
	counts, err := degCount(degrees)
	if err != nil {
		return nil, fmt.Errorf("degree distribution %q: %w", title, err)
	}
	n := float64(len(degrees))
	lo, hi := counts[0].k, counts[len(counts)-1].k

	var empirical plotter.XYs
	if logLog {
		for _, c := range counts {
			if c.k > 0 {
				empirical = append(empirical, plotter.XY{X: float64(c.k), Y: float64(c.n) / n})
			}
		}
		if len(empirical) == 0 {
			return nil, fmt.Errorf("%w: degree distribution %q: no vertex of positive degree for log axes", ErrNoData, title)
		}
		lo = max(lo, 1)
	} else {
		empirical = make(plotter.XYs, 0, hi-lo+1)
		i := 0
		for k := lo; k <= hi; k++ {
			share := 0.0
			if counts[i].k == k {
				share = float64(counts[i].n) / n
				i++
			}
			empirical = append(empirical, plotter.XY{X: float64(k), Y: share})
		}
	}

	var line plotter.XYs
	if target != nil {
		line = make(plotter.XYs, 0, hi-lo+1)
		for k := lo; k <= hi; k++ {
			v := target(k)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: degree distribution %q: target(%d) = %g", ErrValue, title, k, v)
			}
			if logLog && !(v > 0) {
				continue
			}
			line = append(line, plotter.XY{X: float64(k), Y: v})
		}
	}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "degree k"
	p.Y.Label.Text = "share of vertices"
	logAxes(p, logLog, logLog)
	p.Legend.Top = true
	if !logLog {
		p.X.Tick.Marker = plot.DefaultTicks{}
	}

	s, err := plotter.NewScatter(empirical)
	if err != nil {
		return nil, fmt.Errorf("plot: degree distribution %q: %w", title, err)
	}
	first, _, _ := Style(0)
	s.GlyphStyle = draw.GlyphStyle{Color: first, Shape: draw.CircleGlyph{}, Radius: vg.Points(1.8)}
	if len(empirical) > 200 {
		s.GlyphStyle.Radius = vg.Points(1)
	}
	p.Add(s)
	p.Legend.Add(fmt.Sprintf("empirical (%d vertices)", len(degrees)), s)
	entries := 1
	if len(line) > 0 {
		l, err := plotter.NewLine(line)
		if err != nil {
			return nil, fmt.Errorf("plot: degree distribution %q: %s: %w", title, targetName, err)
		}
		l.Color = color.Black
		l.Width = vg.Points(1.2)
		p.Add(l)
		if targetName != "" {
			p.Legend.Add(targetName, l)
			entries++
		}
	}
	// The legend goes below the plot (WithLegendBelow): the axes keep the
	// data's range.
	if !logLog {
		p.Y.Min = 0
	}
	return p, nil
}

// degCountN is the number of vertices of degree k.
type degCountN struct{ k, n int }

// degCount counts the degrees, returning the degrees present in increasing
// order: into a slice indexed by degree when the largest degree is at most
// a few times the number of vertices, else into a map.
func degCount(degrees []int) ([]degCountN, error) {
	most := 0
	for v, d := range degrees {
		if d < 0 {
			return nil, fmt.Errorf("%w: vertex %d has degree %d", ErrValue, v, d)
		}
		most = max(most, d)
	}
	var out []degCountN
	if most <= 4*len(degrees)+1024 {
		byDegree := make([]int, most+1)
		for _, d := range degrees {
			byDegree[d]++
		}
		for k, n := range byDegree {
			if n > 0 {
				out = append(out, degCountN{k, n})
			}
		}
		return out, nil
	}
	byDegree := make(map[int]int)
	for _, d := range degrees {
		byDegree[d]++
	}
	for k, n := range byDegree {
		out = append(out, degCountN{k, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].k < out[j].k })
	return out, nil
}
