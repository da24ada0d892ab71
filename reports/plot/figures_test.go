package plot

import (
	"bytes"
	"testing"
)

// checkFigures fails t unless figs are named names in order, each with a
// title, a figure and a positive size, and renders the first to PNG bytes
// to show it draws.
func checkFigures(t *testing.T, figs []Named, names ...string) {
	t.Helper()
	if len(figs) != len(names) {
		var got []string
		for _, f := range figs {
			got = append(got, f.Name)
		}
		t.Fatalf("figures %q, want %q", got, names)
	}
	for i, f := range figs {
		if f.Name != names[i] || f.Title == "" || f.Figure == nil || f.W <= 0 || f.H <= 0 {
			t.Errorf("figure %d: %q titled %q, %v by %v; want %q with a title and a size", i, f.Name, f.Title, f.W, f.H, names[i])
		}
	}
	if len(figs) == 0 {
		return
	}
	wt, err := figs[0].Figure.WriterTo(figs[0].W, figs[0].H, "png")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG")) {
		t.Errorf("%s: not a PNG (%d bytes)", figs[0].Name, buf.Len())
	}
}
