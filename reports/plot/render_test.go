package plot

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// TestRenderFormats: a PNG of 300 dpi (a 4.8-inch figure is 1440 pixels
// wide), an SVG and a PDF.
func TestRenderFormats(t *testing.T) {
	p, err := LevelTimes(map[string][]float64{"a": {1e3, 2e3, 3e3}}, nil, "formats")
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats {
		wt, err := Render(p, StdW, StdH, format)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		switch format {
		case "png":
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			if w := img.Bounds().Dx(); w != int(math.Round(4.8*DPI)) {
				t.Errorf("PNG %d pixels wide, want 4.8 in at %d dpi", w, DPI)
			}
		case "pdf":
			if !strings.HasPrefix(b.String(), "%PDF") {
				t.Errorf("PDF starts %q", b.String()[:min(8, b.Len())])
			}
		case "svg":
			if !strings.Contains(b.String(), "<svg") {
				t.Error("no <svg")
			}
		}
	}
	if _, err := Render(p, StdW, StdH, "gif"); err == nil {
		t.Error("gif: no error")
	}
}

// TestLegendBelow: the legend goes below the plot, the data range is the
// data's (no room made for a legend), and the figure grows by the
// legend's height.
func TestLegendBelow(t *testing.T) {
	levels := map[string][]float64{}
	for i := range 9 {
		levels[strings.Repeat("x", i+1)] = []float64{1e3, 2e3 * float64(i+1), 1e3}
	}
	p, err := LevelTimes(levels, []float64{500, 900, 400}, "nine")
	if err != nil {
		t.Fatal(err)
	}
	fig, h := WithLegendBelow(p, StdW, StdH)
	if _, ok := fig.(*Legended); !ok || h <= StdH {
		t.Fatalf("WithLegendBelow = %T, height %v: want a Legended taller than %v", fig, h, StdH)
	}
	l := legendLayoutOf(p.Legend, StdW)
	if l.entries != 10 || l.columns < 2 || l.rows*l.columns < 10 {
		t.Errorf("legend layout %+v: want 10 entries in columns", l)
	}
	// The y axis ends where the data end (18 µs), not above them.
	if p.Y.Max > 18*1.0001 {
		t.Errorf("y axis up to %g µs, the data to 18", p.Y.Max)
	}
	wt, err := Render(fig, StdW, h, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	wt.WriteTo(&b)
	for name := range levels {
		if n := strings.Count(b.String(), ">"+name+"<"); n != 1 {
			t.Errorf("legend entry %s drawn %d times, want once", name, n)
		}
	}
	bare, _ := WithLegendBelow(plot.New(), StdW, StdH)
	if _, ok := bare.(*plot.Plot); !ok {
		t.Error("a plot without a legend is wrapped")
	}
}

// TestStyleDistinct: no two of the first 100 series share colour, pattern
// and glyph.
func TestStyleDistinct(t *testing.T) {
	seen := map[string]int{}
	for i := range 100 {
		c, d, g := Style(i)
		key := fmt.Sprintf("%v/%v/%T", c, d, g)
		if j, ok := seen[key]; ok {
			t.Fatalf("series %d and %d look alike (%s)", j, i, key)
		}
		seen[key] = i
	}
}

// TestDensityBinned: beyond BinAbove pairs the scatter is binned, so its
// SVG holds at most DensityBins² cells, not a shape per pair.
func TestDensityBinned(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 100000
	measured, predicted := make([]float64, n), make([]float64, n)
	for i := range n {
		measured[i] = math.Pow(10, 4+3*r.Float64())
		predicted[i] = measured[i] * math.Exp(0.2*r.NormFloat64())
	}
	p, err := PredictedMeasured("many", predicted, measured, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := Render(p, StdW, StdW, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	wt.WriteTo(&b)
	if b.Len() > 2<<20 {
		t.Errorf("SVG of %d pairs is %d bytes, want binned (under 2 MiB)", n, b.Len())
	}
	var xys plotter.XYs
	for i := range n {
		xys = append(xys, plotter.XY{X: measured[i], Y: predicted[i]})
	}
	if d := NewDensity(xys, againstColors[0]); len(d.counts) > DensityBins*DensityBins {
		t.Errorf("%d cells", len(d.counts))
	}
}
