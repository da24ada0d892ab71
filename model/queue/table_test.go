package queue

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// TestTables solves the Lazowska et al. example (exact MVA, N = 3) and
// checks the tables: one row per center and per population 1..3, the last
// population's throughput the solution's.
func TestTables(t *testing.T) {
	spec, err := ParseSpec([]byte(`population: 3
think_time: 15
centers:
  - {name: cpu, demand: 0.605}
  - {name: disk1, visits: 10, service_time: 0.21}
`), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := spec.Solve()
	if err != nil {
		t.Fatal(err)
	}
	ct, pt := r.CentersTable(), r.PopulationsTable()
	if len(ct.Rows) != 2 || ct.Rows[1][0] != "disk1" || ct.Rows[1][4] != "2.1" {
		t.Errorf("centers %q", ct.Rows)
	}
	if len(pt.Rows) != 3 || pt.Rows[2][1] != table.G6(r.Throughput) {
		t.Errorf("populations %q, want the last at X = %v", pt.Rows, r.Throughput)
	}
}

// TestTablesDeclared: the tables of a solved network with a delay center
// (cmd/graphperf's model-delay.yaml) declare every column, with the kinds
// their cells have.
func TestTablesDeclared(t *testing.T) {
	spec, err := ParseSpec([]byte(`population: 40
centers:
  - {name: cpu, demand: 0.605}
  - {name: disk, visits: 10, service_time: 0.21}
  - {name: net, kind: delay, demand: 1.0}
`), "delay.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := spec.Solve()
	if err != nil {
		t.Fatal(err)
	}
	checkDeclared(t, r.CentersTable(), map[string]string{"kind": "text", "demand": "number time unit", "queue_length": "number jobs"})
	checkDeclared(t, r.PopulationsTable(), map[string]string{"population": "integer jobs", "throughput": "number jobs per time unit"})
}

// checkDeclared fails unless tb declares every column (no table.Undeclared),
// its cells agree with the declared kinds (Check, under the name "t" when
// tb has none: a report gives it one), and each column of want has the
// kind and unit given as "kind unit" (such as "number ms", or "text" for
// a text column without a unit).
func checkDeclared(t *testing.T, tb table.Table, want map[string]string) {
	t.Helper()
	if tb.Name == "" {
		tb.Name = "t"
	}
	if len(tb.Columns) != len(tb.Header) {
		t.Errorf("%s: %d of %d columns declared", tb.Name, len(tb.Columns), len(tb.Header))
		return
	}
	if err := tb.Check(); err != nil {
		t.Error(err)
	}
	if len(tb.Rows) == 0 {
		t.Errorf("%s: no rows to check", tb.Name)
	}
	got := map[string]string{}
	for _, c := range tb.Columns {
		if c.Kind == table.Undeclared {
			t.Errorf("%s: column %q not declared", tb.Name, c.Name)
		}
		got[c.Name] = strings.TrimSpace(c.Kind.String() + " " + c.Unit)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: column %q is %q, want %q", tb.Name, name, got[name], w)
		}
	}
}
