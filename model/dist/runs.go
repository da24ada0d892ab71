package dist

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// PickRoot resolves a root rule: "max" (the vertex of highest out-degree,
// props.MaxDegreeRoot), "random" (props.RandomRoots(g, 1, seed): a
// non-isolated vertex, as Graph500 draws its roots) or a vertex id.
func PickRoot(g *graph.CSR, rule string, seed uint64) (uint32, error) {
	switch rule {
	case "max":
		return props.MaxDegreeRoot(g), nil
	case "random", "":
		r, err := props.RandomRoots(g, 1, seed)
		if err != nil {
			return 0, err
		}
		return r[0], nil
	}
	v, err := strconv.ParseUint(rule, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("root %q: want a vertex id, \"max\" or \"random\"", rule)
	}
	if v >= uint64(g.NumVertices()) {
		return 0, fmt.Errorf("root %d does not exist (the graph has %d vertices)", v, g.NumVertices())
	}
	return uint32(v), nil
}

// DefaultRootRule is the root of every Graph500 run this package predicts:
// the first of props.RandomRoots with seed 1. Graph500 draws random
// non-isolated roots, and seed 003's level-1 messages (64 bytes from
// process 0 to each other one) come from a root of small degree, not a hub.
const DefaultRootRule = "random"

// Graph500 returns the Graph500 graph of scale (edge factor 16, generator
// seed, self-loops and repeated edges dropped): the graph of "graphperf
// graph gen kronecker --scale S --seed SEED", built without its edge list
// (gen.RMAT.BuildCSR).
func Graph500(scale int, seed uint64) (*graph.CSR, gen.Source, error) {
	src, err := gen.ParseSource(fmt.Sprintf("kronecker:scale=%d,edge_factor=16,seed=%d", scale, seed))
	if err != nil {
		return nil, gen.Source{}, err
	}
	g, err := src.Build(nil)
	return g, src, err
}

// Run is the traversal of one generated graph for several process counts.
type Run struct {
	Graph        string     `json:"graph"` // the gen.Source
	Scale        int        `json:"scale"`
	Vertices     int64      `json:"vertices"`
	Edges        int64      `json:"edges"`
	Root         uint32     `json:"root"`
	RootRule     string     `json:"root_rule"`
	BuildSeconds float64    `json:"build_seconds"`
	BFSSeconds   float64    `json:"bfs_seconds"`
	Volumes      []*Volumes `json:"-"`
}

// RunGraph500 builds Graph500 scale (generator seed 1) and traverses it
// from the root rule's root (random: RandomRoots seed 1) for every process
// count of procs.
func RunGraph500(scale int, procs []int, rootRule string) (*Run, error) {
	t0 := time.Now()
	g, src, err := Graph500(scale, 1)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	root, err := PickRoot(g, rootRule, 1)
	if err != nil {
		return nil, err
	}
	vols, err := Traverse(g, root, procs)
	if err != nil {
		return nil, err
	}
	return &Run{
		Graph: src.String(), Scale: scale, Vertices: int64(g.NumVertices()), Edges: g.NumEdges(),
		Root: root, RootRule: rootRule, BuildSeconds: t1.Sub(t0).Seconds(), BFSSeconds: time.Since(t1).Seconds(), Volumes: vols,
	}, nil
}

// ParseRange parses "21-27" or "20,22,24" or "21" into ints (a range is
// inclusive). name labels errors ("--scales").
func ParseRange(name, s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number or a range A-B", name, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("%s: %q is not a number or a range A-B", name, part)
			}
		}
		if b < a {
			return nil, fmt.Errorf("%s: range %q is empty", name, part)
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: empty list", name)
	}
	return out, nil
}

// SubsetRuns returns copies of runs holding only the Volumes of the process
// counts procs, in that order (those a run lacks are left out).
func SubsetRuns(runs []*Run, procs []int) []*Run {
	out := make([]*Run, len(runs))
	for i, r := range runs {
		c := *r
		c.Volumes = nil
		for _, p := range procs {
			for _, v := range r.Volumes {
				if v.Procs == p {
					c.Volumes = append(c.Volumes, v)
				}
			}
		}
		out[i] = &c
	}
	return out
}
