package cpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// figure2 is seed 000 figure 2, A..F = 0..5 (cmd/graphperf/testdata/fig2.txt).
func figure2() *graph.CSR {
	return &graph.CSR{
		Offsets:  []int64{0, 2, 5, 5, 5, 6, 6},
		Targets:  []uint32{1, 4, 2, 3, 4, 5},
		Directed: true,
	}
}

func TestFigure2(t *testing.T) {
	g := figure2()
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(g, 0, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if want := props.BFS(g, 0); !slices.Equal(res.Depth, want) {
		t.Fatalf("depths %v, want props.BFS %v", res.Depth, want)
	}
	// Completions C_i per round by hand from figure 2; round 1 is the
	// paper's "LEVEL = 2" of §3.2: C_ANI = C_NF1 = 6, C_ERL = 2 (B, E),
	// C_EDL = C_NF2 = 4 (B's three edges, E's one), C_OP = 3 (C, D, F).
	// Round 0 expands A (two edges, both unvisited); round 2 expands C, D,
	// F, which have no edges, and labels nothing.
	wantC := [][NumServers]int64{
		{6, 6, 1, 2, 2, 2},
		{6, 6, 2, 4, 4, 3},
		{6, 6, 3, 0, 0, 0},
	}
	// Memory instructions: none at ANI, one per NF1, EDL, NF2, OP
	// completion, two per ERL completion.
	wantI := [][NumServers]int64{
		{0, 6, 2, 2, 2, 2},
		{0, 6, 4, 4, 4, 3},
		{0, 6, 6, 0, 0, 0},
	}
	// Offsets (56 B), targets (24 B) and levels (24 B) each fill part of
	// one 64-byte line, so round 0 misses once per array (cold) and hits
	// L1 everywhere else: 14 - 3 = 11 L1 hits; rounds 1 and 2 hit L1 only.
	wantCounts := []Counts{{L1Hits: 11, Memory: 3}, {L1Hits: 21}, {L1Hits: 12}}
	if len(res.Levels) != len(wantC) {
		t.Fatalf("%d levels, want %d", len(res.Levels), len(wantC))
	}
	var total Counts
	var instructions int64
	for i, lv := range res.Levels {
		var sum Counts
		var n int64
		for s := range NumServers {
			sc := lv.Servers[s]
			if sc.Completions != wantC[i][s] || sc.Instructions != wantI[i][s] {
				t.Errorf("level %d %v: completions %d instructions %d, want %d %d",
					i, s, sc.Completions, sc.Instructions, wantC[i][s], wantI[i][s])
			}
			if got := sc.Served.L1Hits + sc.Served.L2Hits + sc.Served.L3Hits + sc.Served.Memory; got != sc.Instructions {
				t.Errorf("level %d %v: served %d, instructions %d", i, s, got, sc.Instructions)
			}
			sum = add(sum, sc.Served)
			n += sc.Instructions
		}
		if sum != lv.Counts || n != lv.Instructions {
			t.Errorf("level %d: servers sum to %+v (%d), level has %+v (%d)", i, sum, n, lv.Counts, lv.Instructions)
		}
		if lv.Counts != wantCounts[i] {
			t.Errorf("level %d: counts %+v, want %+v", i, lv.Counts, wantCounts[i])
		}
		total = add(total, lv.Counts)
		instructions += lv.Instructions
	}
	checkStats(t, res, total, instructions)
}

// checkStats checks the per-instruction counts against the hierarchy's
// own counters: every instruction is one L1 access (none spans a line),
// and the L2, L3 and memory see a load for every miss above them.
func checkStats(t *testing.T, res *Result, total Counts, instructions int64) {
	t.Helper()
	st := res.Stats
	if got := int64(st.Levels[0].Accesses().Count); got != instructions {
		t.Errorf("L1 accesses %d, instructions %d", got, instructions)
	}
	if got := int64(st.Levels[0].Hit().Count); got != total.L1Hits {
		t.Errorf("L1 hits %d, counted %d", got, total.L1Hits)
	}
	if got := int64(st.Levels[0].Miss().Count); got != total.L2Hits+total.L3Hits+total.Memory {
		t.Errorf("L1 misses %d, counted %+v", got, total)
	}
	if got := int64(st.Levels[1].Load.Hit.Count); got != total.L2Hits {
		t.Errorf("L2 load hits %d, counted %d", got, total.L2Hits)
	}
	if got := int64(st.Levels[2].Load.Hit.Count); got != total.L3Hits {
		t.Errorf("L3 load hits %d, counted %d", got, total.L3Hits)
	}
	if got := int64(st.MemoryLoad.Count); got != total.Memory {
		t.Errorf("memory loads %d, counted %d", got, total.Memory)
	}
}

func add(a, b Counts) Counts {
	return Counts{L1Hits: a.L1Hits + b.L1Hits, L2Hits: a.L2Hits + b.L2Hits,
		L3Hits: a.L3Hits + b.L3Hits, Memory: a.Memory + b.Memory}
}

// TestLargerGraph checks depths and counter consistency on a graph whose
// arrays overflow the L1 and L2: a ring with chords, out-degree 3, of 100000 vertices.
func TestLargerGraph(t *testing.T) {
	const n = 100000
	var off []int64
	var tgt []uint32
	for v := range uint32(n) {
		off = append(off, int64(len(tgt)))
		for _, d := range []uint32{1, 7, 5003} {
			tgt = append(tgt, (v+d)%n)
		}
		slices.Sort(tgt[len(tgt)-3:])
	}
	off = append(off, int64(len(tgt)))
	g := &graph.CSR{Offsets: off, Targets: tgt, Directed: true}
	res, err := Simulate(g, 3, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if want := props.BFS(g, 3); !slices.Equal(res.Depth, want) {
		t.Fatal("depths differ from props.BFS")
	}
	var total Counts
	var instructions int64
	for _, lv := range res.Levels {
		if lv.Servers[NF1].Instructions != n {
			t.Fatalf("level %d: NF1 %d, want %d", lv.Level, lv.Servers[NF1].Instructions, n)
		}
		total = add(total, lv.Counts)
		instructions += lv.Instructions
	}
	// The arrays (0.8 + 1.2 + 0.4 MB) overflow the 256 KiB L2; each round
	// streams through them, so lines come back from the L3.
	if total.L3Hits == 0 || total.Memory == 0 {
		t.Errorf("counts %+v: want L3 hits and memory accesses on a 2.4 MB working set", total)
	}
	checkStats(t, res, total, instructions)
}

func TestServerString(t *testing.T) {
	if ANI.String() != "ANI" || OP.String() != "OP" || NumServers.String() != "Server(6)" {
		t.Error("bad server names")
	}
}

// TestBadRoot: a root beyond the vertices is an ErrRoot error, not a panic.
func TestBadRoot(t *testing.T) {
	if _, err := Simulate(figure2(), 6, Config{}); !errors.Is(err, ErrRoot) {
		t.Fatalf("root 6 of 6 vertices: %v, want ErrRoot", err)
	}
	if _, err := Simulate(&graph.CSR{Offsets: []int64{0}}, 0, Config{}); !errors.Is(err, ErrNoVertices) {
		t.Fatalf("empty graph: %v, want ErrNoVertices", err)
	}
}
