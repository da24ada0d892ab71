package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PredictedMeasured draws predicted against measured times (given in ns,
// drawn in µs as the tables print them), one small translucent point per
// pair (binned beyond BinAbove pairs, as Against says), on log-log axes,
// with the line y = x and, for band > 0, the lines y = x (1 ± band). Pairs
// that are not both positive and finite are skipped. It is an error (ErrLength) when the slices'
// lengths differ, ErrNoData when no pair can be drawn, and ErrValue when
// band is not in [0, 1).
func PredictedMeasured(title string, predicted, measured []float64, band float64) (*plot.Plot, error) {
	us := func(ns []float64) []float64 {
		out := make([]float64, len(ns))
		for i, v := range ns {
			out[i] = v / 1e3
		}
		return out
	}
	return Against(AgainstSpec{Title: title, XLabel: "measured level time (µs)", YLabel: "predicted level time (µs)",
		Diagonal: "predicted = measured", Band: band, Small: true},
		us(measured), []Series{{Name: "(level, implementation) pairs", Values: us(predicted)}})
}

// AgainstSpec describes an Against figure.
type AgainstSpec struct {
	Title, XLabel, YLabel string
	// Diagonal labels the line y = x; Band > 0 adds y = x (1 ± Band).
	Diagonal string
	Band     float64
	// Small draws many small translucent points (thousands of pairs);
	// otherwise each point is a solid marker. A series of more than
	// BinAbove pairs is drawn binned instead (Density): the figure looks
	// the same, and its SVG and PDF hold at most DensityBins² cells, not a
	// shape per pair.
	Small bool
}

// BinAbove is the most pairs Against draws as points; more are binned.
const BinAbove = 5000

// againstColors are the series' colours (matplotlib's first four).
var againstColors = []color.NRGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}}

// Against draws each series' values against x, pair by pair, on log-log
// axes with the line y = x (and the band of spec). A pair that is not both
// positive and finite is skipped; each series' legend entry counts its
// points. ErrLength when a series is not as long as x, ErrNoData when no
// pair can be drawn, ErrValue when the band is not in [0, 1).
func Against(spec AgainstSpec, x []float64, series []Series) (*plot.Plot, error) {
	if !(spec.Band >= 0 && spec.Band < 1) {
		return nil, fmt.Errorf("%w: band %g is not in [0, 1)", ErrValue, spec.Band)
	}
	p := plot.New()
	p.Title.Text = spec.Title
	p.X.Label.Text, p.Y.Label.Text = spec.XLabel, spec.YLabel
	logAxes(p, true, true)
	p.Legend.Top, p.Legend.Left = true, true
	lo, hi := math.Inf(1), 0.0
	type drawn struct {
		sc    *plotter.Scatter
		n     int
		s     Series
		thumb plot.Thumbnailer
	}
	var all []drawn
	for i, s := range series {
		if len(s.Values) != len(x) {
			return nil, fmt.Errorf("%w: %d %s, %d x values", ErrLength, len(s.Values), s.Name, len(x))
		}
		var xys plotter.XYs
		for j, v := range s.Values {
			if !positive(v) || !positive(x[j]) {
				continue
			}
			xys = append(xys, plotter.XY{X: x[j], Y: v})
			lo, hi = math.Min(lo, math.Min(v, x[j])), math.Max(hi, math.Max(v, x[j]))
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		c := againstColors[i%len(againstColors)]
		if spec.Small && len(xys) > BinAbove {
			d := NewDensity(xys, c)
			p.Add(d)
			name := s.Name + fmt.Sprintf(" (binned %d × %d on the log axes; darker: more pairs)", DensityBins, DensityBins)
			all = append(all, drawn{nil, len(xys), Series{Name: name}, d})
			continue
		}
		if spec.Small {
			c.A = 60
			sc.GlyphStyle.Radius = vg.Points(0.8)
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
		} else {
			sc.GlyphStyle.Radius = vg.Points(2.2)
			sc.GlyphStyle.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}}[i%4]
		}
		sc.GlyphStyle.Color = c
		p.Add(sc)
		all = append(all, drawn{sc, len(xys), s, sc})
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: no positive pair", ErrNoData)
	}
	line := func(f float64, dashed bool, label string) error {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo * f}, {X: hi, Y: hi * f}})
		if err != nil {
			return err
		}
		l.Color = color.Black
		l.Width = vg.Points(1)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		}
		p.Add(l)
		if label != "" {
			p.Legend.Add(label, l)
		}
		return nil
	}
	if err := line(1, false, spec.Diagonal); err != nil {
		return nil, err
	}
	if spec.Band > 0 {
		label := fmt.Sprintf("±%g %%", math.Round(spec.Band*1000)/10)
		if err := line(1+spec.Band, true, label); err != nil {
			return nil, err
		}
		if err := line(1-spec.Band, true, ""); err != nil {
			return nil, err
		}
	}
	for _, d := range all {
		p.Legend.Add(fmt.Sprintf("%d %s", d.n, d.s.Name), d.thumb)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo*0.8, hi*1.25, lo*0.8, hi*1.25
	return p, nil
}

