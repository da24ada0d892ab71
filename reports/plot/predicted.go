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

// PredictedMeasured draws predicted against measured times (ns), one small
// translucent point per pair, on log-log axes, with the line y = x and, for
// band > 0, the lines y = x (1 ± band). Pairs that are not both positive
// and finite are skipped. It is an error (ErrLength) when the slices'
// lengths differ, ErrNoData when no pair can be drawn, and ErrValue when
// band is not in [0, 1).
func PredictedMeasured(title string, predicted, measured []float64, band float64) (*plot.Plot, error) {
	if len(predicted) != len(measured) {
		return nil, fmt.Errorf("%w: %d predicted, %d measured", ErrLength, len(predicted), len(measured))
	}
	if !(band >= 0 && band < 1) {
		return nil, fmt.Errorf("%w: band %g is not in [0, 1)", ErrValue, band)
	}
	var xys plotter.XYs
	lo, hi := math.Inf(1), 0.0
	for i := range predicted {
		p, m := predicted[i], measured[i]
		if !positive(p) || !positive(m) {
			continue
		}
		xys = append(xys, plotter.XY{X: m, Y: p})
		lo, hi = math.Min(lo, math.Min(p, m)), math.Max(hi, math.Max(p, m))
	}
	if len(xys) == 0 {
		return nil, fmt.Errorf("%w: no positive pair", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "measured level time (ns)"
	p.Y.Label.Text = "predicted level time (ns)"
	logAxes(p, true, true)
	p.Legend.Top = true
	p.Legend.Left = true
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(0.8)
	sc.GlyphStyle.Color = color.NRGBA{R: 31, G: 119, B: 180, A: 60}
	p.Add(sc)
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
	if err := line(1, false, "predicted = measured"); err != nil {
		return nil, err
	}
	if band > 0 {
		label := fmt.Sprintf("±%g %%", math.Round(band*1000)/10)
		if err := line(1+band, true, label); err != nil {
			return nil, err
		}
		if err := line(1-band, true, ""); err != nil {
			return nil, err
		}
	}
	p.Legend.Add(fmt.Sprintf("%d (level, implementation) pairs", len(xys)), sc)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo*0.8, hi*1.25, lo*0.8, hi*1.25
	return p, nil
}
