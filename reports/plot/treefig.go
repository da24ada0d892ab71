package plot

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/graphperf/graphperf/model/tree"
)

// TreeDiagram draws the decision tree c down to maxDepth edges from the
// root (0 or less: the whole tree), the analogue of the decision trees of
// seed 004 ch. 7 (§7.1, trees choosing an implementation per graph or BFS
// level). Each split is a box "feature ≤ threshold" with the number of
// training rows that reached it; each leaf a box with its class and count,
// filled in the class's colour; edges are labelled "yes" (left child,
// feature ≤ threshold) and "no" (right). A subtree below maxDepth is drawn
// as a grey leaf "…" with its count. Nodes sit one row per depth, leaves
// side by side in left-to-right order and each split centred over its
// children. Counts are left out for a classifier without statistics.
//
// Labels are 7 pt, 6 pt for more than 8 leaves drawn; allow about an inch of
// width per leaf. It is an error (ErrNoData) when c is nil or has no nodes,
// and ErrShape when a child index is out of range or not larger than its
// parent's (tree.Classifier's preorder). It takes O(nodes drawn) time.
func TreeDiagram(title string, c *tree.Classifier, maxDepth int) (*plot.Plot, error) {
	if c == nil || len(c.Nodes) == 0 {
		return nil, fmt.Errorf("%w: tree %q has no nodes", ErrNoData, title)
	}
	d := &treeDrawer{c: c, maxDepth: maxDepth}
	if _, err := d.layout(0, 0, -1, false); err != nil {
		return nil, fmt.Errorf("tree %q: %w", title, err)
	}
	d.style = plot.New().X.Tick.Label
	d.style.Font.Size = vg.Points(7)
	if d.leaves > 8 {
		d.style.Font.Size = vg.Points(6)
	}
	d.style.Rotation = 0
	d.style.XAlign, d.style.YAlign = draw.XCenter, draw.YCenter

	p := plot.New()
	hmFonts(p)
	p.Title.Text = title
	p.Add(d)
	p.HideAxes()
	p.X.Padding, p.Y.Padding = 0, 0
	return p, nil
}

// treeBox is one node as drawn.
type treeBox struct {
	node      int     // index in Classifier.Nodes
	x, depth  float64 // position: leaf order and depth (drawn at -depth)
	parent    int     // index in treeDrawer.boxes; -1 for the root
	left      bool    // the parent's left ("yes") child
	lines     []string
	fill      color.Color
	collapsed bool
}

// treeDrawer lays out and draws a tree.Classifier as a plot.Plotter.
type treeDrawer struct {
	c        *tree.Classifier
	maxDepth int
	boxes    []treeBox
	leaves   int
	depth    int
	style    text.Style
}

// layout places node i at depth and its subtree, returning its x.
func (d *treeDrawer) layout(i, depth, parent int, left bool) (float64, error) {
	n := &d.c.Nodes[i]
	b := treeBox{node: i, depth: float64(depth), parent: parent, left: left}
	count := ""
	if i < len(d.c.Stats) {
		count = "n = " + strconv.Itoa(d.c.Stats[i].Samples)
	}
	d.depth = max(d.depth, depth)
	k := len(d.boxes)
	d.boxes = append(d.boxes, b)
	switch {
	case n.Leaf() || (d.maxDepth > 0 && depth >= d.maxDepth):
		b.x = float64(d.leaves)
		d.leaves++
		if n.Leaf() {
			b.lines = []string{d.className(n.Class)}
			b.fill = treeLight(seriesColors[int(n.Class)%len(seriesColors)])
		} else {
			b.lines = []string{"…"}
			b.fill = color.Gray{Y: 0xdd}
			b.collapsed = true
		}
	default:
		for _, child := range []int32{n.Left, n.Right} {
			if int(child) <= i || int(child) >= len(d.c.Nodes) {
				return 0, fmt.Errorf("%w: node %d has child %d of %d nodes", ErrShape, i, child, len(d.c.Nodes))
			}
		}
		xl, err := d.layout(int(n.Left), depth+1, k, true)
		if err != nil {
			return 0, err
		}
		xr, err := d.layout(int(n.Right), depth+1, k, false)
		if err != nil {
			return 0, err
		}
		b.x = (xl + xr) / 2
		b.lines = []string{d.featureName(n.Feature) + " ≤ " + strconv.FormatFloat(n.Threshold, 'g', 4, 64)}
		b.fill = color.White
	}
	if count != "" {
		b.lines = append(b.lines, count)
	}
	d.boxes[k] = b
	return b.x, nil
}

