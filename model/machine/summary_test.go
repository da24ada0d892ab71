package machine

import (
	"errors"
	"reflect"
	"testing"
)

func TestOpenAndSummary(t *testing.T) {
	m, err := Open("h100")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Open("machines/h100.yaml"); err != nil || f.Name != m.Name {
		t.Errorf("Open(file) = %v, %v; want the h100", f, err)
	}
	if _, err := Open("h900"); !errors.Is(err, ErrUnknownMachine) {
		t.Errorf("Open(h900): %v, want ErrUnknownMachine", err)
	}
	s := m.Summarize()
	if s.LLCBytes != int64(m.L2.Size) || s.DRAMPeak != float64(m.DRAM.PeakBandwidth) || s.RidgePoint <= 0 {
		t.Errorf("summary %+v", s)
	}
	cs := m.MemoryCeilings()
	if len(cs) == 0 || cs[0].Name != "dram_peak" || cs[0].RidgePoint != s.RidgePoint {
		t.Errorf("ceilings %+v: want dram_peak first, at the summary's ridge point", cs)
	}
	w, err := Open("westmere")
	if err != nil {
		t.Fatal(err)
	}
	if c := w.LastLevelCache(); c == nil || c != &w.Caches[len(w.Caches)-1] {
		t.Errorf("westmere's last-level cache %v, want its last cache level", c)
	}
}

// TestSummaries checks that Summaries lists every embedded machine in
// name order, each as its Summarize.
func TestSummaries(t *testing.T) {
	rows, err := Summaries()
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	if len(rows) != len(names) {
		t.Fatalf("%d summaries, want %d (%v)", len(rows), len(names), names)
	}
	for i, r := range rows {
		m, err := Lookup(names[i])
		if err != nil {
			t.Fatal(err)
		}
		if want := m.Summarize(); r.Name != names[i] || !reflect.DeepEqual(r, want) {
			t.Errorf("summary %d: %+v, want %+v", i, r, want)
		}
	}
}
