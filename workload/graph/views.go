package graph

// Edge is one directed edge in array-of-structs layout: the element type of
// the struct edge list kernels (seed 004 §4.2.1, algorithm 2 "struct edge
// list"), 8 bytes, source first.
type Edge struct {
	Src, Dst uint32
}

// EdgesSoA returns the edge list in struct-of-arrays layout, ordered by source
// then target as the CSR stores them: src[i] -> dst[i]. dst aliases g.Targets
// (the edge list kernels read the same target array as the CSR kernels); src
// is a new slice. O(m).
func (g *CSR) EdgesSoA() (src, dst []uint32) {
	src = make([]uint32, len(g.Targets))
	for v := range g.NumVertices() {
		for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
			src[i] = uint32(v)
		}
	}
	return src, g.Targets
}

// EdgesAoS returns the edge list in array-of-structs layout, ordered by
// source then target. O(m), a new slice of 8 m bytes.
func (g *CSR) EdgesAoS() []Edge {
	edges := make([]Edge, len(g.Targets))
	for v := range g.NumVertices() {
		for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
			edges[i] = Edge{Src: uint32(v), Dst: g.Targets[i]}
		}
	}
	return edges
}

// ReverseEdgesSoA returns the reverse edge list of the reverse-edge-list
// kernels: edges ordered by target, as (dst[i] <- src[i]) pairs, i.e. the
// edge list of Reverse() with the roles named from the original graph.
func (g *CSR) ReverseEdgesSoA() (dst, src []uint32) {
	return g.Reverse().EdgesSoA()
}
