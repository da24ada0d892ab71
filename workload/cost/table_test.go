package cost

import (
	"testing"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// TestTables checks the workload tables of figure 2 from root 0: one BFS
// row per level and kernel plus a total per kernel, the byte columns "-"
// in the abstract model only, and the level properties of level 0 (the
// root alone: n_f 1, m_f 2).
func TestTables(t *testing.T) {
	g := figure2(t)
	levels := BFSLevels(g, 0)
	lt := LevelsTable(levels)
	if len(lt.Rows) != len(levels) || lt.Rows[0][1] != "1" || lt.Rows[0][2] != "2" {
		t.Fatalf("level properties %q", lt.Rows)
	}
	kernels := []BFSKernel{}
	for _, n := range BFSKernels()[:2] {
		k, err := ParseBFSKernel(n)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, k)
	}
	for _, m := range []Model{Abstract, Concrete} {
		tab := EvaluateBFSRows("fig2", 0, m, kernels, levels, BFSConfig{}, true)
		bt := tab.Table(0, m)
		if len(bt.Rows) != len(kernels)*(len(levels)+1) || bt.Rows[len(levels)][1] != "total" {
			t.Fatalf("%v: %d rows, want %d with a total after the levels", m, len(bt.Rows), len(kernels)*(len(levels)+1))
		}
		if b := bt.Rows[0][12]; (b == "-") != (m == Abstract) {
			t.Errorf("%v: bytes cell %q", m, b)
		}
		terms := 0
		for _, l := range tab.Results[0].Levels {
			terms += len(l.Terms)
		}
		if tt := tab.Results[0].TermsTable(0, m); len(tt.Rows) != terms {
			t.Errorf("%v: %d term rows, want %d", m, len(tt.Rows), terms)
		}
	}
	rows := EvaluatePageRankRows("fig2", g, Concrete, Kernels())
	pt, _ := PageRankTable(rows, Concrete)
	if len(pt.Rows) != len(rows) || pt.Rows[0][6] != rtable.Int(rows[0].Ops()) {
		t.Errorf("pagerank table %q", pt.Rows[0])
	}
	if Source(Abstract, "pagerank") == Source(Concrete, "pagerank") || Source(Abstract, "bfs") == Source(Abstract, "pagerank") {
		t.Error("model sources not distinct")
	}
}

// TestSelectKernels: every kernel, all 59 BFS implementations, one by
// name, and the parser's error for an unknown name.
func TestSelectKernels(t *testing.T) {
	if ks, err := SelectKernels(""); err != nil || len(ks) != len(Kernels()) {
		t.Errorf("pagerank all: %d kernels, %v", len(ks), err)
	}
	if ks, err := SelectBFSKernels("all"); err != nil || len(ks) != 59 {
		t.Errorf("bfs all: %d kernels, %v", len(ks), err)
	}
	if ks, err := SelectBFSKernels("topo"); err != nil || len(ks) != 1 || ks[0].Name() != "topo" {
		t.Errorf("bfs topo: %v, %v", ks, err)
	}
	if _, err := SelectBFSKernels("nope"); err == nil {
		t.Error("no error for an unknown BFS kernel")
	}
	if _, err := SelectKernels("nope"); err == nil {
		t.Error("no error for an unknown PageRank kernel")
	}
}

// TestTablesDeclared: the workload tables of figure 2 from root 0, in both
// models (the abstract one prints "-" for bytes), for every BFS
// implementation and every PageRank kernel, declare every column, with the
// kinds their cells have.
func TestTablesDeclared(t *testing.T) {
	g := figure2(t)
	levels := BFSLevels(g, 0)
	tabletest.Declared(t, LevelsTable(levels), map[string]string{"n_f": "integer vertices", "m_u^in": "integer edges", "S_32": "integer edges"})
	kernels, err := SelectBFSKernels("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Model{Abstract, Concrete} {
		tab := EvaluateBFSRows("fig2", 0, m, kernels, levels, BFSConfig{}, true)
		tabletest.Declared(t, tab.Table(0, m), map[string]string{"level": "integer", "n'": "integer vertices", "ops_low": "integer operations", "bytes": "integer bytes"})
		tabletest.Declared(t, tab.Results[0].TermsTable(0, m), map[string]string{"count": "integer operations", "size": "integer bytes", "compiled": "text"})
		rows := EvaluatePageRankRows("fig2", g, m, Kernels())
		pt, _ := PageRankTable(rows, m)
		tabletest.Declared(t, pt, map[string]string{"reads": "integer operations", "atomic_bytes": "integer bytes"})
		for _, k := range Kernels() {
			tabletest.Declared(t, PageRankTermsTable(PageRankTerms("fig2", g, m, k), m), map[string]string{"count": "integer operations per unit", "size": "integer bytes"})
		}
	}
}
