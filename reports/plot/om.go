package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ErrLength is returned when series drawn over the same rounds have
// different numbers of values.
var ErrLength = errors.New("plot: series lengths differ")

// Series is one named line or bar series over rounds (BFS levels).
type Series struct {
	Name   string
	Values []float64 // one per round; NaN = missing (skipped)
}

// The figures of this file are those of seed 000 §7, the evaluation of the
// operator machine (OM) of topology-driven BFS on a GPU: every round (BFS
// level) runs the machine once, so each figure has one value per round.

// RoundTimes draws the time of each round, measured and predicted by the
// operator machine's model (seed 000 figure 7, and figure 3 for the CPU):
// x is the round, y the time per round (given in ns, drawn in µs as the
// tables print them) on a logarithmic axis. The
// measured times are a black line with points inside a light grey band
// measured x (1 ± band), the model's error bound ("Shaded area denotes
// ±20 %": band = 0.2); each predicted series (e.g. "simulation",
// "counters") is a coloured dashed line with points. A band of 0 draws no
// band.
//
// Every series, measured included, has one value per round; NaN marks a
// missing round and leaves a gap. measured may be empty (predictions only).
// It is an error (ErrNoData) when no value is finite, ErrLength when the
// series' lengths differ, and ErrValue when a time is not positive or band
// is not in [0, 1).
func RoundTimes(title string, measured []float64, predicted []Series, band float64) (*plot.Plot, error) {
	if !(band >= 0 && band < 1) {
		return nil, fmt.Errorf("%w: band %g is not in [0, 1)", ErrValue, band)
	}
	measured = scaled(measured, 1e-3)
	predicted = append([]Series(nil), predicted...)
	for i := range predicted {
		predicted[i].Values = scaled(predicted[i].Values, 1e-3)
	}
	all := append([]Series{{Name: "measured", Values: measured}}, predicted...)
	if len(measured) == 0 {
		all = all[1:]
	}
	n, err := omRounds(all)
	if err != nil {
		return nil, err
	}
	if err := omCheck(all, true); err != nil {
		return nil, err
	}
	if !omAnyFinite(all) {
		return nil, fmt.Errorf("%w: no round times", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "round (BFS level)"
	p.Y.Label.Text = "time per round (µs)"
	logAxes(p, false, true)
	p.X.Tick.Marker = omRoundTicks{}
	p.Legend.Top = true
	entries := 0
	// The measured line is drawn last, over the predictions, but listed
	// first.
	var measuredLine []plot.Plotter
	if len(measured) > 0 {
		plotters, thumbs, err := omLinePoints(-1, "measured", measured)
		if err != nil {
			return nil, err
		}
		measuredLine = plotters
		if len(thumbs) > 0 {
			p.Legend.Add("measured", thumbs...)
			entries++
		}
		if band > 0 {
			poly, err := omBand(measured, band)
			if err != nil {
				return nil, err
			}
			p.Add(poly)
			p.Legend.Add("measured ±"+strconv.FormatFloat(math.Round(band*1000)/10, 'g', -1, 64)+" %", poly)
			entries++
		}
	}
	for i, s := range predicted {
		if err := omAddLinePoints(p, i+1, s.Name, s.Values); err != nil {
			return nil, err
		}
		entries++
	}
	p.Add(measuredLine...)
	omRoundRange(p, n)
	return p, nil
}

// VisitsPerJob draws the visits per job V_i of each class of the operator
// machine's memory servers over the rounds (seed 000 figure 8, from
// counters): V_L2H, V_RBH and V_RBM are the L2 hits, DRAM row-buffer hits
// and row-buffer misses (32-byte requests) per job, on a linear axis from
// 0. Each class is a line with points; NaN marks a missing round.
// It is an error (ErrNoData) when no value is finite, ErrLength when the
// classes' lengths differ, and ErrValue for a negative or infinite value.
func VisitsPerJob(title string, classes []Series) (*plot.Plot, error) {
	n, err := omRounds(classes)
	if err != nil {
		return nil, err
	}
	if err := omCheck(classes, false); err != nil {
		return nil, err
	}
	if !omAnyFinite(classes) {
		return nil, fmt.Errorf("%w: no visits", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "round (BFS level)"
	p.Y.Label.Text = "visits per job"
	logAxes(p, false, false)
	p.Y.Tick.Marker = omLinearTicks{}
	p.X.Tick.Marker = omRoundTicks{}
	p.Legend.Top = true
	for i, s := range classes {
		if err := omAddLinePoints(p, i, s.Name, s.Values); err != nil {
			return nil, err
		}
	}
	omRoundRange(p, n)
	p.Y.Min = 0
	p.Y.Max = omLinearHeadroom(p.Y.Max, len(classes))
	return p, nil
}

// StackedRounds draws, per round, one bar stacked from the servers'
// values, one colour per server, the first server at the bottom (seed 000
// figure 9, jobs executed per round per OM server, and figure 10, DRAM
// row-buffer misses per server). yLabel names the values ("jobs",
// "row-buffer misses"). The axis is linear from 0: stacked bars on a
// logarithmic axis would misstate the shares. NaN counts as 0. The bars
// take 70 % of a round's width whatever the number of rounds, and the
// legend lists the servers top to bottom as they are stacked; colours
// repeat after 7 servers.
// It is an error (ErrNoData) when there is no positive value, ErrLength
// when the servers' lengths differ, and ErrValue for a negative or infinite
// value.
func StackedRounds(title, yLabel string, servers []Series) (*plot.Plot, error) {
	n, err := omRounds(servers)
	if err != nil {
		return nil, err
	}
	if err := omCheck(servers, false); err != nil {
		return nil, err
	}
	total := 0.0
	for _, s := range servers {
		for _, v := range s.Values {
			if v > 0 {
				total += v
			}
		}
	}
	if !(total > 0) {
		return nil, fmt.Errorf("%w: no positive value to stack", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "round (BFS level)"
	p.Y.Label.Text = yLabel
	logAxes(p, false, false)
	p.Y.Tick.Marker = omLinearTicks{}
	p.X.Tick.Marker = omRoundTicks{}
	p.Legend.Top = true
	var stack omStack
	for i, s := range servers {
		vs := make(plotter.Values, n)
		for j, v := range s.Values {
			if !math.IsNaN(v) {
				vs[j] = v
			}
		}
		b, err := plotter.NewBarChart(vs, vg.Points(1)) // width set when drawn
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", s.Name, err)
		}
		b.Color = seriesColors[i%len(seriesColors)]
		b.LineStyle.Color = color.White
		b.LineStyle.Width = vg.Points(0.4)
		if i > 0 {
			b.StackOn(stack[i-1])
		}
		stack = append(stack, b)
	}
	p.Add(stack)
	for i := len(stack) - 1; i >= 0; i-- {
		p.Legend.Add(servers[i].Name, stack[i])
	}
	p.X.Min, p.X.Max = -0.6, float64(n)-0.4
	p.Y.Min = 0
	p.Y.Max = omLinearHeadroom(p.Y.Max, len(servers))
	return p, nil
}

// MLPPerRound draws the memory-level parallelism (requests in flight)
// achieved per round against the MLP needed to reach a ceiling, on a
// logarithmic axis (seed 000 figure 11, MLP at L2 and DRAM from counters,
// with the §7.3 argument: the K40c needs about 7800 cache lines in flight
// for its 288 GB/s at 600 cycles of latency, and topology-driven BFS never
// gets there). Each achieved series (e.g. "L2", "DRAM": m = V x n, visits
// per job times the load) is a coloured line with points; each needed
// series is a dark dashed line without points, from one value (constant
// over all rounds) or one value per round.
// It is an error (ErrNoData) when no achieved value is finite, ErrLength
// when the achieved series' lengths differ or a needed series has neither
// 1 nor that many values, and ErrValue for a value that is not positive.
func MLPPerRound(title string, achieved []Series, needed []Series) (*plot.Plot, error) {
	n, err := omRounds(achieved)
	if err != nil {
		return nil, err
	}
	if err := omCheck(achieved, true); err != nil {
		return nil, err
	}
	if !omAnyFinite(achieved) {
		return nil, fmt.Errorf("%w: no achieved MLP", ErrNoData)
	}
	for _, s := range needed {
		if len(s.Values) != 1 && len(s.Values) != n {
			return nil, fmt.Errorf("%w: needed %q has %d values, want 1 or %d (one per round)", ErrLength, s.Name, len(s.Values), n)
		}
	}
	if err := omCheck(needed, true); err != nil {
		return nil, err
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "round (BFS level)"
	p.Y.Label.Text = "memory-level parallelism"
	logAxes(p, false, true)
	p.X.Tick.Marker = omRoundTicks{}
	p.Legend.Top = true
	for i, s := range achieved {
		if err := omAddLinePoints(p, i, s.Name, s.Values); err != nil {
			return nil, err
		}
	}
	lo, hi := -0.3, float64(n-1)+0.3
	for i, s := range needed {
		var segments []plotter.XYs
		if len(s.Values) == 1 {
			if math.IsNaN(s.Values[0]) {
				continue
			}
			segments = []plotter.XYs{{{X: lo, Y: s.Values[0]}, {X: hi, Y: s.Values[0]}}}
		} else {
			segments = omSegments(s.Values)
		}
		var first *plotter.Line
		for _, seg := range segments {
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, fmt.Errorf("plot: %s: %w", s.Name, err)
			}
			l.Color = omNeededColors[i%len(omNeededColors)]
			l.Width = vg.Points(1.5)
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
			if i%2 == 1 {
				l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			}
			p.Add(l)
			if first == nil {
				first = l
			}
		}
		if first != nil {
			p.Legend.Add(s.Name, first)
		}
	}
	omRoundRange(p, n)
	return p, nil
}

// omNeededColors draw the needed-MLP lines of MLPPerRound: black and dark
// grey, apart from the achieved series' colours.
var omNeededColors = []color.Color{color.Black, color.Gray{Y: 0x60}}

// omRounds returns the number of rounds of series, which must all have the
// same length; the error wraps ErrLength.
func omRounds(series []Series) (int, error) {
	n := -1
	for _, s := range series {
		if n < 0 {
			n = len(s.Values)
			continue
		}
		if len(s.Values) != n {
			return 0, fmt.Errorf("%w: %q has %d values, %q has %d", ErrLength, s.Name, len(s.Values), series[0].Name, n)
		}
	}
	if n < 0 {
		n = 0
	}
	return n, nil
}

// omCheck returns an error wrapping ErrValue for a value of series that is
// infinite, or not positive (logY) or negative (linear). NaN passes.
func omCheck(series []Series, logY bool) error {
	for _, s := range series {
		for r, v := range s.Values {
			switch {
			case math.IsNaN(v):
			case math.IsInf(v, 0), logY && v <= 0:
				return fmt.Errorf("%w: %s round %d: %g", ErrValue, s.Name, r, v)
			case v < 0:
				return fmt.Errorf("%w: %s round %d: %g is negative", ErrValue, s.Name, r, v)
			}
		}
	}
	return nil
}

func omAnyFinite(series []Series) bool {
	for _, s := range series {
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				return true
			}
		}
	}
	return false
}

// omSegments splits values into runs of consecutive rounds without NaN,
// as (round, value) points.
func omSegments(values []float64) []plotter.XYs {
	var segments []plotter.XYs
	var cur plotter.XYs
	for r, v := range values {
		if math.IsNaN(v) {
			if len(cur) > 0 {
				segments = append(segments, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, plotter.XY{X: float64(r), Y: v})
	}
	if len(cur) > 0 {
		segments = append(segments, cur)
	}
	return segments
}

// omLinePoints returns values as a line with points, broken at NaN, in the
// i-th style of plotutil, or black and solid for i < 0, and the thumbnails
// of its legend entry (none when every value is NaN).
func omLinePoints(i int, label string, values []float64) ([]plot.Plotter, []plot.Thumbnailer, error) {
	c, dashes, shape := Style(i)
	width := vg.Points(1.2)
	if i < 0 {
		c, dashes, shape = color.Black, nil, draw.CircleGlyph{}
		width = vg.Points(1.5)
	}
	var plotters []plot.Plotter
	var all plotter.XYs
	for _, seg := range omSegments(values) {
		l, err := plotter.NewLine(seg)
		if err != nil {
			return nil, nil, fmt.Errorf("plot: %s: %w", label, err)
		}
		l.Color, l.Width, l.Dashes = c, width, dashes
		plotters = append(plotters, l)
		all = append(all, seg...)
	}
	if len(all) == 0 {
		return nil, nil, nil
	}
	s, err := plotter.NewScatter(all)
	if err != nil {
		return nil, nil, fmt.Errorf("plot: %s: %w", label, err)
	}
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(2)
	if len(all) > 40 {
		s.Radius = vg.Points(1)
	}
	return append(plotters, s), []plot.Thumbnailer{plotters[0].(*plotter.Line), s}, nil
}

// omAddLinePoints adds omLinePoints(i, label, values) to p and its legend.
func omAddLinePoints(p *plot.Plot, i int, label string, values []float64) error {
	plotters, thumbs, err := omLinePoints(i, label, values)
	if err != nil || len(plotters) == 0 {
		return err
	}
	p.Add(plotters...)
	p.Legend.Add(label, thumbs...)
	return nil
}

// omBand returns the polygon measured x (1 ± band), one ring per run of
// rounds without NaN; a lone round gets a box 0.3 rounds wide.
func omBand(measured []float64, band float64) (*plotter.Polygon, error) {
	var rings []plotter.XYer
	for _, seg := range omSegments(measured) {
		if len(seg) == 1 {
			x, y := seg[0].X, seg[0].Y
			seg = plotter.XYs{{X: x - 0.15, Y: y}, {X: x + 0.15, Y: y}}
		}
		ring := make(plotter.XYs, 0, 2*len(seg))
		for _, pt := range seg {
			ring = append(ring, plotter.XY{X: pt.X, Y: pt.Y * (1 + band)})
		}
		for j := len(seg) - 1; j >= 0; j-- {
			ring = append(ring, plotter.XY{X: seg[j].X, Y: seg[j].Y * (1 - band)})
		}
		rings = append(rings, ring)
	}
	poly, err := plotter.NewPolygon(rings...)
	if err != nil {
		return nil, fmt.Errorf("plot: band: %w", err)
	}
	grey := color.Gray{Y: 0xc8}
	poly.Color = grey
	poly.LineStyle.Color = grey
	poly.LineStyle.Width = vg.Points(0.5)
	return poly, nil
}

// omRoundRange sets the x axis to rounds 0 to n-1 with a margin.
func omRoundRange(p *plot.Plot, n int) {
	p.X.Min, p.X.Max = -0.3, math.Max(float64(n-1), 0)+0.3
}

// omLinearHeadroom returns a new maximum for a linear axis from 0 to max
// that leaves the top free for a legend of the given entries, as headroom
// does for a logarithmic one.
func omLinearHeadroom(max float64, entries int) float64 {
	share := math.Min(0.6, (float64(entries)*9+6)/150)
	if !(max > 0) {
		max = 1
	}
	return max / (1 - share)
}

// omStack draws stacked bar charts with bars 70 % of a round wide: the
// width in points is known only when the canvas is.
type omStack []*plotter.BarChart

func (s omStack) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	w := 0.7 * (trX(1) - trX(0))
	for _, b := range s {
		b.Width = w
		b.Plot(c, p)
	}
}

func (s omStack) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, b := range s {
		x0, x1, y0, y1 := b.DataRange()
		xmin, xmax = math.Min(xmin, x0), math.Max(xmax, x1)
		ymin, ymax = math.Min(ymin, y0), math.Max(ymax, y1)
	}
	return xmin, xmax, ymin, ymax
}

// omRoundTicks are integerTicks from round 0: the axis starts a little
// left of 0, where integerTicks would label math.Ceil(-0.3) as "-0".
type omRoundTicks struct{}

func (omRoundTicks) Ticks(min, max float64) []plot.Tick {
	return integerTicks{}.Ticks(math.Max(min, 0), max)
}

// omLinearTicks are gonum's default ticks for a linear axis, labelled short
// by tickLabel (2e6, not 2000000).
type omLinearTicks struct{}

func (omLinearTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ts {
		switch {
		case t.Label == "":
		case t.Value == 0:
			ts[i].Label = "0"
		case t.Value > 0:
			ts[i].Label = tickLabel(t.Value)
		default:
			ts[i].Label = "-" + tickLabel(-t.Value)
		}
	}
	return ts
}

var (
	_ plot.Ticker     = omRoundTicks{}
	_ plot.Ticker     = omLinearTicks{}
	_ plot.Plotter    = omStack{}
	_ plot.DataRanger = omStack{}
)

// AddSpread draws the spread of measured round times on p (a RoundTimes
// plot, whose x is the round): at each round i a vertical error bar from
// lo[i] to hi[i], such as the minimum and maximum over the timed
// repetitions, with label in the legend. A round where lo or hi is NaN, or
// not positive (the axis is logarithmic), has no bar. It is an error
// (ErrLength) when lo and hi differ in length, ErrValue when lo[i] > hi[i],
// and ErrNoData when no round has a bar.
func AddSpread(p *plot.Plot, lo, hi []float64, label string) error {
	if len(lo) != len(hi) {
		return fmt.Errorf("%w: %d lows, %d highs", ErrLength, len(lo), len(hi))
	}
	var bars spreadBars
	for i := range lo {
		if math.IsNaN(lo[i]) || math.IsNaN(hi[i]) || !(lo[i] > 0) {
			continue
		}
		if lo[i] > hi[i] {
			return fmt.Errorf("%w: round %d: low %g above high %g", ErrValue, i, lo[i], hi[i])
		}
		mid := math.Sqrt(lo[i] * hi[i]) // any point between; the bar spans lo..hi
		bars.xys = append(bars.xys, plotter.XY{X: float64(i), Y: mid})
		bars.errs = append(bars.errs, struct{ Low, High float64 }{mid - lo[i], hi[i] - mid})
	}
	if len(bars.xys) == 0 {
		return fmt.Errorf("%w: no spread", ErrNoData)
	}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	eb.LineStyle.Width = vg.Points(1)
	eb.LineStyle.Color = color.Gray{Y: 0x40}
	eb.CapWidth = vg.Points(5)
	p.Add(eb)
	if label != "" {
		p.Legend.Add(label, spreadThumb{eb.LineStyle})
	}
	return nil
}

// spreadBars is the XYer and YErrorer of AddSpread.
type spreadBars struct {
	xys  plotter.XYs
	errs plotter.YErrors
}

func (b spreadBars) Len() int                        { return len(b.xys) }
func (b spreadBars) XY(i int) (float64, float64)     { return b.xys[i].X, b.xys[i].Y }
func (b spreadBars) YError(i int) (float64, float64) { return b.errs[i].Low, b.errs[i].High }

// spreadThumb is the legend entry of AddSpread's bars: a vertical line.
type spreadThumb struct{ style draw.LineStyle }

func (t spreadThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(t.style, x, c.Min.Y, x, c.Max.Y)
}

// scaled is a copy of values times f (NaN stays NaN); nil for nil.
func scaled(values []float64, f float64) []float64 {
	if values == nil {
		return nil
	}
	out := make([]float64, len(values))
	for i, v := range values {
		out[i] = v * f
	}
	return out
}
