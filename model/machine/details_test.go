package machine

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestDetails checks the JSON shape of Details (the keys "graphperf model
// machine show --json" prints) and that a CPU's ceilings are an empty list.
func TestDetails(t *testing.T) {
	p100, err := Lookup("p100")
	if err != nil {
		t.Fatal(err)
	}
	d := p100.Details()
	// seed 001 §3.4: 56 SMs x 2 schedulers x 1 IPC x 1.328 GHz = 148.7 warp GIPS.
	if d.Machine != p100 || d.Derived.PhysicalWarps != 56*64 || d.Derived.PeakWarpGIPS < 148.7 || d.Derived.PeakWarpGIPS > 148.8 {
		t.Errorf("p100 derived %+v", d.Derived)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`{"machine":{"name":"p100"`, `"derived":{"physical_warps":3584,"cores":0,"peak_warp_gips":`, `"memory_ceilings":[{"name":"dram_peak"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("p100 details JSON lacks %s:\n%s", key, b)
		}
	}
	westmere, err := Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	b, err = json.Marshal(westmere.Details().Derived)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(b), `"memory_ceilings":[]}`) {
		t.Errorf("westmere derived %s, want an empty list of ceilings", b)
	}
}

// TestCurveRows checks ServiceCurve.Rows on both forms and Latency.Cycles.
func TestCurveRows(t *testing.T) {
	// A latency-form curve: L(4) = 200 ns gives S(4) = L/m = 50 ns and
	// 1/S = 0.02 GTXN/s.
	c := ServiceCurve{Class: "x", Form: LatencyForm, Points: []Point{{1, 100}, {4, 200}}}
	rows, err := c.Rows()
	if err != nil {
		t.Fatal(err)
	}
	want := []CurveRow{{1, 100, 100, 0.01}, {4, 50, 200, 0.02}}
	if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("latency-form rows %+v, want %+v", rows, want)
	}
	// The H100's l2_hit curve is in service form: S(1) = 161.1 ns
	// (h100.yaml, ExampleMachine_ServiceCurve).
	h100 := Default()
	rows, err = h100.ServiceCurves[0].Rows()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(h100.ServiceCurves[0].Points) || rows[0].ServiceNs != 161.1 || rows[0].LatencyNs != 161.1 || rows[0].GTXNPerS != 1/161.1 {
		t.Errorf("h100 %s rows %+v", h100.ServiceCurves[0].Class, rows[:1])
	}
	if _, err := (ServiceCurve{Class: "empty"}).Rows(); err == nil {
		t.Error("a curve without points: no error")
	}
	// 100 ns at 2 GHz is 200 cycles.
	if got := (Latency{Name: "dram", Time: 100}).Cycles(2e9); got != 200 {
		t.Errorf("Cycles = %g, want 200", got)
	}
}

// TestSourcesByNote checks that the grouping keeps every source note and
// value path once, in sorted order.
func TestSourcesByNote(t *testing.T) {
	h100 := Default()
	groups := h100.SourcesByNote()
	n := 0
	for i, g := range groups {
		if i > 0 && groups[i-1].Source >= g.Source {
			t.Errorf("sources out of order: %q before %q", groups[i-1].Source, g.Source)
		}
		if !sort.StringsAreSorted(g.Fields) {
			t.Errorf("%q: fields not sorted: %v", g.Source, g.Fields)
		}
		for _, f := range g.Fields {
			if h100.Sources[f] != g.Source {
				t.Errorf("%s: source %q, grouped under %q", f, h100.Sources[f], g.Source)
			}
		}
		n += len(g.Fields)
	}
	if n != len(h100.Sources) || n == 0 {
		t.Errorf("%d fields grouped, want the %d with a source", n, len(h100.Sources))
	}
	if got := (&Machine{}).SourcesByNote(); len(got) != 0 {
		t.Errorf("no sources: %v", got)
	}
}
