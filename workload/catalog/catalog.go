package catalog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Family is a BFS implementation family of the CUDA runner: seed 004
// §4.5.1 (algorithms 11-15), seed 000 listing 2 (topo) and seed 002 §4.2
// (queue, dobfs). The values follow the runner's canonical order; they are
// a feature of model/predict's tree, so they must not be renumbered.
type Family int

const (
	// Topo is k_topo, seed 000 listing 2: every vertex, plain stores, a
	// changed flag.
	Topo Family = iota
	// EdgeList is k_edge_list, algorithm 11 over struct-of-arrays src[],
	// dst[] ordered by source.
	EdgeList
	// StructEdgeList is k_struct_edge_list, algorithm 11 over 8-byte
	// {src, dst} structs.
	StructEdgeList
	// RevEdgeList is k_rev_edge_list, algorithm 11 over edges ordered by
	// destination, pull style.
	RevEdgeList
	// RevStructEdgeList is k_rev_struct_edge_list.
	RevStructEdgeList
	// VertexPush is k_vertex_push, algorithm 12.
	VertexPush
	// VertexPull is k_vertex_pull, algorithm 13 (with the first-parent
	// break of the CUDA code).
	VertexPull
	// VertexPushWarp is k_vertex_push_warp<W>, algorithm 14.
	VertexPushWarp
	// VertexPullWarp is k_vertex_pull_warp<W>, algorithm 15.
	VertexPullWarp
	// Queue is the data-driven top-down BFS of seed 002 algorithm 4: a CUB
	// scan, then k_queue_expand.
	Queue
	// DOBFS is direction-optimizing BFS (seed 002 §2.4.2, §4.2.3): queue
	// levels top-down, k_bottom_up levels bottom-up, with the conversions.
	DOBFS
	// NumFamilies is the number of Family values.
	NumFamilies
)

// families holds each family's name and direction, indexed by Family.
var families = [NumFamilies]struct {
	name      string
	direction Direction
}{
	Topo:              {"topo", Push},
	EdgeList:          {"edge-list", Push},
	StructEdgeList:    {"struct-edge-list", Push},
	RevEdgeList:       {"rev-edge-list", Pull},
	RevStructEdgeList: {"rev-struct-edge-list", Pull},
	VertexPush:        {"vertex-push", Push},
	VertexPull:        {"vertex-pull", Pull},
	VertexPushWarp:    {"vertex-push-warp", Push},
	VertexPullWarp:    {"vertex-pull-warp", Pull},
	Queue:             {"queue", Push},
	DOBFS:             {"dobfs", Switching},
}

