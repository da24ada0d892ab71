package props

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/workload/graph"
)

// RootSpecError is a root specification that names no vertex of the graph:
// Spec is neither a vertex id, "max" nor "random", or (OutOfRange) it is the
// id ID of a vertex that a graph of Vertices vertices does not have.
type RootSpecError struct {
	Spec       string
	OutOfRange bool
	ID         uint64 // the id Spec gives, when OutOfRange
	Vertices   int    // the graph's vertex count, when OutOfRange
}

func (e *RootSpecError) Error() string {
	if e.OutOfRange {
		return fmt.Sprintf("props: vertex %d does not exist (the graph has %d vertices)", e.ID, e.Vertices)
	}
	return fmt.Sprintf("props: %q is not a vertex id, \"max\" or \"random\"", e.Spec)
}

// ParseRoot returns the BFS root spec names in g: "max" or "" is
// MaxDegreeRoot, "random" is the first of RandomRoots(g, 1, seed), and a
// decimal vertex id is that vertex. A spec that is none of these, or an id
// of no vertex of g, is a *RootSpecError; "random" on a graph without an
// out-edge is RandomRoots' error (wrapping ErrTooFewRoots). O(n) for "max"
// and "random", O(1) for an id.
func ParseRoot(g *graph.CSR, spec string, seed uint64) (uint32, error) {
	switch spec {
	case "max", "":
		return MaxDegreeRoot(g), nil
	case "random":
		r, err := RandomRoots(g, 1, seed)
		if err != nil {
			return 0, err
		}
		return r[0], nil
	}
	v, err := strconv.ParseUint(spec, 10, 32)
	if err != nil {
		return 0, &RootSpecError{Spec: spec}
	}
	if v >= uint64(g.NumVertices()) {
		return 0, &RootSpecError{Spec: spec, OutOfRange: true, ID: v, Vertices: g.NumVertices()}
	}
	return uint32(v), nil
}

// RootRequest asks for BFS roots: K distinct random vertices with
// out-edges, drawn with Seed (RandomRoots), or with MaxDegree the vertex of
// highest out-degree alone (MaxDegreeRoot). K must be at least 1 either way.
type RootRequest struct {
	K         int
	Seed      uint64
	MaxDegree bool
}

// ErrRootCount is a RootRequest for fewer than one root.
var ErrRootCount = errors.New("props: want at least 1 root")

// Validate returns an error wrapping ErrRootCount when K < 1; it needs no
// graph, so a caller can check a request before loading one.
func (r RootRequest) Validate() error {
	if r.K < 1 {
		return fmt.Errorf("%w, got %d", ErrRootCount, r.K)
	}
	return nil
}

// TooFewRootsError is a RootRequest for more random roots than g has
// vertices with out-edges. It wraps ErrTooFewRoots.
type TooFewRootsError struct {
	Requested    int // K
	WithOutEdges int // the vertices with at least one out-edge
	Vertices     int // every vertex
}

func (e *TooFewRootsError) Error() string {
	return fmt.Sprintf("props: %d roots requested, only %d of %d vertices have out-edges",
		e.Requested, e.WithOutEdges, e.Vertices)
}

func (e *TooFewRootsError) Unwrap() error { return ErrTooFewRoots }

// Roots is what a RootRequest picked: the roots in draw order and the
// out-degree of each.
type Roots struct {
	Vertices   []uint32
	OutDegrees []int64
}

// Pick picks the roots r asks for in g: an error from Validate, or a
// *TooFewRootsError when fewer than K vertices have out-edges (random
// roots only). O(n + K).
func (r RootRequest) Pick(g *graph.CSR) (Roots, error) {
	if err := r.Validate(); err != nil {
		return Roots{}, err
	}
	var vs []uint32
	if r.MaxDegree {
		vs = []uint32{MaxDegreeRoot(g)}
	} else {
		if with := CountWithOutEdges(g); with < r.K {
			return Roots{}, &TooFewRootsError{Requested: r.K, WithOutEdges: with, Vertices: g.NumVertices()}
		}
		var err error
		if vs, err = RandomRoots(g, r.K, r.Seed); err != nil {
			return Roots{}, err
		}
	}
	out := Roots{Vertices: vs, OutDegrees: make([]int64, len(vs))}
	for i, v := range vs {
		out.OutDegrees[i] = g.Degree(v)
	}
	return out, nil
}

// CountWithOutEdges returns the number of vertices of g with at least one
// out-edge: the candidates of RandomRoots. O(n).
func CountWithOutEdges(g *graph.CSR) int {
	n := 0
	for v := range g.NumVertices() {
		if g.Offsets[v+1] > g.Offsets[v] {
			n++
		}
	}
	return n
}
