package queue

import (
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
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
	tabletest.Declared(t, r.CentersTable(), map[string]string{"kind": "text", "demand": "number time unit", "queue_length": "number jobs"})
	tabletest.Declared(t, r.PopulationsTable(), map[string]string{"population": "integer jobs", "throughput": "number jobs per time unit"})
}
