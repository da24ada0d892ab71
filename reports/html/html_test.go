package html

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xhtml "golang.org/x/net/html"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/notebook"
)

var update = flag.Bool("update", false, "rewrite testdata/*.html golden files")

const evil = "<script>alert(1)</script> & more"

const source = `# BFS on road networks

This report compares *predicted* and measured times. See [the paper][p].
<script>alert("prose")</script>

` + "```graphperf" + `
graph stats 'road usa.gpg' --note '<script>alert(1)</script> & more'
` + "```" + `

Levels follow, as a figure.

` + "```graphperf" + `
sim bfs road.gpg --fig levels
` + "```" + `

` + "```graphperf" + `
model om --machine missing
` + "```" + `

Later cells still run:

` + "```graphperf" + `
data list
` + "```" + `

[p]: https://example.org/paper
`

// onePixelPNG is a valid 1x1 PNG, enough to exercise data: URIs.
func onePixelPNG(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func render(t *testing.T) []byte {
	t.Helper()
	nb, err := notebook.Parse([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	pix := onePixelPNG(t)
	results := notebook.Run(nb, func(args []string) (notebook.Output, error) {
		switch args[0] {
		case "graph":
			return notebook.Output{Tables: []notebook.Table{{
				Title:  "Degree statistics & more",
				Header: []string{"property", "value", "note"},
				Columns: []rtable.Column{rtable.TextCol("property"), rtable.TextUnitCol("value", "as written"),
					rtable.TextCol("note")},
				Rows: [][]string{
					{"vertices", "23,947,347", evil},
					{"edges", "57,708,624", ""},
					{"mean degree", "2.41", "abs"},
					{"time", "12.5 ms", "measured"},
				},
			}}}, nil
		case "sim":
			return notebook.Output{
				Figures: []notebook.Figure{
					{Title: "Frontier per level", PNGPath: "figures/levels.png", SVGPath: "figures/levels.svg"},
					{Title: "Embedded", PNG: pix},
				},
				Text: "simulated 6262 levels",
			}, nil
		case "model":
			return notebook.Output{}, errors.New(`machine "missing": not found <b>`)
		}
		return notebook.Output{Text: "2 runs"}, nil
	})
	var buf bytes.Buffer
	meta := Meta{
		Version: "v0.1.0-test",
		Date:    time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC),
		Inputs:  []Input{{Name: "road usa.gpg & <x>", SHA256: strings.Repeat("ab", 32)}},
	}
	if err := Render(&buf, "Road <BFS> & report", nb, results, meta); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRenderGolden(t *testing.T) {
	got := render(t)
	path := filepath.Join("testdata", "report.html")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; run go test -update and review the diff", path)
	}
}

func TestEscaping(t *testing.T) {
	out := string(render(t))
	for _, bad := range []string{"<script>", `alert("prose")`, "<b>", "<BFS>"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains unescaped %q", bad)
		}
	}
	for _, want := range []string{
		"<td>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</td>",               // table cell
		"--note &#39;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more&#39;</pre>", // command
		"<caption>Degree statistics &amp; more</caption>",                         // title
		"<title>Road &lt;BFS&gt; &amp; report</title>",                            // page title
		"machine &#34;missing&#34;: not found &lt;b&gt;",                          // error
		`<img src="figures/levels.png" alt="Frontier per level">`,                 // relative figure
		`<img src="data:image/png;base64,`,                                        // embedded figure
		`<td class="num">23,947,347</td>`,                                         // right-aligned number
		`<a href="https://example.org/paper">the paper</a>`,                       // reference across prose blocks
		"<td>road usa.gpg &amp; &lt;x&gt;</td>",                                   // footer input
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestSafePath(t *testing.T) {
	for in, want := range map[string]string{
		"figures/a b.png":         "figures/a%20b.png",
		"javascript:alert(1)":     "#",
		"/etc/passwd":             "#",
		`figures/"x".png`:         "figures/%22x%22.png",
		"figures/levels-01_x.png": "figures/levels-01_x.png",
	} {
		if got := safePath(in); got != want {
			t.Errorf("safePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStructure parses the page as HTML5 and checks its shape.
func TestStructure(t *testing.T) {
	doc, err := xhtml.Parse(bytes.NewReader(render(t)))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var tables []*xhtml.Node
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			count[n.Data]++
			if n.Data == "table" {
				tables = append(tables, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for tag, want := range map[string]int{"title": 1, "style": 1, "script": 0, "header": 1, "footer": 1, "main": 1, "section": 4, "img": 2, "table": 2} {
		if count[tag] != want {
			t.Errorf("%d <%s> elements, want %d", count[tag], tag, want)
		}
	}
	if count["div"] < 1 {
		t.Error("no error box")
	}
	for i, tab := range tables {
		if th := find(tab, "thead", "tr", "th"); th == nil {
			t.Errorf("table %d has no header row", i)
		}
	}
}

// find follows a path of element names down the first matching children.
func find(n *xhtml.Node, path ...string) *xhtml.Node {
	for _, name := range path {
		var next *xhtml.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.ElementNode && c.Data == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// TestScreenshot renders the page with headless Chromium, when installed, and checks that the
// screenshot is not blank. Set GRAPHPERF_SCREENSHOT=FILE to keep the PNG for a look.
func TestScreenshot(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "index.html")
	if err := os.WriteFile(page, render(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "figures", "levels.png"), onePixelPNG(t), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "out.png")
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--no-first-run", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size=1280,900", "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colours) < 3 {
		t.Errorf("screenshot is blank: %d colours", len(colours))
	}
	if keep := os.Getenv("GRAPHPERF_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadable: the title once (the notebook's first heading is the page's
// header, not repeated), a table of contents of the level-2 headings with
// unique anchors, numbers rounded to three significant digits and
// right-aligned, and a long table cut with a note saying where the rest is.
func TestReadable(t *testing.T) {
	src := "# My report\n\nIntro.\n\n## Summary\n\nTo come.\n\n## 1. Data & *more*\n\n```graphperf\ndata list\n```\n\n## Summary\n"
	nb, err := notebook.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]string{{"a", "0.0042315", "12"}, {"b", "1234.5678", "7"}}
	for i := 0; i < 20; i++ {
		rows = append(rows, []string{"g", "2.5", "1"})
	}
	results := notebook.Run(nb, func([]string) (notebook.Output, error) {
		return notebook.Output{Tables: []notebook.Table{{Name: "c01-data-list", Header: []string{"name", "time", "n"}, Rows: rows,
			Columns: []rtable.Column{rtable.TextCol("name"), rtable.NumCol("time", "s"), rtable.IntCol("n", "")}}}}, nil
	})
	var buf bytes.Buffer
	meta := Meta{MaxRows: 5, Workbook: "report.xlsx", Sheets: map[string]string{"c01-data-list": "c01-data-list"}, TablesDir: "tables"}
	if err := Render(&buf, "My report", nb, results, meta); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, "My report</h1>"); n != 1 {
		t.Errorf("the title appears %d times as a heading, want 1", n)
	}
	for _, want := range []string{
		`<nav class="toc"`, `<a href="#summary">Summary</a>`, `<a href="#1-data-more">1. Data &amp; more</a>`,
		`<h2 id="summary">`, `<h2 id="summary-2">`, `<h2 id="1-data-more">`,
		`<td class="num">0.00423</td>`, `<td class="num">1235</td>`, `<td class="num">12</td>`, `<td class="num">2.5</td>`,
		`17 more rows in sheet <strong>c01-data-list</strong> of <a href="report.xlsx">report.xlsx</a>; every row: <a href="tables/c01-data-list.csv">CSV</a>.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(page, "<tr>"); n != 1+5 {
		t.Errorf("%d table rows, want the header and 5", n)
	}
}

// TestRenderParagraphs: a cell's generated paragraphs are prose (escaped),
// shown before its tables, not preformatted.
func TestRenderParagraphs(t *testing.T) {
	nb, err := notebook.Parse([]byte("# T\n\n```graphperf\nreport summary\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := []notebook.Result{{Cell: nb.Cells()[0], Output: notebook.Output{
		Paragraphs: []string{"It loses to <b>best</b> (1.09)."},
		Tables: []notebook.Table{{Name: "summary", Header: []string{"a"}, Rows: [][]string{{"1"}},
			Columns: []rtable.Column{rtable.IntCol("a", "")}}},
	}}}
	var buf bytes.Buffer
	if err := Render(&buf, "T", nb, res, Meta{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	p := strings.Index(page, `<p class="generated">It loses to &lt;b&gt;best&lt;/b&gt; (1.09).</p>`)
	if p < 0 || p > strings.Index(page, "<table>") {
		t.Errorf("the paragraph is missing, unescaped or after the table:\n%s", page)
	}
}

// TestDeclaredColumns: a table that declares its columns is aligned and
// rounded by the declaration, never by its text: a Text column of digits
// stays left and unrounded, a Number column is rounded, an Integer column
// right-aligned as it is, a Text column with a unit right-aligned; the
// header cells carry the units.
func TestDeclaredColumns(t *testing.T) {
	tb := notebook.Table{Name: "d", Title: "declared"}
	tb.AddColumns(rtable.TextCol("seed"), rtable.NumCol("time_ms", "ms"), rtable.IntCol("levels", ""),
		rtable.TextUnitCol("speedup", "x"), rtable.BoolCol("ok"))
	tb.Add("0.123456", "1.23456", "12", "3.17x", "true")
	got := newTable(tb, -1, Meta{})
	wantNum := []bool{false, true, true, true, false}
	for j, c := range got.Header {
		if c.Numeric != wantNum[j] || got.Rows[0][j].Numeric != wantNum[j] {
			t.Errorf("column %s: numeric %v, want %v", c.Text, c.Numeric, wantNum[j])
		}
	}
	if r := got.Rows[0]; r[0].Text != "0.123456" || r[1].Text != "1.23" || r[2].Text != "12" || r[3].Text != "3.17x" {
		t.Errorf("cells %+v", r)
	}
	if got.Header[1].Unit != "ms" || got.Header[0].Unit != "" {
		t.Errorf("units %+v", got.Header)
	}
	nb, err := notebook.Parse([]byte("```graphperf\nx\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	results := notebook.Run(nb, func([]string) (notebook.Output, error) {
		return notebook.Output{Tables: []notebook.Table{tb}}, nil
	})
	var b bytes.Buffer
	if err := Render(&b, "declared", nb, results, Meta{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<th scope="col" class="num" title="unit: ms">time_ms</th>`) {
		t.Errorf("the page does not show the unit of time_ms")
	}
	// Undeclared, the same cells are text: no kind is guessed from them.
	plain := notebook.Table{Name: "p", Header: tb.Header, Rows: tb.Rows}
	if g := newTable(plain, -1, Meta{}); g.Header[1].Numeric || g.Rows[0][1].Numeric || g.Rows[0][1].Text != "1.23456" {
		t.Errorf("undeclared: %+v %+v", g.Header[1], g.Rows[0][1])
	}
}
