package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ErrShape is returned when a figure's values do not match its labels
// (a ragged matrix, or a row or series of the wrong length).
var ErrShape = errors.New("plot: values do not match labels")

// Figure is what a caller needs to write a figure: *plot.Plot and
// *Composite satisfy it.
type Figure interface {
	WriterTo(w, h vg.Length, format string) (io.WriterTo, error)
}

var (
	_ Figure = (*plot.Plot)(nil)
	_ Figure = (*Composite)(nil)
)

// HeatmapOptions choose how Heatmap colours its cells. The zero value is a
// linear scale over the data's range.
type HeatmapOptions struct {
	// Log colours by log10 of the value; every value must then be
	// positive (ErrValue otherwise).
	Log bool
	// Label names the colour scale, e.g. "time / optimal".
	Label string
	// Min and Max bound the colour scale; values outside are drawn in
	// the colour of the nearer end. 0, 0 means the data's range.
	Min, Max float64
}

// hmMissing is the colour of a missing (NaN) cell: a light grey that no
// colour of hmColors comes close to.
var hmMissing = color.Gray{Y: 0xe4}

// hmColors are the control points of viridis (van der Walt and Smith,
// matplotlib 2.0), a sequential map whose lightness rises monotonically and
// which reads in grey scale and to colour-blind readers: dark purple for the
// low end, yellow for the high end.
var hmColors = []color.Color{
	color.NRGBA{0x44, 0x01, 0x54, 0xff},
	color.NRGBA{0x3b, 0x52, 0x8b, 0xff},
	color.NRGBA{0x21, 0x91, 0x8c, 0xff},
	color.NRGBA{0x5e, 0xc9, 0x62, 0xff},
	color.NRGBA{0xfd, 0xe7, 0x25, 0xff},
}

// hmColorMap returns a fresh viridis colour map (a ColorMap holds its
// range, so each figure needs its own).
func hmColorMap() palette.ColorMap {
	cm, err := moreland.NewLuminance(hmColors)
	if err != nil {
		panic(err) // hmColors rise in luminance: cannot happen.
	}
	return cm
}

// hmGrid is values as a plotter.GridXYZ: grid column c is column c of the
// matrix at x = c, grid row r is matrix row n-1-r at y = r, so that the
// first row is drawn at the top, as in a table. With log it returns log10 of
// the values.
type hmGrid struct {
	values [][]float64
	cols   int
	log    bool
}

func (g hmGrid) Dims() (c, r int)    { return g.cols, len(g.values) }
func (g hmGrid) X(c int) float64     { return float64(c) }
func (g hmGrid) Y(r int) float64     { return float64(r) }
func (g hmGrid) row(r int) []float64 { return g.values[len(g.values)-1-r] }
func (g hmGrid) Z(c, r int) float64 {
	v := g.row(r)[c]
	if g.log && !math.IsNaN(v) {
		return math.Log10(v)
	}
	return v
}

var _ plotter.GridXYZ = hmGrid{}

// hmCells draws a plotter.HeatMap without its glyph boxes, which would pad
// the data area around cells smaller than 10 points; the cells end exactly
// at the axes.
type hmCells struct{ h *plotter.HeatMap }

func (c hmCells) Plot(dc draw.Canvas, p *plot.Plot) { c.h.Plot(dc, p) }
func (c hmCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return c.h.DataRange()
}

// hmFontSize is the tick label size for an axis of n names: 8 pt for a few,
// down to 6 pt for more than 40, which a 12-inch axis fits 100 of.
func hmFontSize(n int) vg.Length {
	switch {
	case n <= 20:
		return vg.Points(8)
	case n <= 40:
		return vg.Points(7)
	}
	return vg.Points(6)
}

