package plot

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"testing"
)

// equalApprox reports whether two PNG images have the same size and every
// pixel's colour channels differ by at most delta of their range (0..1), so
// anti-aliasing noise passes and a moved line, label or curve does not. It
// plays the role of gonum/plot's cmpimg.EqualApprox (STYLE point 14) without
// importing it: cmpimg pulls in rsc.io/pdf, which this module does not need.
func equalApprox(raw1, raw2 []byte, delta float64) (bool, error) {
	a, err := png.Decode(bytes.NewReader(raw1))
	if err != nil {
		return false, err
	}
	b, err := png.Decode(bytes.NewReader(raw2))
	if err != nil {
		return false, err
	}
	if a.Bounds().Size() != b.Bounds().Size() {
		return false, nil
	}
	limit := uint32(delta * 0xffff)
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			if !close4(a.At(ab.Min.X+x, ab.Min.Y+y), b.At(bb.Min.X+x, bb.Min.Y+y), limit) {
				return false, nil
			}
		}
	}
	return true, nil
}

// close4 compares two colours channel by channel (16-bit premultiplied RGBA).
func close4(c1, c2 interface{ RGBA() (r, g, b, a uint32) }, limit uint32) bool {
	r1, g1, b1, a1 := c1.RGBA()
	r2, g2, b2, a2 := c2.RGBA()
	for _, p := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
		d := p[0] - p[1]
		if p[1] > p[0] {
			d = p[1] - p[0]
		}
		if d > limit {
			return false
		}
	}
	return true
}

// TestEqualApprox checks that the comparison can fail: a changed pixel and a
// different figure are caught, the image itself passes.
func TestEqualApprox(t *testing.T) {
	golden, err := os.ReadFile("testdata/service_curves_h100_golden.png")
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile("testdata/level_times_golden.png")
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(golden))
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	rgba.Set(10, 10, color.RGBA{255, 0, 0, 255})
	var changed bytes.Buffer
	png.Encode(&changed, rgba)
	for _, c := range []struct {
		name string
		b    []byte
		want bool
	}{{"itself", golden, true}, {"one red pixel", changed.Bytes(), false}, {"another figure", other, false}} {
		if got, err := equalApprox(golden, c.b, tolerance); err != nil || got != c.want {
			t.Errorf("%s: equal = %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}
