package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barGroupWidth is the share of a group's slot its bars fill; the rest is
// the gap between groups.
const barGroupWidth = 0.8

// GroupedBars draws values[s][g], the value of series s in group g, as bars
// side by side within each group: groups along the x axis (named by
// groups), one colour per series (named in the legend by series). It is the
// analogue of seed 004 figure 6.1, the PageRank run times of each
// implementation on seven memory orderings of actor-collaboration: groups
// the orderings (or graphs), series the implementations (or orderings).
// With logY the y axis is logarithmic and bars rise from its bottom, a power
// of ten below the smallest value. A NaN value is a missing bar.
//
// Group names are rotated to read upwards when they would not fit side by
// side on a 4-inch figure. The legend sits top right above the bars; it
// fits about 8 series on a 4x3-inch figure (colours repeat after 7).
//
// It is an error (ErrNoData) when there are no groups, no series or no
// value, ErrShape when values is not len(series) slices of len(groups), and
// ErrValue when a value is infinite or, with logY, not positive.
func GroupedBars(title, yLabel string, groups []string, series []string, values [][]float64, logY bool) (*plot.Plot, error) {
	if len(groups) == 0 || len(series) == 0 {
		return nil, fmt.Errorf("%w: bars %q have %d groups and %d series", ErrNoData, title, len(groups), len(series))
	}
	if len(values) != len(series) {
		return nil, fmt.Errorf("%w: bars %q: %d series of values for %d series names", ErrShape, title, len(values), len(series))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for s, vs := range values {
		if len(vs) != len(groups) {
			return nil, fmt.Errorf("%w: bars %q: series %s has %d values for %d groups", ErrShape, title, series[s], len(vs), len(groups))
		}
		for g, v := range vs {
			if math.IsNaN(v) {
				continue
			}
			if math.IsInf(v, 0) || (logY && !(v > 0)) {
				return nil, fmt.Errorf("%w: bars %q: %s, %s: %g", ErrValue, title, series[s], groups[g], v)
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		return nil, fmt.Errorf("%w: bars %q: no value present", ErrNoData, title)
	}

	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	barAxes(p, false, logY)
	p.X.Tick.Marker = barNames(groups)
	p.X.Tick.Length = 0
	if barLongest(groups)*len(groups) > 50 {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		p.X.Tick.Label.Font.Size = hmFontSize(len(groups))
	}
	p.Legend.Top = true
	width := barGroupWidth / float64(len(series))
	for s, name := range series {
		b := &barRects{
			values: values[s],
			offset: -barGroupWidth/2 + (float64(s)+0.5)*width,
			width:  width,
			color:  seriesColors[s%len(seriesColors)],
		}
		p.Add(b)
		p.Legend.Add(name, b)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	// The legend goes below the plot (WithLegendBelow): the axis keeps
	// the data's range.
	if logY {
		base := math.Pow(10, math.Floor(math.Log10(lo)))
		if base >= lo*(1-1e-9) {
			base /= 10
		}
		p.Y.Min = base
		p.Y.Max = hi
	} else {
		p.Y.Min = math.Min(0, lo)
		p.Y.Max = math.Max(0, hi)
	}
	return p, nil
}

// AddBarSpread draws the spread of the values of a GroupedBars plot p as
// error bars: on the bar of series s in group g a vertical line with caps
// from lo[s][g] to hi[s][g], such as the minimum and maximum over the timed
// repetitions, with label in the legend (none when label is ""). lo and hi
// have GroupedBars' values' shape, and must be the shape p was drawn with.
// A bar whose lo or hi is NaN, or not positive on a logarithmic axis, has
// no error bar. The value axis grows to hold every bar's hi, and, with a
// label, to leave room for one more legend entry.
//
// It is an error (ErrShape) when lo and hi differ in shape or hold no
// series, ErrValue when lo[s][g] > hi[s][g] or either is infinite, and
// ErrNoData when no bar has a spread.
func AddBarSpread(p *plot.Plot, lo, hi [][]float64, label string) error {
	if len(lo) == 0 || len(lo) != len(hi) {
		return fmt.Errorf("%w: bar spread: %d series of lows, %d of highs", ErrShape, len(lo), len(hi))
	}
	_, logY := p.Y.Scale.(plot.LogScale)
	bars, top, err := barSpread(lo, hi, logY)
	if err != nil {
		return err
	}
	width := barGroupWidth / float64(len(lo))
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	eb.LineStyle.Width = vg.Points(0.8)
	eb.LineStyle.Color = color.Black
	eb.CapWidth = vg.Points(math.Max(2, math.Min(5, 300*width/float64(len(lo[0])))))
	xmin, xmax := p.X.Min, p.X.Max
	p.Add(eb)
	p.X.Min, p.X.Max = xmin, xmax // the caps do not widen the groups' axis
	if label == "" {
		return nil
	}
	p.Legend.Add(label, spreadThumb{eb.LineStyle})
	// One more legend entry: grow the value axis as GroupedBars' headroom
	// does per entry (9/150 of the height).
	grow := 1 / (1 - 9.0/150)
	if logY && p.Y.Min > 0 {
		p.Y.Max = p.Y.Min * math.Pow(math.Max(p.Y.Max, top)/p.Y.Min, grow)
	} else {
		p.Y.Max = p.Y.Min + (math.Max(p.Y.Max, top)-p.Y.Min)*grow
	}
	return nil
}

// barSpread is AddBarSpread's error bars, one per bar with a spread, at
// the bar's centre (GroupedBars' layout); top is the greatest high.
func barSpread(lo, hi [][]float64, logY bool) (bars spreadBars, top float64, err error) {
	width := barGroupWidth / float64(len(lo))
	top = math.Inf(-1)
	for s := range lo {
		if len(lo[s]) != len(hi[s]) || len(lo[s]) != len(lo[0]) {
			return bars, top, fmt.Errorf("%w: bar spread: series %d has %d lows and %d highs for %d groups", ErrShape, s, len(lo[s]), len(hi[s]), len(lo[0]))
		}
		for g := range lo[s] {
			l, h := lo[s][g], hi[s][g]
			if math.IsNaN(l) || math.IsNaN(h) || (logY && !(l > 0)) {
				continue
			}
			if math.IsInf(l, 0) || math.IsInf(h, 0) || l > h {
				return bars, top, fmt.Errorf("%w: bar spread: series %d, group %d: low %g, high %g", ErrValue, s, g, l, h)
			}
			mid := (l + h) / 2 // any point between; the bar spans l..h
			if logY {
				mid = math.Sqrt(l * h)
			}
			x := float64(g) - barGroupWidth/2 + (float64(s)+0.5)*width
			bars.xys = append(bars.xys, plotter.XY{X: x, Y: mid})
			bars.errs = append(bars.errs, struct{ Low, High float64 }{mid - l, h - mid})
			top = math.Max(top, h)
		}
	}
	if len(bars.xys) == 0 {
		return bars, top, fmt.Errorf("%w: bar spread: no bar has one", ErrNoData)
	}
	return bars, top, nil
}

// HorizontalBars draws one horizontal bar per name, sorted by value, the
// largest at the top, with each value written at the end of its bar; equal
// values keep their given order. It is meant for the feature importances of
// a decision tree (seed 004 §7.1's normalised Gini importances, as
// tree.Classifier.Importances returns them): features of importance zero
// are kept, at the bottom with empty bars, to show that the tree never split
// on them. The x axis is linear from 0.
//
// It is an error (ErrNoData) when there are no names, ErrShape when values
// and names differ in length, and ErrValue when a value is negative or not
// finite.
func HorizontalBars(title, xLabel string, names []string, values []float64) (*plot.Plot, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: bars %q have no names", ErrNoData, title)
	}
	if len(values) != len(names) {
		return nil, fmt.Errorf("%w: bars %q: %d values for %d names", ErrShape, title, len(values), len(names))
	}
	order := make([]int, len(names))
	hi := 0.0
	for i, v := range values {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: bars %q: %s: %g", ErrValue, title, names[i], v)
		}
		order[i] = i
		hi = math.Max(hi, v)
	}
	sort.SliceStable(order, func(a, b int) bool { return values[order[a]] > values[order[b]] })
	// Row r (0 at the bottom) holds the r-th smallest.
	sorted := make([]float64, len(names))
	labels := make([]string, len(names))
	for r := range sorted {
		i := order[len(order)-1-r]
		sorted[r], labels[r] = values[i], names[i]
	}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	barAxes(p, true, false)
	p.Y.Tick.Marker = barNames(labels)
	p.Y.Tick.Length = 0
	p.Y.Tick.Label.Font.Size = hmFontSize(len(names))
	b := &barRects{
		values:     sorted,
		offset:     0,
		width:      barGroupWidth,
		color:      seriesColors[0],
		horizontal: true,
		label:      true,
	}
	b.fontSize = hmFontSize(len(names))
	p.Add(b)
	if hi == 0 {
		hi = 1
	}
	p.X.Min = 0
	// Room right of the longest bar for its value.
	p.X.Max = hi * 1.18
	p.Y.Min, p.Y.Max = -0.5, float64(len(names))-0.5
	return p, nil
}

// barAxes is logAxes for a bar chart: the house fonts, grid lines along
// the value axis only (horizontal bars: vertical lines), and a logarithmic
// value axis with log.
func barAxes(p *plot.Plot, horizontal, log bool) {
	hmFonts(p)
	p.Legend.TextStyle.Font.Size = vg.Points(7.5)
	p.Legend.ThumbnailWidth = vg.Points(12)
	p.Legend.Padding = vg.Points(1)
	p.Legend.XOffs = -vg.Points(4)
	p.Legend.YOffs = -vg.Points(2)
	g := plotter.NewGrid()
	if horizontal {
		g.Horizontal.Color = nil
	} else {
		g.Vertical.Color = nil
	}
	p.Add(g)
	if log {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
}

// barNames labels categories 0, 1, ... with names.
type barNames []string

func (ns barNames) Ticks(min, max float64) []plot.Tick {
	ts := make([]plot.Tick, len(ns))
	for i, n := range ns {
		ts[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return ts
}

var _ plot.Ticker = barNames(nil)

// barLongest returns the length of the longest name, in runes.
func barLongest(names []string) int {
	most := 0
	for _, n := range names {
		most = max(most, len([]rune(n)))
	}
	return most
}

// barRects draws bar i at category i + offset, width wide, both in data
// units (so bars scale with the figure), from 0 to values[i], or from the
// axis's minimum on a logarithmic axis. NaN values are skipped. With label
// each value is written at the end of its bar.
type barRects struct {
	values        []float64
	offset, width float64
	color         color.Color
	horizontal    bool
	label         bool
	fontSize      vg.Length
}

func (b *barRects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cat, val, valAxis := trX, trY, &p.Y
	if b.horizontal {
		cat, val, valAxis = trY, trX, &p.X
	}
	base := 0.0
	if _, log := valAxis.Scale.(plot.LogScale); log {
		base = valAxis.Min
	}
	sty := p.X.Tick.Label
	sty.Font.Size = b.fontSize
	sty.Rotation = 0
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for i, v := range b.values {
		if math.IsNaN(v) {
			continue
		}
		c0 := cat(float64(i) + b.offset - b.width/2)
		c1 := cat(float64(i) + b.offset + b.width/2)
		v0, v1 := val(base), val(v)
		var pts []vg.Point
		if b.horizontal {
			pts = []vg.Point{{X: v0, Y: c0}, {X: v1, Y: c0}, {X: v1, Y: c1}, {X: v0, Y: c1}}
		} else {
			pts = []vg.Point{{X: c0, Y: v0}, {X: c0, Y: v1}, {X: c1, Y: v1}, {X: c1, Y: v0}}
		}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
		if b.label && b.horizontal {
			c.FillText(sty, vg.Point{X: v1 + vg.Points(2), Y: (c0 + c1) / 2}, barValue(v))
		}
	}
}

func (b *barRects) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax := b.offset-b.width/2, float64(len(b.values)-1)+b.offset+b.width/2
	vmin, vmax := 0.0, 0.0
	for _, v := range b.values {
		if !math.IsNaN(v) {
			vmin, vmax = math.Min(vmin, v), math.Max(vmax, v)
		}
	}
	if b.horizontal {
		return vmin, vmax, cmin, cmax
	}
	return cmin, cmax, vmin, vmax
}

// Thumbnail draws the bar's colour in the legend.
func (b *barRects) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(b.color, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	})
}

var (
	_ plot.Plotter     = (*barRects)(nil)
	_ plot.DataRanger  = (*barRects)(nil)
	_ plot.Thumbnailer = (*barRects)(nil)
)

// barValue writes an importance-like value with three significant digits.
func barValue(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
