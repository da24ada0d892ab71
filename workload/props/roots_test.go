package props

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseRoot(t *testing.T) {
	g := figure2(t) // out-degrees A..F 2 3 0 0 1 0
	random, err := RandomRoots(g, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec       string
		want       uint32
		wantErr    string // substring of the error, "" for none
		outOfRange bool
	}{
		{spec: "max", want: vB}, // B has the highest out-degree, 3
		{spec: "", want: vB},    // the default is max
		{spec: "random", want: random[0]},
		{spec: "4", want: vE},
		{spec: "5", want: vF},
		{spec: "6", wantErr: "vertex 6 does not exist (the graph has 6 vertices)", outOfRange: true},
		{spec: "007", wantErr: "vertex 7 does not exist", outOfRange: true}, // the id, as parsed
		{spec: "-1", wantErr: `"-1" is not a vertex id, "max" or "random"`},
		{spec: "Max", wantErr: `"Max" is not a vertex id`},
		{spec: "4294967296", wantErr: `"4294967296" is not a vertex id`}, // 2^32 overflows a vertex id
	}
	for _, tt := range tests {
		got, err := ParseRoot(g, tt.spec, 7)
		if tt.wantErr == "" {
			if err != nil || got != tt.want {
				t.Errorf("ParseRoot(%q) = %d, %v, want %d", tt.spec, got, err, tt.want)
			}
			continue
		}
		var se *RootSpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseRoot(%q) error = %v, want a *RootSpecError containing %q", tt.spec, err, tt.wantErr)
			continue
		}
		if se.Spec != tt.spec || se.OutOfRange != tt.outOfRange {
			t.Errorf("ParseRoot(%q): %+v, want Spec %q, OutOfRange %v", tt.spec, se, tt.spec, tt.outOfRange)
		}
	}
	// A graph without out-edges has no random root: RandomRoots' error,
	// not a *RootSpecError.
	_, err = ParseRoot(build(t, 3, nil, false), "random", 1)
	var se *RootSpecError
	if !errors.Is(err, ErrTooFewRoots) || errors.As(err, &se) {
		t.Errorf("ParseRoot(random) without edges: %v, want ErrTooFewRoots", err)
	}
}

func TestRootRequest(t *testing.T) {
	g := figure2(t) // out-degrees A..F 2 3 0 0 1 0: A, B and E have out-edges
	if got := CountWithOutEdges(g); got != 3 {
		t.Fatalf("CountWithOutEdges = %d, want 3", got)
	}
	t.Run("random", func(t *testing.T) {
		got, err := RootRequest{K: 3, Seed: 9}.Pick(g)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := RandomRoots(g, 3, 9)
		if !slices.Equal(got.Vertices, want) {
			t.Errorf("roots %v, want RandomRoots' %v", got.Vertices, want)
		}
		degree := map[uint32]int64{vA: 2, vB: 3, vE: 1}
		for i, v := range got.Vertices {
			if got.OutDegrees[i] != degree[v] {
				t.Errorf("out-degree of %d = %d, want %d", v, got.OutDegrees[i], degree[v])
			}
		}
	})
	t.Run("max", func(t *testing.T) {
		// K is ignored with MaxDegree beyond being valid: 100 > 3 candidates.
		got, err := RootRequest{K: 100, MaxDegree: true}.Pick(g)
		if err != nil || !slices.Equal(got.Vertices, []uint32{vB}) || !slices.Equal(got.OutDegrees, []int64{3}) {
			t.Errorf("max: %+v, %v, want B with out-degree 3", got, err)
		}
	})
	t.Run("too few", func(t *testing.T) {
		_, err := RootRequest{K: 4}.Pick(g)
		var few *TooFewRootsError
		if !errors.As(err, &few) || !errors.Is(err, ErrTooFewRoots) {
			t.Fatalf("K 4 of 3 candidates: %v, want a *TooFewRootsError", err)
		}
		if *few != (TooFewRootsError{Requested: 4, WithOutEdges: 3, Vertices: 6}) {
			t.Errorf("error %+v, want 4 requested, 3 with out-edges of 6", *few)
		}
	})
	for _, k := range []int{0, -1} {
		r := RootRequest{K: k, MaxDegree: true}
		if err := r.Validate(); !errors.Is(err, ErrRootCount) {
			t.Errorf("Validate K %d: %v, want ErrRootCount", k, err)
		}
		if _, err := r.Pick(g); !errors.Is(err, ErrRootCount) {
			t.Errorf("Pick K %d: %v, want ErrRootCount", k, err)
		}
	}
}

func TestReportLevels(t *testing.T) {
	g := figure2(t)
	// From A: levels {A}, {B, E}, {C, D, F} (TestLevelsFigure2), so the
	// eccentricity is 2 and "discovered" per level is the next frontier:
	// 2, 3, 0.
	got := ReportLevels(g, vA)
	if got.Root != vA || got.Eccentricity != 2 || got.DepthHash != DepthHash(BFS(g, vA)) {
		t.Errorf("ReportLevels(A) = root %d, eccentricity %d, hash %x; want A, 2, %x",
			got.Root, got.Eccentricity, got.DepthHash, DepthHash(BFS(g, vA)))
	}
	if want := Records(Levels(g, vA)); !slices.Equal(got.Levels, want) {
		t.Errorf("levels %+v, want %+v", got.Levels, want)
	}
	var discovered []int64
	for _, l := range got.Levels {
		discovered = append(discovered, l.Discovered)
	}
	if want := []int64{2, 3, 0}; !slices.Equal(discovered, want) {
		t.Errorf("discovered %v, want %v", discovered, want)
	}
	// From the sink F: one level, eccentricity 0.
	if got := ReportLevels(g, vF); got.Eccentricity != 0 || len(got.Levels) != 1 {
		t.Errorf("ReportLevels(F): eccentricity %d, %d levels; want 0, 1", got.Eccentricity, len(got.Levels))
	}
}

func TestDegreeSummaries(t *testing.T) {
	p := Compute(figure2(t))
	got := p.DegreeSummaries()
	want := []DegreeSummary{{"abs", p.Abs}, {"in", p.In}, {"out", p.Out}}
	if !slices.Equal(got, want) {
		t.Errorf("DegreeSummaries = %+v, want %+v", got, want)
	}
	// Figure 2's out-degrees have maximum 3 (B), its in-degrees 2 (E) and
	// its absolute degrees 4 (B: 3 out, 1 in): the rows are not mixed up.
	for i, wantMax := range []float64{4, 2, 3} {
		if got[i].Max != wantMax {
			t.Errorf("%s: max %g, want %g", got[i].Degree, got[i].Max, wantMax)
		}
	}
}
