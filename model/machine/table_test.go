package machine

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// TestTables checks the tables of the embedded machines: one summary row
// per machine, "-" for a GPU's cores, a CPU's caches and a GPU's memory
// ceilings with a bar chart, and each service curve's points.
func TestTables(t *testing.T) {
	rows, err := Summaries()
	if err != nil {
		t.Fatal(err)
	}
	st := SummaryTable(rows)
	if len(st.Rows) != len(rows) {
		t.Fatalf("%d summary rows for %d machines", len(st.Rows), len(rows))
	}
	h100, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	d := h100.Details()
	for _, r := range st.Rows {
		if r[0] == "h100" && (r[4] != "-" || r[3] != "132") {
			t.Errorf("h100 summary %q, want 132 SMs and no cores", r)
		}
	}
	ct := d.CeilingsChart()
	if err := ct.Check(); err != nil || len(ct.Rows) != len(d.Derived.Ceilings) || ct.Chart == nil {
		t.Errorf("ceilings chart: %v, %d rows", err, len(ct.Rows))
	}
	if mt := d.MemoryCeilingsTable(); len(mt.Rows) != len(d.Derived.Ceilings) || mt.Rows[0][0] != "dram_peak" {
		t.Errorf("memory ceilings %q", mt.Rows)
	}
	for _, c := range h100.ServiceCurves {
		tb, err := c.Table()
		points, _ := c.Rows()
		if err != nil || len(tb.Rows) != len(points) {
			t.Errorf("curve %s: %v, %d rows", c.Class, err, len(tb.Rows))
		}
	}
	if !strings.Contains(h100.L2.Shape(), "lines") || !strings.HasSuffix(h100.DRAM.Shape(), "peak "+h100.DRAM.PeakBandwidth.String()) {
		t.Errorf("shapes %q, %q", h100.L2.Shape(), h100.DRAM.Shape())
	}
	w, err := Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	wd := w.Details()
	if ct := wd.CachesTable(); len(ct.Rows) != len(w.Caches) || !strings.HasSuffix(ct.Rows[0][6], " cycles") {
		t.Errorf("westmere caches %q", ct.Rows)
	}
	if lt := wd.LatenciesTable(); len(lt.Rows) != len(w.Latencies) {
		t.Errorf("westmere latencies %q", lt.Rows)
	}
}

// TestTablesDeclared: the tables of the embedded machines (the h100, a GPU
// with service curves and latencies, and the westmere, a CPU with caches)
// declare every column, with the kinds their cells have.
func TestTablesDeclared(t *testing.T) {
	rows, err := Summaries()
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, SummaryTable(rows), map[string]string{"clock": "text Hz", "sms": "integer SMs", "peak_warp_gips": "number warp GIPS"})
	h100, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	d := h100.Details()
	tabletest.Declared(t, d.CeilingsChart(), nil)
	tabletest.Declared(t, d.MemoryCeilingsTable(), map[string]string{"bandwidth": "text B/s", "GTXN/s": "number GTXN/s"})
	tabletest.Declared(t, d.LatenciesTable(), map[string]string{"time": "text s", "cycles": "number cycles", "working_set": "text bytes"})
	for _, c := range h100.ServiceCurves {
		tb, err := c.Table()
		if err != nil {
			t.Fatal(err)
		}
		tabletest.Declared(t, tb, map[string]string{"S(m)_ns": "number ns"})
	}
	w, err := Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	wd := w.Details()
	tabletest.Declared(t, wd.CachesTable(), map[string]string{"size": "text bytes", "ways": "integer", "service": "text cycles", "service_ns": "number ns"})
}
