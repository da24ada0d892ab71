package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphperf/graphperf/model/roofline"
)

// RooflinePoint is one kernel (or dataset, or BFS level) at one memory level.
type RooflinePoint struct {
	Label     string         // legend group, e.g. "rmat-s18-e8" or "level 3"
	Level     roofline.Level // which memory level's intensity
	Intensity float64        // warp instructions per transaction
	GIPS      float64        // achieved warp GIPS
}

// RooflinePoints returns the points of an analysed kernel, one per memory
// level of a.Levels: the level's Intensity and the kernel's Achieved warp
// instructions per second in GIPS, all under label. A level where the
// kernel moved nothing has an infinite intensity and no place on a
// logarithmic axis: it is left out, as is every level when Achieved is not
// positive and finite.
func RooflinePoints(label string, a roofline.Analysis) []RooflinePoint {
	gips := a.Achieved / 1e9
	if !positive(gips) {
		return nil
	}
	var points []RooflinePoint
	for _, l := range a.Levels {
		if !positive(l.Intensity) {
			continue
		}
		points = append(points, RooflinePoint{Label: label, Level: l.Level, Intensity: l.Intensity, GIPS: gips})
	}
	return points
}

// InstructionRoofline draws the hierarchical instruction roofline r and
// kernel points on it, both axes logarithmic (seed 001 §3.4, figure 1 for
// the roofline alone and figures 9-12 with datasets placed on it): x is
// the instruction intensity in warp instructions per 32-byte transaction,
// y the performance in warp GIPS,
//
//	GIPS <= min(peak GIPS, peak GTXN/s_level x intensity_level)   (eq. 1)
//
// The compute ceiling is a horizontal line from the lowest ridge point
// on; each memory level's ceiling is a diagonal up to its ridge point,
// labelled along the line with its name and GTXN/s. Points take one
// marker shape per memory level (L1 triangle, L2 square, DRAM circle) and
// one colour per Label, in order of first appearance (colours repeat
// after 7 labels); one kernel thus shows once per level it was counted at,
// at the same height. The legend, bottom right under the compute ceiling,
// lists the labels and then the levels. points may be empty.
//
// It is an error (ErrNoData) when r is nil or has no memory ceiling, and
// ErrValue when a ceiling, an intensity or a performance is not positive
// and finite, or a point's level is not a memory level.
func InstructionRoofline(title string, r *roofline.Instruction, points []RooflinePoint) (*plot.Plot, error) {
	if r == nil || len(r.Memory) == 0 {
		return nil, fmt.Errorf("%w: no roofline or no memory ceiling", ErrNoData)
	}
	compute := r.WarpInstructionsPerSecond / 1e9
	if !positive(compute) {
		return nil, fmt.Errorf("%w: %s compute ceiling %g warp GIPS", ErrValue, r.Machine, compute)
	}
	ceilings, minRidge, maxRidge, err := roofCeilings(r, compute)
	if err != nil {
		return nil, err
	}
	// The axes: two decades left of the lowest ridge (where the diagonals
	// are well below the compute ceiling), one right of the highest, and
	// down three decades from the compute ceiling, widened to the points,
	// in whole decades.
	xlo, xhi := minRidge/100, maxRidge*10
	ylo, yhi := compute/1000, compute
	var labels []string
	levelSeen := map[roofline.Level]bool{}
	for i, pt := range points {
		if !positive(pt.Intensity) || !positive(pt.GIPS) {
			return nil, fmt.Errorf("%w: point %d (%s, %s): intensity %g, %g GIPS", ErrValue, i, pt.Label, pt.Level, pt.Intensity, pt.GIPS)
		}
		if _, ok := roofShapes[pt.Level]; !ok {
			return nil, fmt.Errorf("%w: point %d (%s): level %q is not L1, L2 or DRAM", ErrValue, i, pt.Label, pt.Level)
		}
		xlo, xhi = math.Min(xlo, pt.Intensity), math.Max(xhi, pt.Intensity)
		ylo, yhi = math.Min(ylo, pt.GIPS), math.Max(yhi, pt.GIPS)
		if !slices.Contains(labels, pt.Label) {
			labels = append(labels, pt.Label)
		}
		levelSeen[pt.Level] = true
	}
	decade := func(v float64, round func(float64) float64) float64 {
		return math.Pow(10, round(math.Log10(v)))
	}
	xlo, xhi = decade(xlo, math.Floor), decade(xhi*1.01, math.Ceil)
	ylo = decade(ylo, math.Floor)
	// Room above the compute ceiling for its label.
	yhi = math.Max(yhi*1.5, compute*3)

	p := plot.New()
	p.Title.Text = title
	if title == "" {
		p.Title.Text = strings.ToUpper(r.Machine) + ": instruction roofline"
	}
	p.X.Label.Text = "warp instructions / transaction"
	p.Y.Label.Text = "warp GIPS"
	logAxes(p, true, true)

	ceilingStyle := draw.LineStyle{Color: roofCeilingColor, Width: vg.Points(1.5)}
	label := p.Legend.TextStyle
	label.Color = roofLabelColor
	label.Font.Size = vg.Points(7.5)
	for i, c := range ceilings {
		// From where the diagonal enters the plot to the ridge point.
		x0 := math.Max(xlo, ylo/c.gtxn)
		l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: x0 * c.gtxn}, {X: c.ridge, Y: compute}})
		if err != nil {
			return nil, err
		}
		l.LineStyle = ceilingStyle
		p.Add(l)
		// The label starts a little way up the line: above it for the
		// fastest level, below it for the slowest, so that two close
		// diagonals keep theirs apart; levels between are above, further
		// up.
		at, below := 0.1, false
		switch {
		case i == 0:
		case i == len(ceilings)-1:
			below = true
		default:
			at = 0.45
		}
		x := x0 * math.Pow(c.ridge/x0, at)
		p.Add(&roofLabel{x: x, y: x * c.gtxn, slope: 1, below: below,
			text: fmt.Sprintf("%s %.4g GTXN/s", c.level, c.gtxn), style: label})
	}
	top, err := plotter.NewLine(plotter.XYs{{X: minRidge, Y: compute}, {X: xhi, Y: compute}})
	if err != nil {
		return nil, err
	}
	top.LineStyle = ceilingStyle
	p.Add(top)
	computeLabel := label
	computeLabel.XAlign = text.XRight
	p.Add(&roofLabel{x: xhi / 1.1, y: compute, text: fmt.Sprintf("compute %.4g warp GIPS", compute), style: computeLabel})

	if err := addRoofPoints(p, labels, levelSeen, points); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = xlo, xhi
	p.Y.Min, p.Y.Max = ylo, yhi
	return p, nil
}