// String returns the family's name without a width: "vertex-push-warp".
func (f Family) String() string {
	if f < 0 || f >= NumFamilies {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return families[f].name
}

// Warped reports whether the family takes a virtual warp width.
func (f Family) Warped() bool { return f == VertexPushWarp || f == VertexPullWarp }

// Aggregated reports whether the family has the four frontier-count
// aggregations: every family but topo, queue and dobfs.
func (f Family) Aggregated() bool {
	return f >= 0 && f < NumFamilies && f != Topo && f != Queue && f != DOBFS
}

// Direction returns which way the family's kernels move along edges.
func (f Family) Direction() Direction {
	if f < 0 || f >= NumFamilies {
		return 0
	}
	return families[f].direction
}

// Direction is which way a BFS kernel moves along edges.
type Direction int

const (
	// Push: a frontier vertex (or edge source) writes its unvisited
	// neighbours (top-down).
	Push Direction = iota + 1
	// Pull: an unvisited vertex (or edge destination) reads its
	// in-neighbours until one is in the frontier (bottom-up).
	Pull
	// Switching: dobfs, top-down or bottom-up level by level.
	Switching
)

// String returns "push", "pull" or "switching".
func (d Direction) String() string {
	switch d {
	case Push:
		return "push"
	case Pull:
		return "pull"
	case Switching:
		return "switching"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// Aggregation is how a kernel counts its discoveries (seed 004 §4.5.1;
// FrontierCount in kernels/cuda/bfs_kernels.cuh lines 60-82).
type Aggregation int

const (
	// AggNone: topo (a changed flag), queue and dobfs (their own counters).
	AggNone Aggregation = iota
	// AggAtomic: one atomicAdd per discovery (line 66). nvcc (13.0, -O3,
	// sm_90) aggregates it per warp: one REDG per warp instruction with any
	// discovery (VOTEU.ANY, then the leader adds the popcount).
	AggAtomic
	// AggBulk: one atomicAdd per thread with a nonzero count (line 73);
	// nvcc reduces it to one REDG per warp with a nonzero count (REDUX).
	AggBulk
	// AggWarp: __reduce_add_sync, one atomicAdd per warp with a nonzero
	// sum (line 76).
	AggWarp
	// AggBlock: a block reduction, one atomicAdd per block with a nonzero
	// sum (line 79).
	AggBlock
	// NumAggregations is the number of Aggregation values.
	NumAggregations
)

var aggregationNames = [NumAggregations]string{"-", "atomic", "bulk", "warp-reduce", "block-reduce"}

// String returns the runner's name of the aggregation, "-" for AggNone.
func (a Aggregation) String() string {
	if a < 0 || a >= NumAggregations {
		return fmt.Sprintf("Aggregation(%d)", int(a))
	}
	return aggregationNames[a]
}

// Aggregations are the four aggregations of an aggregated family, in the
// runner's order.
var Aggregations = []Aggregation{AggAtomic, AggBulk, AggWarp, AggBlock}

// Widths are the virtual warp widths the runner builds, in its order.
// Parse accepts 2 as well.
var Widths = []int{4, 8, 16, 32}

// Claim is how push and edge-list kernels claim a vertex (the runner's
// --claim; bfs_kernels.cuh claim_t, lines 88-97).
type Claim int

const (
	// ClaimCAS: depth[v] == -1, then atomicCAS(&depth[v], -1, L+1).
	ClaimCAS Claim = iota
	// ClaimPlain: depth[v] == -1, then a plain store of L+1.
	ClaimPlain
)

// String returns "cas" or "plain".
func (c Claim) String() string {
	if c == ClaimPlain {
		return "plain"
	}
	return "cas"
}

// Impl is one BFS implementation of the runner.
type Impl struct {
	Family Family
	// Width is the virtual warp width W (2, 4, 8, 16 or 32) of the warp
	// families, 1 otherwise.
	Width int
	// Aggregation is AggNone for topo, queue and dobfs.
	Aggregation Aggregation
}

// Name returns the runner's name: "topo", "vertex-push-warp16/block-reduce".
func (k Impl) Name() string {
	base := k.Family.String()
	if k.Family.Warped() {
		base += strconv.Itoa(k.Width)
	}
	if k.Aggregation == AggNone {
		return base
	}
	return base + "/" + k.Aggregation.String()
}

// Direction returns the family's direction.
func (k Impl) Direction() Direction { return k.Family.Direction() }

// Valid reports whether k is an implementation Parse could return: a
// family, a width of 2 to 32 (a power of two) for the warp families and 1
// for the others, and an aggregation exactly where the family has them.
func (k Impl) Valid() bool {
	if k.Family < 0 || k.Family >= NumFamilies {
		return false
	}
	if k.Family.Warped() {
		if k.Width < 2 || k.Width > 32 || k.Width&(k.Width-1) != 0 {
			return false
		}
	} else if k.Width != 1 {
		return false
	}
	if k.Family.Aggregated() {
		return k.Aggregation > AggNone && k.Aggregation < NumAggregations
	}
	return k.Aggregation == AggNone
}

// ErrUnknown is wrapped by every *ParseError.
var ErrUnknown = errors.New("catalog: unknown implementation")

// ParseError is Parse's error: the name and, when the family was
// recognised, why the rest is wrong.
type ParseError struct {
	Name string
	// Reason is empty when no family matched the name.
	Reason string
}

func (e *ParseError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("%v: %q", ErrUnknown, e.Name)
	}
	return fmt.Sprintf("%v: %q: %s", ErrUnknown, e.Name, e.Reason)
}

// Unwrap returns ErrUnknown.
func (e *ParseError) Unwrap() error { return ErrUnknown }

// Parse parses a runner implementation name (kernels/cuda/README.md):
// "topo", "queue", "dobfs", or a family with an optional "/AGG" (atomic,
// bulk, warp-reduce, block-reduce; "warp" and "block" as in the runner). A
// family alone means the atomic aggregation; "vertex-push-warp" alone means
// width 32. Widths 2 to 32 (powers of two) are accepted; the runner builds
// Widths. The error is a *ParseError.
func Parse(name string) (Impl, error) {
	base, agg, hasAgg := strings.Cut(name, "/")
	k := Impl{Family: -1, Width: 1}
	for f := range NumFamilies {
		fn := f.String()
		if base == fn {
			k.Family = f
			if f.Warped() {
				k.Width = 32
			}
			break
		}
		if rest, ok := strings.CutPrefix(base, fn); ok && f.Warped() {
			w, err := strconv.Atoi(rest)
			if err != nil || w < 2 || w > 32 || w&(w-1) != 0 {
				return Impl{}, &ParseError{name, "virtual warp width must be 2, 4, 8, 16 or 32"}
			}
			k.Family, k.Width = f, w
			break
		}
	}
	if k.Family < 0 {
		return Impl{}, &ParseError{Name: name}
	}
	if !k.Family.Aggregated() {
		if hasAgg {
			return Impl{}, &ParseError{name, fmt.Sprintf("%v has no aggregation variants", k.Family)}
		}
		return k, nil
	}
	k.Aggregation = AggAtomic
	if hasAgg {
		switch agg {
		case "atomic":
		case "bulk":
			k.Aggregation = AggBulk
		case "warp-reduce", "warp":
			k.Aggregation = AggWarp
		case "block-reduce", "block":
			k.Aggregation = AggBlock
		default:
			return Impl{}, &ParseError{name, fmt.Sprintf("aggregation %q is not atomic, bulk, warp-reduce or block-reduce", agg)}
		}
	}
	return k, nil
}

// FamilyNames returns the names of the families in order: topo, edge-list,
// ..., dobfs.
func FamilyNames() []string {
	names := make([]string, NumFamilies)
	for f := range NumFamilies {
		names[f] = f.String()
	}
	return names
}

// All returns the runner's 59 BFS implementations in its canonical order,
// the order of "--impl all" and "graphperf-bfs --list"
// (kernels/cuda/hostutil.h, all_impls): topo; the edge-list,
// struct-edge-list, rev-edge-list, rev-struct-edge-list, vertex-push and
// vertex-pull families with each aggregation; the push and pull
// virtual-warp families at each of Widths with each aggregation; queue;
// dobfs.
func All() []Impl { return impls(Aggregations) }

// Representatives returns one implementation per family and width, with
// the atomic aggregation, in the runner's order: 17 implementations.
func Representatives() []Impl { return impls([]Aggregation{AggAtomic}) }

func impls(aggs []Aggregation) []Impl {
	v := []Impl{{Family: Topo, Width: 1}}
	for f := EdgeList; f <= VertexPull; f++ {
		for _, a := range aggs {
			v = append(v, Impl{f, 1, a})
		}
	}
	for _, f := range []Family{VertexPushWarp, VertexPullWarp} {
		for _, w := range Widths {
			for _, a := range aggs {
				v = append(v, Impl{f, w, a})
			}
		}
	}
	return append(v, Impl{Family: Queue, Width: 1}, Impl{Family: DOBFS, Width: 1})
}

// Names returns the names of impls.
func Names(impls []Impl) []string {
	names := make([]string, len(impls))
	for i, k := range impls {
		names[i] = k.Name()
	}
	return names
}

// PageRankNames lists the PageRank runner's implementations in its
// canonical order, the order of "--impl all" and "graphperf-pr --list"
// (kernels/cuda/pagerank_host.h, pr_impls): seed 004 §4.4.1 algorithms 1-9.
// The warp kinds run with the runner's --warp-width (32 unless given).
var PageRankNames = []string{
	"edge-list", "struct-edge-list", "rev-edge-list",
	"vertex-push", "vertex-pull", "vertex-pull-nodiv",
	"vertex-push-warp", "vertex-pull-warp", "vertex-pull-warp-nodiv",
}

// The runner's launch defaults (kernels/cuda/README.md and hostutil.h;
// seed 002 line 453 for alpha and beta).
const (
	// DefaultBlockSize is --block-size, threads per block.
	DefaultBlockSize = 256
	// DefaultBlocksPerSM is --blocks-per-sm: the grid cap is SMs x 16
	// blocks (GridCap).
	DefaultBlocksPerSM = 16
	// DefaultAlpha and DefaultBeta are dobfs's switching parameters (seed
	// 002 §4.2.1).
	DefaultAlpha = 15
	DefaultBeta  = 18
)

// GridCap returns the runner's default grid cap on a GPU of sms SMs,
// sms x DefaultBlocksPerSM blocks (--grid-cap -1).
func GridCap(sms int) int { return sms * DefaultBlocksPerSM }