// Heatmap draws a matrix of values as coloured cells, values[i][j] in row
// i (named rows[i], top to bottom) and column j (named cols[j], left to
// right, the names rotated to read upwards), such as run time over the
// optimum per graph (row) and implementation (column): the analogue of
// seed 004's `heatmap total` figures (§3.3.4; the heatmaps of normalised
// run times of ch. 4). A NaN value is a missing cell, drawn light grey.
// Colours follow viridis, dark for small values, yellow for large ones,
// linearly in the value or, with opts.Log, in its logarithm.
//
// The plot has no colour scale, since a plot holds one set of axes; use
// HeatmapWithScale for a figure with one. Names are drawn at 8 pt, down to
// 6 pt for more than 40 of them; 100 rows and 60 columns stay legible at
// 10x12 inches.
//
// It is an error (ErrNoData) when there are no rows or no columns, ErrShape
// when values is not len(rows) slices of len(cols), and ErrValue when with
// opts.Log a value or opts.Min is not positive, a value is infinite, or no
// value is present. It takes O(rows x cols) time.
func Heatmap(title string, rows, cols []string, values [][]float64, opts HeatmapOptions) (*plot.Plot, error) {
	p, _, err := heatmap(title, rows, cols, values, opts)
	return p, err
}

// heatmap returns the heatmap plot and the range of its colour scale (in
// log10 units with opts.Log).
func heatmap(title string, rows, cols []string, values [][]float64, opts HeatmapOptions) (*plot.Plot, [2]float64, error) {
	var scale [2]float64
	if len(rows) == 0 || len(cols) == 0 {
		return nil, scale, fmt.Errorf("%w: heatmap %q has %d rows and %d columns", ErrNoData, title, len(rows), len(cols))
	}
	if len(values) != len(rows) {
		return nil, scale, fmt.Errorf("%w: heatmap %q: %d rows of values for %d row names", ErrShape, title, len(values), len(rows))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, row := range values {
		if len(row) != len(cols) {
			return nil, scale, fmt.Errorf("%w: heatmap %q: row %s has %d values for %d columns", ErrShape, title, rows[i], len(row), len(cols))
		}
		for j, v := range row {
			if math.IsNaN(v) {
				continue
			}
			if math.IsInf(v, 0) || (opts.Log && !(v > 0)) {
				return nil, scale, fmt.Errorf("%w: heatmap %q: %s, %s: %g", ErrValue, title, rows[i], cols[j], v)
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if opts.Min != 0 || opts.Max != 0 {
		lo, hi = opts.Min, opts.Max
	}
	if lo > hi {
		return nil, scale, fmt.Errorf("%w: heatmap %q: no value present", ErrNoData, title)
	}
	if opts.Log {
		if !positive(lo) || !positive(hi) {
			return nil, scale, fmt.Errorf("%w: heatmap %q: log colour scale from %g to %g", ErrValue, title, lo, hi)
		}
		lo, hi = math.Log10(lo), math.Log10(hi)
	}
	if lo == hi {
		// One value: widen the scale so that it sits in the middle.
		d := math.Max(math.Abs(lo)*0.1, 0.1)
		lo, hi = lo-d, hi+d
	}
	scale = [2]float64{lo, hi}

	cm := hmColorMap()
	cm.SetMin(lo)
	cm.SetMax(hi)
	pal := cm.Palette(256).Colors()
	h := plotter.NewHeatMap(hmGrid{values: values, cols: len(cols), log: opts.Log}, palette.Palette(hmPalette(pal)))
	h.Min, h.Max = lo, hi
	h.Underflow, h.Overflow = pal[0], pal[len(pal)-1]
	h.NaN = hmMissing

	p := plot.New()
	hmFonts(p)
	p.Title.Text = title
	p.Add(hmCells{h})
	p.X.Padding, p.Y.Padding = 0, 0

	xt := make([]plot.Tick, len(cols))
	for j, name := range cols {
		xt[j] = plot.Tick{Value: float64(j), Label: name}
	}
	p.X.Tick.Marker = plot.ConstantTicks(xt)
	p.X.Tick.Label.Font.Size = hmFontSize(len(cols))
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	yt := make([]plot.Tick, len(rows))
	for i, name := range rows {
		yt[i] = plot.Tick{Value: float64(len(rows) - 1 - i), Label: name}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(yt)
	p.Y.Tick.Label.Font.Size = hmFontSize(len(rows))
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Length = vg.Points(2)
	}
	return p, scale, nil
}

// hmPalette is a fixed list of colours as a palette.Palette.
type hmPalette []color.Color

func (p hmPalette) Colors() []color.Color { return p }

// hmFonts sets the house font sizes of logAxes, without its grid: grid
// lines would cross the cells.
func hmFonts(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(9)
		a.Tick.Label.Font.Size = vg.Points(8)
	}
}

// HeatmapWithScale is Heatmap with its colour scale: a vertical bar beside
// the cells, as tall as they are, labelled opts.Label and ticked in the
// values' units (1, 2, 5 times powers of ten with opts.Log). The result is a
// Composite, which writes like a *plot.Plot. Errors are those of Heatmap.
func HeatmapWithScale(title string, rows, cols []string, values [][]float64, opts HeatmapOptions) (*Composite, error) {
	p, scale, err := heatmap(title, rows, cols, values, opts)
	if err != nil {
		return nil, err
	}
	s := plot.New()
	hmFonts(s)
	bar := &plotter.ColorBar{ColorMap: hmColorMap(), Vertical: true, Colors: 256}
	bar.ColorMap.SetMin(scale[0])
	bar.ColorMap.SetMax(scale[1])
	s.Add(bar)
	s.HideX()
	s.X.Padding, s.Y.Padding = 0, 0
	s.Y.Label.Text = opts.Label
	s.Y.Tick.Marker = hmScaleTicks{lo: scale[0], hi: scale[1], log: opts.Log}
	s.Y.Tick.Label.Font.Size = vg.Points(7)
	s.Y.Tick.Length = vg.Points(3)
	s.Y.LineStyle.Width = 0 // the bar's edge is the axis
	return &Composite{Main: p, Scale: s, lo: scale[0], hi: scale[1]}, nil
}

// Composite is a plot with a colour scale to its right, drawn on one
// canvas: the scale's bar spans exactly the height of the main plot's data
// area. Build one with HeatmapWithScale.
type Composite struct {
	// Main is the plot, Scale the colour scale: a plot whose y axis is
	// the colour scale and whose x axis is hidden.
	Main, Scale *plot.Plot
	// lo and hi are the ends of the colour scale.
	lo, hi float64
}

// Sizes of the scale strip of a Composite.
const (
	hmScaleGap   = 14 * vg.Length(1) // points between the main plot and the scale's labels
	hmScaleBar   = 10 * vg.Length(1) // width of the colour bar
	hmScaleSlack = 6 * vg.Length(1)  // room above and below for the end tick labels
)

// Draw draws the composite on c: the main plot on the left, then the scale.
func (f *Composite) Draw(c draw.Canvas) {
	// The scale's width: its y axis (label and tick labels) and the bar.
	f.Scale.Y.Min, f.Scale.Y.Max = f.lo, f.hi
	probe := f.Scale.DataCanvas(c)
	axis := probe.Min.X - c.Min.X
	width := hmScaleGap + axis + hmScaleBar

	left := draw.Crop(c, 0, -width, 0, 0)
	f.Main.Draw(left)
	data := f.Main.DataCanvas(left)

	// The scale's canvas reaches hmScaleSlack beyond the heatmap's data
	// area, and its y axis as far beyond the colour range, so that the end
	// tick labels fit without gonum/plot shrinking the bar.
	height := data.Max.Y - data.Min.Y
	if height <= 0 {
		return
	}
	perPoint := (f.hi - f.lo) / float64(height)
	f.Scale.Y.Min = f.lo - perPoint*float64(hmScaleSlack)
	f.Scale.Y.Max = f.hi + perPoint*float64(hmScaleSlack)
	right := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - width + hmScaleGap, Y: data.Min.Y - hmScaleSlack},
		Max: vg.Point{X: c.Max.X, Y: data.Max.Y + hmScaleSlack},
	}}
	f.Scale.Draw(right)
}

