package gen

import (
	"github.com/graphperf/graphperf/workload/graph"
)

// Road is a road-network-like graph: a Rows × Cols grid, vertex r·Cols + c
// joined to its 4 neighbours, each grid edge removed independently with
// probability RemoveProb, plus Shortcuts long-range edges between uniformly
// chosen vertices that are not grid neighbours. Like road networks (seed
// 002 §5.1.2: roadNet-CA, maximum degree low, diameter 555) it has degrees
// of at most 4 before the shortcuts and a diameter of order Rows + Cols,
// which a few shortcuts shrink (the small-world effect).
type Road struct {
	Rows, Cols int
	RemoveProb float64
	Shortcuts  int
}

// Validate reports the first parameter out of range.
func (r Road) Validate() error {
	if r.Rows < 1 {
		return paramError("Road", "Rows", r.Rows, "must be at least 1")
	}
	if r.Cols < 1 {
		return paramError("Road", "Cols", r.Cols, "must be at least 1")
	}
	if uint64(r.Rows)*uint64(r.Cols) > graph.MaxVertices {
		return paramError("Road", "Rows·Cols", uint64(r.Rows)*uint64(r.Cols), "must be at most %d vertices", uint64(graph.MaxVertices))
	}
	if !(r.RemoveProb >= 0 && r.RemoveProb <= 1) {
		return paramError("Road", "RemoveProb", r.RemoveProb, "must be a probability in [0, 1]")
	}
	if r.Shortcuts < 0 {
		return paramError("Road", "Shortcuts", r.Shortcuts, "must be non-negative")
	}
	if free := r.nonAdjacentPairs() / 2; uint64(r.Shortcuts) > free {
		return paramError("Road", "Shortcuts", r.Shortcuts, "must be at most %d, half the vertex pairs that are not grid neighbours", free)
	}
	return nil
}

// gridEdges returns Rows·(Cols-1) + (Rows-1)·Cols.
func (r Road) gridEdges() uint64 {
	return uint64(r.Rows)*uint64(r.Cols-1) + uint64(r.Rows-1)*uint64(r.Cols)
}

func (r Road) nonAdjacentPairs() uint64 {
	n := uint64(r.Rows) * uint64(r.Cols)
	return n*(n-1)/2 - r.gridEdges()
}

// Undirected reports true.
func (r Road) Undirected() bool { return true }

// Generate lists the kept grid edges row by row (for each vertex, the edge
// to the right, then the edge down), then the shortcuts, drawn as uniform
// vertex pairs and redrawn when they are equal, grid neighbours, or already
// drawn (at most half the candidate pairs are ever taken, so a draw
// succeeds with probability at least 1/2). One stream, sequential. Progress
// units are vertices, then shortcuts. Time O(Rows·Cols + Shortcuts),
// memory the list plus a set of the shortcuts.
func (r Road) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n := r.Rows * r.Cols
	rng := newStream(seed, purposeRoad, 0)
	keepProb := 1 - r.RemoveProb
	expected := int(float64(r.gridEdges())*keepProb) + r.Shortcuts
	el := &graph.EdgeList{N: uint32(n), Src: make([]uint32, 0, expected), Dst: make([]uint32, 0, expected)}
	keep := func() bool { return float64(rng.Uint64()>>11)/(1<<53) < keepProb }
	rep := newReporter(int64(n)+int64(r.Shortcuts), progress)
	for row := range r.Rows {
		for col := range r.Cols {
			v := uint32(row*r.Cols + col)
			if col+1 < r.Cols && keep() {
				el.Src, el.Dst = append(el.Src, v), append(el.Dst, v+1)
			}
			if row+1 < r.Rows && keep() {
				el.Src, el.Dst = append(el.Src, v), append(el.Dst, v+uint32(r.Cols))
			}
		}
		rep.add(int64(r.Cols))
	}
	chosen := make(map[uint64]struct{}, r.Shortcuts)
	for len(chosen) < r.Shortcuts {
		u := uint32(uniformBelow(rng, uint64(n)))
		v := uint32(uniformBelow(rng, uint64(n)))
		if u == v || r.gridNeighbours(u, v) {
			continue
		}
		key := uint64(min(u, v))<<32 | uint64(max(u, v))
		if _, dup := chosen[key]; dup {
			continue
		}
		chosen[key] = struct{}{}
		el.Src, el.Dst = append(el.Src, u), append(el.Dst, v)
	}
	rep.finish()
	return el, nil
}

// gridNeighbours reports whether u and v are adjacent in the full grid.
func (r Road) gridNeighbours(u, v uint32) bool {
	ur, uc := int(u)/r.Cols, int(u)%r.Cols
	vr, vc := int(v)/r.Cols, int(v)%r.Cols
	dr, dc := ur-vr, uc-vc
	return dr*dr+dc*dc == 1
}