// DensityBins is how many bins Density cuts each axis into.
const DensityBins = 120

// Density draws many (x, y) pairs on log-log axes as a grid of cells, each
// as dark as the number of pairs in it (its colour's opacity rising with
// the logarithm of the count): what thousands of translucent points look
// like, in at most DensityBins² shapes. Build one with NewDensity.
type Density struct {
	counts                 map[[2]int]int
	most                   int
	lx, ly                 float64 // log10 of the lowest x and y
	stepX, stepY           float64 // a bin's width in log10 units
	color                  color.NRGBA
	xmin, xmax, ymin, ymax float64
}

// NewDensity bins xys, whose values must be positive, into DensityBins by
// DensityBins cells between their smallest and largest x and y, in log10
// units. It costs one pass over the pairs.
func NewDensity(xys plotter.XYs, c color.NRGBA) *Density {
	d := &Density{counts: map[[2]int]int{}, color: c,
		xmin: math.Inf(1), ymin: math.Inf(1), xmax: math.Inf(-1), ymax: math.Inf(-1)}
	for _, p := range xys {
		d.xmin, d.xmax = math.Min(d.xmin, p.X), math.Max(d.xmax, p.X)
		d.ymin, d.ymax = math.Min(d.ymin, p.Y), math.Max(d.ymax, p.Y)
	}
	d.lx, d.ly = math.Log10(d.xmin), math.Log10(d.ymin)
	d.stepX = math.Max(math.Log10(d.xmax)-d.lx, 1e-9) / DensityBins
	d.stepY = math.Max(math.Log10(d.ymax)-d.ly, 1e-9) / DensityBins
	for _, p := range xys {
		i := min(int((math.Log10(p.X)-d.lx)/d.stepX), DensityBins-1)
		j := min(int((math.Log10(p.Y)-d.ly)/d.stepY), DensityBins-1)
		d.counts[[2]int{i, j}]++
		d.most = max(d.most, d.counts[[2]int{i, j}])
	}
	return d
}

// Plot draws the non-empty cells.
func (d *Density) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for k, n := range d.counts {
		col := d.color
		col.A = uint8(40 + 215*math.Log1p(float64(n))/math.Log1p(float64(d.most)))
		x0, x1 := math.Pow(10, d.lx+float64(k[0])*d.stepX), math.Pow(10, d.lx+float64(k[0]+1)*d.stepX)
		y0, y1 := math.Pow(10, d.ly+float64(k[1])*d.stepY), math.Pow(10, d.ly+float64(k[1]+1)*d.stepY)
		rect := []vg.Point{{X: trX(x0), Y: trY(y0)}, {X: trX(x1), Y: trY(y0)}, {X: trX(x1), Y: trY(y1)}, {X: trX(x0), Y: trY(y1)}}
		c.FillPolygon(col, c.ClipPolygonXY(rect))
	}
}

// DataRange is the pairs' extent.
func (d *Density) DataRange() (xmin, xmax, ymin, ymax float64) {
	return d.xmin, d.xmax, d.ymin, d.ymax
}

// Thumbnail draws a legend swatch: a cell of middling density.
func (d *Density) Thumbnail(c *draw.Canvas) {
	col := d.color
	col.A = 160
	r := c.Rectangle
	h := (r.Max.Y - r.Min.Y) / 2
	mid := (r.Max.Y + r.Min.Y) / 2
	c.FillPolygon(col, []vg.Point{{X: r.Min.X, Y: mid - h/2}, {X: r.Max.X, Y: mid - h/2}, {X: r.Max.X, Y: mid + h/2}, {X: r.Min.X, Y: mid + h/2}})
}

var (
	_ plot.Plotter     = (*Density)(nil)
	_ plot.DataRanger  = (*Density)(nil)
	_ plot.Thumbnailer = (*Density)(nil)
)