// WriterTo returns an io.WriterTo that writes the composite, w wide and h
// high, in format (png, svg, pdf, ... as for *plot.Plot).
func (f *Composite) WriterTo(w, h vg.Length, format string) (io.WriterTo, error) {
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	f.Draw(draw.New(c))
	return c, nil
}

// hmScaleTicks ticks a colour scale from lo to hi (log10 units with log),
// leaving out ticks beyond the ends.
type hmScaleTicks struct {
	lo, hi float64
	log    bool
}

func (t hmScaleTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	if t.log {
		for _, tk := range (logTicks{}).Ticks(math.Pow(10, t.lo), math.Pow(10, t.hi)) {
			tk.Value = math.Log10(tk.Value)
			ts = append(ts, tk)
		}
	} else {
		ts = plot.DefaultTicks{}.Ticks(t.lo, t.hi)
	}
	kept := ts[:0]
	eps := (t.hi - t.lo) * 1e-9
	for _, tk := range ts {
		if tk.Value >= t.lo-eps && tk.Value <= t.hi+eps {
			kept = append(kept, tk)
		}
	}
	return kept
}

var _ plot.Ticker = hmScaleTicks{}

// HeatmapRows is the most rows one heatmap figure holds: a page's height
// of 8 pt names. A heatmap of more rows is split (HeatmapParts).
const HeatmapRows = 45