// addRoofPoints adds the points to p, one scatter per (label, level), so
// each gets its colour and shape; and legend entries per label (a colour
// swatch) and per level seen (a black marker).
func addRoofPoints(p *plot.Plot, labels []string, levelSeen map[roofline.Level]bool, points []RooflinePoint) error {
	for li, name := range labels {
		for _, level := range roofline.MemoryLevels {
			var xys plotter.XYs
			for _, pt := range points {
				if pt.Label == name && pt.Level == level {
					xys = append(xys, plotter.XY{X: pt.Intensity, Y: pt.GIPS})
				}
			}
			if len(xys) == 0 {
				continue
			}
			s, err := plotter.NewScatter(xys)
			if err != nil {
				return err
			}
			s.Color, s.Shape, s.Radius = seriesColors[li%len(seriesColors)], roofShapes[level], vg.Points(2.5)
			p.Add(s)
		}
		swatch, err := plotter.NewLine(plotter.XYs{{}, {X: 1, Y: 1}})
		if err != nil {
			return err
		}
		swatch.Color, swatch.Width = seriesColors[li%len(seriesColors)], vg.Points(4)
		p.Legend.Add(name, swatch)
	}
	for _, level := range roofline.MemoryLevels {
		if !levelSeen[level] {
			continue
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}})
		if err != nil {
			return err
		}
		s.Color, s.Shape, s.Radius = color.Black, roofShapes[level], vg.Points(2.5)
		p.Legend.Add(string(level)+" intensity", s)
	}
	return nil
}

// roofCeiling is one memory ceiling of an instruction roofline.
type roofCeiling struct {
	level roofline.Level
	gtxn  float64 // 1e9 transactions per second
	ridge float64
}

// roofCeilings are r's memory ceilings under the compute ceiling (warp
// GIPS), with the least and greatest ridge point.
func roofCeilings(r *roofline.Instruction, compute float64) (ceilings []roofCeiling, minRidge, maxRidge float64, err error) {
	ceilings = make([]roofCeiling, len(r.Memory))
	minRidge, maxRidge = math.Inf(1), 0.0
	for i, c := range r.Memory {
		gtxn := c.TransactionsPerSecond() / 1e9
		if !positive(gtxn) {
			return nil, 0, 0, fmt.Errorf("%w: %s %s ceiling %g GTXN/s", ErrValue, r.Machine, c.Level, gtxn)
		}
		ceilings[i] = roofCeiling{c.Level, gtxn, compute / gtxn}
		minRidge = math.Min(minRidge, compute/gtxn)
		maxRidge = math.Max(maxRidge, compute/gtxn)
	}
	return ceilings, minRidge, maxRidge, nil
}

// roofCeilingColor draws the ceilings, roofLabelColor their labels.
var (
	roofCeilingColor = color.Gray{Y: 0x50}
	roofLabelColor   = color.Gray{Y: 0x20}
)

// roofShapes are the markers of the memory levels' points.
var roofShapes = map[roofline.Level]draw.GlyphDrawer{
	roofline.L1:   draw.TriangleGlyph{},
	roofline.L2:   draw.BoxGlyph{},
	roofline.DRAM: draw.CircleGlyph{},
}

// roofLabel writes text along a ceiling of the given slope in decades per
// decade (0 for the compute ceiling, 1 for a bandwidth ceiling), at (x, y)
// on it and just above it, or below. The angle of a slope on the page
// depends on the axes' lengths, so it is found when drawn. The style's
// XAlign says which end of the text (x, y) is. Unlike plotter.Labels, it
// asks for no room at the edges of the plot.
type roofLabel struct {
	x, y  float64
	slope float64
	below bool
	text  string
	style text.Style
}

func (l *roofLabel) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x0, y0 := trX(l.x), trY(l.y)
	x1, y1 := trX(l.x*10), trY(l.y*math.Pow(10, l.slope))
	angle := math.Atan2(float64(y1-y0), float64(x1-x0))
	sty := l.style
	sty.Rotation = angle
	// Lift the text off the line, perpendicular to it.
	lift := vg.Points(1.5)
	sty.YAlign = text.YBottom
	if l.below {
		lift, sty.YAlign = -lift, text.YTop
	}
	pt := vg.Point{
		X: x0 - lift*vg.Length(math.Sin(angle)),
		Y: y0 + lift*vg.Length(math.Cos(angle)),
	}
	c.FillText(sty, pt, l.text)
}

var _ plot.Plotter = (*roofLabel)(nil)
