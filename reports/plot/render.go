package plot

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DPI is the resolution of the PNG figures: 300 dots per inch, as print
// wants; ScreenDPI that of the copy a report's page shows.
const (
	DPI       = 300
	ScreenDPI = 96
)

// Formats are the file formats Save writes and a report keeps, by
// extension: PNG (at DPI), SVG and PDF (fonts embedded), the last two
// vector formats for LaTeX (\includegraphics takes the PDF).
var Formats = []string{"png", "svg", "pdf"}

// drawer is a figure that draws itself on a canvas: *plot.Plot,
// *Composite and *Legended are.
type drawer interface{ Draw(draw.Canvas) }

var (
	_ drawer = (*plot.Plot)(nil)
	_ drawer = (*Composite)(nil)
	_ drawer = (*Legended)(nil)
)

// Render returns f drawn w wide and h high in format: "png" at DPI dots
// per inch, "svg", or "pdf" with its fonts embedded. A figure that does
// not draw itself on a canvas is written by its own WriterTo.
func Render(f Figure, w, h vg.Length, format string) (io.WriterTo, error) {
	d, ok := f.(drawer)
	if !ok {
		return f.WriterTo(w, h, format)
	}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case "png":
		return RenderPNG(f, w, h, DPI)
	case "svg":
		c = vgsvg.New(w, h)
	case "pdf":
		c = vgpdf.New(w, h)
	default:
		return nil, fmt.Errorf("plot: unknown format %q (png, svg or pdf)", format)
	}
	d.Draw(withMargin(draw.New(c)))
	return c, nil
}

// margin is the blank border of a rendered figure: gonum/plot draws tick
// labels up to the canvas's edge, where a rasterizer may cut their last
// pixels.
const margin = 4 * vg.Length(1)

// withMargin is c less margin on every side.
func withMargin(c draw.Canvas) draw.Canvas { return draw.Crop(c, margin, -margin, margin, -margin) }

// RenderPNG returns f drawn w wide and h high as a PNG of dpi dots per
// inch.
func RenderPNG(f Figure, w, h vg.Length, dpi int) (io.WriterTo, error) {
	d, ok := f.(drawer)
	if !ok {
		return f.WriterTo(w, h, "png")
	}
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	d.Draw(withMargin(draw.New(c)))
	return fastPNG{c}, nil
}

// fastPNG writes a canvas as a PNG compressed for speed: a 300-dpi figure
// encodes in a third of the default level's time, for files a little
// larger.
type fastPNG struct{ c *vgimg.Canvas }

func (p fastPNG) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(cw, p.c.Image())
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// Legended is a plot with its legend below its data area, in as many
// columns as the width takes, so the legend never covers the data nor
// stretches an axis to make room. Build one with WithLegendBelow.
type Legended struct {
	Plot *plot.Plot
}

// legendGap is the room between the plot and its legend, and between two
// columns of the legend.
const legendGap = 10 * vg.Length(1)

// WithLegendBelow is p with its legend drawn below it (Legended), and the
// height h grown by what the legend takes at width w, so the data area
// keeps its size. A plot without a legend is returned as it is.
func WithLegendBelow(p *plot.Plot, w, h vg.Length) (Figure, vg.Length) {
	l := legendLayoutOf(p.Legend, w)
	if l.entries == 0 {
		return p, h
	}
	return &Legended{Plot: p}, h + l.height
}

// legendLayout is where a legend of entries goes below a plot w wide:
// columns of rows entries, each column colWidth wide, all height high.
type legendLayout struct {
	entries, columns, rows int
	colWidth, rowHeight    vg.Length
	height                 vg.Length
}

// legendLayoutOf lays out leg below a plot w wide.
func legendLayoutOf(leg plot.Legend, w vg.Length) legendLayout {
	probe := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: 1000 * vg.Inch}}}
	r := leg.Rectangle(probe)
	entryHeight := leg.TextStyle.Rectangle("Xg").Max.Y
	if entryHeight <= 0 || r.Size().Y <= 0 {
		return legendLayout{}
	}
	rowHeight := entryHeight + leg.Padding
	n := int(math.Round(float64((r.Size().Y + leg.Padding) / rowHeight)))
	colWidth := r.Size().X + legendGap
	columns := max(1, min(n, int((w-legendGap)/colWidth)))
	rows := (n + columns - 1) / columns
	// Fill the columns evenly: 7 entries in 3 columns are 3, 3, 1 rows
	// otherwise; as 3, 2, 2 they read better, but gonum draws one
	// legend's entries in order, so rows stay ceil(n/columns) and the
	// columns drop to what those rows need.
	columns = (n + rows - 1) / rows
	return legendLayout{entries: n, columns: columns, rows: rows, colWidth: colWidth, rowHeight: rowHeight,
		height: vg.Length(rows)*rowHeight + 2*legendGap}
}

