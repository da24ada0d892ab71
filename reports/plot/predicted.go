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
	return Against(AgainstSpec{Title: title, XLabel: "measured level time (ns)", YLabel: "predicted level time (ns)",
		Diagonal: "predicted = measured", Band: band, Small: true},
		measured, []Series{{Name: "(level, implementation) pairs", Values: predicted}})
}

// AgainstSpec describes an Against figure.
type AgainstSpec struct {
	Title, XLabel, YLabel string
	// Diagonal labels the line y = x; Band > 0 adds y = x (1 ± Band).
	Diagonal string
	Band     float64
	// Small draws many small translucent points (thousands of pairs);
	// otherwise each point is a solid marker.
	Small bool
}

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
		sc *plotter.Scatter
		n  int
		s  Series
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
		all = append(all, drawn{sc, len(xys), s})
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
		p.Legend.Add(fmt.Sprintf("%d %s", d.n, d.s.Name), d.sc)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo*0.8, hi*1.25, lo*0.8, hi*1.25
	return p, nil
}