// HeatmapParts draws the heatmap of rows by cols (HeatmapWithScale) as
// figures of at most HeatmapRows rows each, w wide and as tall as their
// rows need: one figure named name, or several named name-1, name-2, ...
// and captioned caption with "(rows a-b of n)". The parts share one colour
// scale, the whole heatmap's (unless opts bounds it), so a colour means the
// same value in each; a part ends where the rows' family (a name's prefix
// before its first "-") changes when such a change is within a tenth of
// HeatmapRows of the even split. Errors are those of HeatmapWithScale.
func HeatmapParts(name, caption, title string, rows, cols []string, values [][]float64, opts HeatmapOptions, w vg.Length) ([]Named, error) {
	height := func(n int) vg.Length { return vg.Length(2.3+0.12*float64(n)) * vg.Inch }
	if len(rows) <= HeatmapRows {
		hm, err := HeatmapWithScale(title, rows, cols, values, opts)
		if err != nil {
			return nil, err
		}
		return []Named{{Name: name, Title: caption, Figure: hm, W: w, H: height(len(rows))}}, nil
	}
	if opts.Min == 0 && opts.Max == 0 {
		opts.Min, opts.Max = math.Inf(1), math.Inf(-1)
		for _, row := range values {
			for _, v := range row {
				if !math.IsNaN(v) && !math.IsInf(v, 0) && (!opts.Log || v > 0) {
					opts.Min, opts.Max = math.Min(opts.Min, v), math.Max(opts.Max, v)
				}
			}
		}
		if opts.Min > opts.Max {
			opts.Min, opts.Max = 0, 0
		}
	}
	family := func(s string) string { f, _, _ := strings.Cut(s, "-"); return f }
	parts := (len(rows) + HeatmapRows - 1) / HeatmapRows
	var figs []Named
	start := 0
	for k := 1; k <= parts; k++ {
		end := len(rows)
		if k < parts {
			end = k * len(rows) / parts
			slack := HeatmapRows / 10
			for d := 0; d <= slack; d++ {
				if e := end - d; e > start && family(rows[e]) != family(rows[e-1]) {
					end = e
					break
				}
				if e := end + d; e < len(rows) && e-start <= HeatmapRows && family(rows[e]) != family(rows[e-1]) {
					end = e
					break
				}
			}
		}
		span := fmt.Sprintf(" (rows %d-%d of %d)", start+1, end, len(rows))
		hm, err := HeatmapWithScale(title+span, rows[start:end], cols, values[start:end], opts)
		if err != nil {
			return nil, err
		}
		figs = append(figs, Named{Name: fmt.Sprintf("%s-%d", name, k), Title: caption + span, Figure: hm, W: w, H: height(end - start)})
		start = end
	}
	return figs, nil
}