// Draw draws the plot on c, less the legend's height at the bottom, and
// the legend below it in columns.
func (f *Legended) Draw(c draw.Canvas) {
	p := f.Plot
	leg := p.Legend
	l := legendLayoutOf(leg, c.Size().X)
	if l.entries == 0 {
		p.Draw(c)
		return
	}
	// Draw the plot without its legend.
	bare := plot.NewLegend()
	bare.TextStyle, bare.Padding, bare.ThumbnailWidth = leg.TextStyle, leg.Padding, leg.ThumbnailWidth
	p.Legend = bare
	p.Draw(draw.Crop(c, 0, 0, l.height, 0))
	p.Legend = leg

	// Each column draws the whole legend shifted up so that its first
	// entry is at the column's top, on a canvas that keeps only what falls
	// within the column's rows.
	total := vg.Length(l.columns)*l.colWidth - legendGap
	left := c.Min.X + (c.Size().X-total)/2
	top := c.Min.Y + l.height - legendGap
	bottom := top - vg.Length(l.rows)*l.rowHeight
	// Entry r of a column (from 0) has its icon from top - descent -
	// (r+1) rows (less the padding) up to top - descent - r rows, and its
	// text's baseline within; entry rows, the next column's first, lies
	// wholly below the band.
	descent := leg.TextStyle.FontExtents().Descent
	for col := 0; col < l.columns; col++ {
		one := leg
		one.Top, one.Left = true, true
		one.XOffs = 0
		one.YOffs = vg.Length(col*l.rows) * l.rowHeight
		x := left + vg.Length(col)*l.colWidth
		band := &bandCanvas{Canvas: c.Canvas, minY: bottom - descent + leg.Padding/2, maxY: top}
		one.Draw(draw.Canvas{Canvas: band, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: bottom}, Max: vg.Point{X: x + l.colWidth, Y: top}}})
	}
}

// WriterTo writes the figure, w wide and h high, in format (Render).
func (f *Legended) WriterTo(w, h vg.Length, format string) (io.WriterTo, error) {
	return Render(f, w, h, format)
}

// bandCanvas passes on to Canvas only what is drawn between minY and maxY
// (the middle of a path's extent, a text's baseline): one column of a
// legend drawn whole.
type bandCanvas struct {
	vg.Canvas
	minY, maxY vg.Length
	offset     []vg.Point // translations pushed, innermost last
	rotated    int        // > 0 inside a rotation: everything passes
}

func (b *bandCanvas) in(y vg.Length) bool {
	if b.rotated > 0 {
		return true
	}
	for _, o := range b.offset {
		y += o.Y
	}
	return y >= b.minY && y <= b.maxY
}

func (b *bandCanvas) Push() {
	b.offset = append(b.offset, vg.Point{})
	b.Canvas.Push()
}

func (b *bandCanvas) Pop() {
	if n := len(b.offset); n > 0 {
		if b.offset[n-1].X < 0 { // marks a rotation
			b.rotated--
		}
		b.offset = b.offset[:n-1]
	}
	b.Canvas.Pop()
}

func (b *bandCanvas) Translate(pt vg.Point) {
	if n := len(b.offset); n > 0 {
		b.offset[n-1].Y += pt.Y
	}
	b.Canvas.Translate(pt)
}

func (b *bandCanvas) Rotate(rad float64) {
	if n := len(b.offset); n > 0 && b.offset[n-1].X >= 0 {
		b.offset[n-1].X = -1
		b.rotated++
	}
	b.Canvas.Rotate(rad)
}

func (b *bandCanvas) Stroke(p vg.Path) {
	if lo, hi, ok := pathY(p); ok && b.in((lo+hi)/2) {
		b.Canvas.Stroke(p)
	}
}

func (b *bandCanvas) Fill(p vg.Path) {
	if lo, hi, ok := pathY(p); ok && b.in((lo+hi)/2) {
		b.Canvas.Fill(p)
	}
}

func (b *bandCanvas) FillString(f font.Face, pt vg.Point, text string) {
	if b.in(pt.Y) {
		b.Canvas.FillString(f, pt, text)
	}
}

func (b *bandCanvas) DrawImage(r vg.Rectangle, img image.Image) {
	if b.in((r.Min.Y + r.Max.Y) / 2) {
		b.Canvas.DrawImage(r, img)
	}
}

// pathY is the vertical extent of a path (an arc's by its centre and
// radius).
func pathY(p vg.Path) (lo, hi vg.Length, ok bool) {
	for _, c := range p {
		if c.Type == vg.CloseComp {
			continue
		}
		y0, y1 := c.Pos.Y, c.Pos.Y
		if c.Type == vg.ArcComp {
			y0, y1 = c.Pos.Y-c.Radius, c.Pos.Y+c.Radius
		}
		if !ok {
			lo, hi, ok = y0, y1, true
			continue
		}
		lo, hi = min(lo, y0), max(hi, y1)
	}
	return lo, hi, ok
}

// seriesColors are Okabe and Ito's colours that colour-blind readers tell
// apart (Color Universal Design, 2008), with grey for their yellow, black
// last.
var seriesColors = []color.Color{
	color.NRGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.NRGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.NRGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.NRGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.NRGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.NRGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.NRGBA{0x66, 0x66, 0x66, 0xff}, // grey (in place of Okabe-Ito's yellow, faint on white)
	color.NRGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// seriesDashes are the line patterns, in points: solid, dashed, dotted,
// dash-dot, long dash.
var seriesDashes = [][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(2)},
	{vg.Points(1), vg.Points(2)},
	{vg.Points(5), vg.Points(2), vg.Points(1), vg.Points(2)},
	{vg.Points(9), vg.Points(3)},
}

// seriesShapes are the glyphs of the series' points.
var seriesShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{},
}

// Style is the i-th series' colour, line pattern and glyph: colour i mod
// 8, pattern i mod 5 and glyph i mod 7, so no two of the first 280 series
// look alike, and neighbours differ in all three (in grey print too).
func Style(i int) (color.Color, []vg.Length, draw.GlyphDrawer) {
	i = max(i, 0)
	return seriesColors[i%len(seriesColors)], seriesDashes[i%len(seriesDashes)], seriesShapes[i%len(seriesShapes)]
}
