package plot

import "gonum.org/v1/plot/vg"

// Named is one figure of a command's result as the command writes it: the
// file stem (Name, as bundle.NameRE accepts), the caption a report prints
// under it (Title), the drawing and its size. The functions that draw a
// result's figures (such as OMFigures) return them in the order they are
// written; cmd/graphperf saves them with --plot DIR or hands them to a
// report cell.
type Named struct {
	Name, Title string
	Figure      Figure
	W, H        vg.Length
}

// Standard size of most figures: 5 by 3.75 inches.
const (
	StdW = 5 * vg.Inch
	StdH = 3.75 * vg.Inch
)
