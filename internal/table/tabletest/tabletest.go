// Package tabletest checks, in a package's tests, the tables it builds.
package tabletest

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// Declared fails t unless tb passes table.Check (every column declared,
// every cell of its column's kind; a table without a name is checked as
// "t", the name its command or report gives it later), has at least one
// row, and each column that want names has the kind and unit given as
// "kind unit", such as "number ms", or "text" for text without a unit.
// It costs one pass over the cells.
func Declared(t testing.TB, tb table.Table, want map[string]string) {
	t.Helper()
	if tb.Name == "" {
		tb.Name = "t"
	}
	if err := tb.Check(); err != nil {
		t.Error(err)
		return
	}
	if len(tb.Rows) == 0 {
		t.Errorf("%s: no rows to check", tb.Name)
	}
	got := map[string]string{}
	for _, c := range tb.Columns {
		got[c.Name] = strings.TrimSpace(c.Kind.String() + " " + c.Unit)
	}
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: no column %q", tb.Name, name)
		} else if g != w {
			t.Errorf("%s: column %q is %q, want %q", tb.Name, name, g, w)
		}
	}
}
