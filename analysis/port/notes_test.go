package port_test

import (
	"math"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/analysis/port"
)

func TestSpecRowChangeAndNotes(t *testing.T) {
	// Tuned takes 90 ns against the default's 100 on the first platform,
	// 120 against 100 on the second, and is broken on the third.
	r := port.SpecRow{BeforeNs: []float64{100, 100, 100}, AfterNs: []float64{90, 120, 0}}
	for i, want := range []float64{-0.1, 0.2, 0} {
		got, ok := r.Change(i)
		if ok != (i < 2) || math.Abs(got-want) > 1e-12 {
			t.Errorf("Change(%d) = %v, %v; want %v, %v", i, got, ok, want, i < 2)
		}
	}
	res := &port.SpecializeResult{NotClassified: []string{"zero-copy", "block size"}, Warnings: []string{"w1"}}
	want := []string{"not classified: zero-copy", "not classified: block size", "w1"}
	if got := res.Notes(); !slices.Equal(got, want) {
		t.Errorf("Notes = %q, want %q", got, want)
	}
	if got := (&port.SpecializeResult{}).Notes(); len(got) != 0 {
		t.Errorf("no notes: %q", got)
	}
}

func TestSpeedupNotes(t *testing.T) {
	res := &port.SpeedupResult{
		Rows: []port.SpeedupRow{{Class: port.MemoryBound}, {Class: port.MemoryBound}, {Class: port.Mixed},
			{Class: port.OverheadBound}, {Class: port.Unclassified}},
		Warnings:  []string{"a machine file has no measured read bandwidth"},
		Bandwidth: [2]port.Bandwidth{{Peak: 3.352e12, Read: 3.065e12}, {Peak: 4.8e12}},
		RatioKind: port.RatioPeak,
	}
	c := res.ClassCounts()
	if c[port.MemoryBound] != 2 || c[port.Mixed] != 1 || c[port.OverheadBound] != 1 || c[port.Slower] != 0 || c[port.Unclassified] != 1 {
		t.Errorf("ClassCounts = %v", c)
	}
	want := []string{"2 memory-bound, 1 mixed, 1 latency/overhead-bound, 0 slower, 1 unclassified", "a machine file has no measured read bandwidth"}
	if got := res.Notes(); !slices.Equal(got, want) {
		t.Errorf("Notes = %q, want %q", got, want)
	}
	if res.RatioBandwidth(0) != 3.352e12 || res.RatioBandwidth(1) != 4.8e12 {
		t.Errorf("peak ratio's bandwidths %v, %v", res.RatioBandwidth(0), res.RatioBandwidth(1))
	}
	res.RatioKind = port.RatioRead
	if res.RatioBandwidth(0) != 3.065e12 || res.RatioBandwidth(1) != 0 {
		t.Errorf("read ratio's bandwidths %v, %v", res.RatioBandwidth(0), res.RatioBandwidth(1))
	}
}

func TestTransferNotes(t *testing.T) {
	a, b := "NVIDIA H100 80GB HBM3", "NVIDIA H200"
	res := &port.TransferResult{Platforms: []string{a, b}, Rows: []port.TransferRow{
		{From: a, To: b, Warnings: []string{"w1", "w2"}},
		{From: b, To: a},
		{From: b, To: a, Warnings: []string{"w3"}},
	}}
	want := []string{"H100 to H200: w1", "H100 to H200: w2", "H200 to H100: w3"}
	if got := res.Notes(); !slices.Equal(got, want) {
		t.Errorf("Notes = %q, want %q", got, want)
	}
}
