package tabletest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// recorder is a testing.TB that keeps the failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Error(args ...any) {
	r.errs = append(r.errs, fmt.Sprint(args...))
}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestDeclared(t *testing.T) {
	good := func() table.Table {
		var tb table.Table
		tb.AddColumns(table.TextCol("graph"), table.NumCol("time", "ms"))
		tb.Add("g", "1.5")
		return tb
	}
	undeclared := good()
	undeclared.Columns = nil
	wrongKind := good()
	wrongKind.Rows[0][1] = "fast"
	empty := good()
	empty.Rows = nil
	for _, tc := range []struct {
		name  string
		tb    table.Table
		want  map[string]string
		fails int
	}{
		{"good", good(), map[string]string{"time": "number ms", "graph": "text"}, 0},
		{"other unit", good(), map[string]string{"time": "number s"}, 1},
		{"no such column", good(), map[string]string{"bytes": "integer bytes"}, 1},
		{"undeclared", undeclared, nil, 1},
		{"cell of another kind", wrongKind, nil, 1},
		{"no rows", empty, nil, 1},
	} {
		r := &recorder{TB: t}
		Declared(r, tc.tb, tc.want)
		if len(r.errs) != tc.fails {
			t.Errorf("%s: %d failures %q, want %d", tc.name, len(r.errs), r.errs, tc.fails)
		}
	}
}

// TestWorkbook: a workbook WriteXLSX wrote passes; one whose sheet has two
// columns headed alike fails once.
func TestWorkbook(t *testing.T) {
	var tb table.Table
	tb.Name = "w"
	tb.AddColumns(table.TextCol("graph"), table.NumCol("time", "ms"), table.PctCol("error"), table.IntCol("n", "").OrMissing("-"))
	tb.Add("g", "3.712", "7.8%", "12")
	tb.Add("h", "0.0365551", "13.3%", "-")
	path := filepath.Join(t.TempDir(), "w.xlsx")
	if err := table.WriteXLSX(path, []table.Table{tb}); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Workbook(r, path, []table.Table{tb})
	if len(r.errs) != 0 {
		t.Errorf("failures %q", r.errs)
	}
	tb.AddColumns(table.NumCol("time", "ms"))
	tb.Rows[0] = append(tb.Rows[0], "1")
	if err := table.WriteXLSX(path, []table.Table{tb}); err != nil {
		t.Fatal(err)
	}
	r = &recorder{TB: t}
	Workbook(r, path, []table.Table{tb})
	if len(r.errs) != 1 {
		t.Errorf("two columns headed alike: failures %q, want 1", r.errs)
	}
}
