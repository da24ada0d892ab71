package plot

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Named is one figure of a command's result as the command writes it: the
// file stem (Name, as bundle.NameRE accepts), the caption a report prints
// under it (Title), the drawing and its size. The functions that draw a
// result's figures (such as OMFigures) return them in the order they are
// written; cmd/graphperf saves them with --plot DIR or hands them to a
// report cell, each sized for a page by ForPage.
type Named struct {
	Name, Title string
	Figure      Figure
	W, H        vg.Length
}

// Page sizes. A figure is drawn at the size it is printed, so its 8-10 pt
// labels read as the thesis's text does: StdW is an article's text width
// (345 pt), MaxW and MaxH an A4 page's text block with 2.5 cm margins, less
// room for the caption.
const (
	StdW = 4.8 * vg.Inch
	StdH = 3.6 * vg.Inch
	MaxW = 6.3 * vg.Inch
	MaxH = 8.5 * vg.Inch
)

// ForPage is f sized for a page: a figure wider than MaxW scaled down to
// it, keeping its proportions; a plot's legend moved below it
// (WithLegendBelow, the height grown by the legend's); then a figure
// taller than MaxH cut to it. (A heatmap too tall for a page is split
// into several figures where it is drawn: HeatmapParts.)
func ForPage(f Named) Named {
	if f.W > MaxW {
		f.H = f.H * MaxW / f.W
		f.W = MaxW
	}
	if p, ok := f.Figure.(*plot.Plot); ok {
		f.Figure, f.H = WithLegendBelow(p, f.W, f.H)
	}
	f.H = min(f.H, MaxH)
	return f
}