func (d *treeDrawer) className(k int32) string {
	if int(k) < len(d.c.Classes) {
		return d.c.Classes[k]
	}
	return "class " + strconv.Itoa(int(k))
}

func (d *treeDrawer) featureName(f int32) string {
	if int(f) < len(d.c.Features) {
		return d.c.Features[f]
	}
	return "x" + strconv.Itoa(int(f))
}

// treeLight mixes c with three parts white, a fill light enough for black
// text.
func treeLight(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8 + 3*0xff) / 4) }
	return color.RGBA{mix(r), mix(g), mix(b), 0xff}
}

// size returns the half width and half height of box b's rectangle.
func (d *treeDrawer) size(b *treeBox) (vg.Length, vg.Length) {
	w := vg.Length(0)
	for _, l := range b.lines {
		w = max(w, d.style.Width(l))
	}
	h := d.style.Height("Mg") * vg.Length(len(b.lines))
	pad := vg.Points(3)
	return w/2 + pad, h/2 + pad
}

// Plot draws the edges, their labels and the boxes.
func (d *treeDrawer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(b *treeBox) vg.Point { return vg.Point{X: trX(b.x), Y: trY(-b.depth)} }
	edge := draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(0.8)}
	small := d.style
	small.Font.Size = d.style.Font.Size - vg.Points(1)
	small.Color = color.Gray{Y: 0x50}
	for k := range d.boxes {
		b := &d.boxes[k]
		if b.parent < 0 {
			continue
		}
		pb := &d.boxes[b.parent]
		_, ph := d.size(pb)
		_, ch := d.size(b)
		from, to := at(pb), at(b)
		from.Y -= ph
		to.Y += ch
		c.StrokeLine2(edge, from.X, from.Y, to.X, to.Y)
		mid := vg.Point{X: (from.X + to.X) / 2, Y: (from.Y + to.Y) / 2}
		label, gap := "yes", -vg.Points(3)
		small.XAlign = draw.XRight
		if !b.left {
			label, gap = "no", vg.Points(3)
			small.XAlign = draw.XLeft
		}
		c.FillText(small, vg.Point{X: mid.X + gap, Y: mid.Y}, label)
	}
	border := draw.LineStyle{Color: color.Gray{Y: 0x40}, Width: vg.Points(0.6)}
	for k := range d.boxes {
		b := &d.boxes[k]
		w, h := d.size(b)
		pt := at(b)
		rect := []vg.Point{
			{X: pt.X - w, Y: pt.Y - h}, {X: pt.X + w, Y: pt.Y - h},
			{X: pt.X + w, Y: pt.Y + h}, {X: pt.X - w, Y: pt.Y + h},
		}
		c.FillPolygon(b.fill, rect)
		c.StrokeLines(border, append(rect, rect[0]))
		lineH := d.style.Height("Mg")
		top := pt.Y + lineH*vg.Length(len(b.lines))/2 - lineH/2
		for j, l := range b.lines {
			c.FillText(d.style, vg.Point{X: pt.X, Y: top - lineH*vg.Length(j)}, l)
		}
	}
}

// DataRange spans the leaves' order and the depths.
func (d *treeDrawer) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(max(d.leaves-1, 0)), -float64(d.depth), 0
}

// GlyphBoxes are the boxes with a margin, so that gonum/plot keeps them
// inside the figure, clear of its edges.
func (d *treeDrawer) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	gb := make([]plot.GlyphBox, len(d.boxes))
	margin := vg.Points(4)
	for k := range d.boxes {
		b := &d.boxes[k]
		w, h := d.size(b)
		w, h = w+margin, h+margin
		gb[k] = plot.GlyphBox{
			X: p.X.Norm(b.x), Y: p.Y.Norm(-b.depth),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -w, Y: -h}, Max: vg.Point{X: w, Y: h}},
		}
	}
	return gb
}

var (
	_ plot.Plotter    = (*treeDrawer)(nil)
	_ plot.DataRanger = (*treeDrawer)(nil)
	_ plot.GlyphBoxer = (*treeDrawer)(nil)
)
