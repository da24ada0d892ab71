package machine

import (
	"strings"
	"testing"
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
