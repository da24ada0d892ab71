package warp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Variant is a BFS implementation of the CUDA runner
// (kernels/cuda/README.md, "Implementations").
type Variant int

const (
	Topo Variant = iota
	VertexPush
	VertexPull
	EdgeList
	StructEdgeList
	RevEdgeList
	RevStructEdgeList
	VertexPushWarp
	VertexPullWarp
	Queue
	DOBFS
	numVariants
)

var variantNames = [numVariants]string{
	"topo", "vertex-push", "vertex-pull", "edge-list", "struct-edge-list", "rev-edge-list",
	"rev-struct-edge-list", "vertex-push-warp", "vertex-pull-warp", "queue", "dobfs",
}

func (v Variant) String() string {
	if v < 0 || v >= numVariants {
		return fmt.Sprintf("Variant(%d)", int(v))
	}
	return variantNames[v]
}

// Aggregation is how a kernel counts its discoveries (seed 004 §4.5.1).
type Aggregation int

const (
	// AggNone: topo (a changed flag), queue and dobfs (their own counters).
	AggNone Aggregation = iota
	// AggAtomic: one atomicAdd per discovery. nvcc (13.0, -O3, sm_90)
	// aggregates it per warp: one REDG per warp instruction with any
	// discovery (VOTEU.ANY, then the leader adds the popcount).
	AggAtomic
	// AggBulk: one atomicAdd per thread at the end if its count is nonzero;
	// nvcc reduces it to one REDG per warp with a nonzero count (REDUX).
	AggBulk
	// AggWarp: __reduce_add_sync, one atomicAdd per warp with a nonzero sum.
	AggWarp
	// AggBlock: a block reduction, one atomicAdd per block with a nonzero
	// sum.
	AggBlock
	numAggregations
)

var aggNames = [numAggregations]string{"-", "atomic", "bulk", "warp-reduce", "block-reduce"}

func (a Aggregation) String() string {
	if a < 0 || a >= numAggregations {
		return fmt.Sprintf("Aggregation(%d)", int(a))
	}
	return aggNames[a]
}

// Claim is how push kernels claim a vertex (kernels/cuda/README.md,
// "Claiming a vertex").
type Claim int

const (
	// ClaimCAS: check depth[v] == -1, then atomicCAS(depth[v], -1, L+1).
	ClaimCAS Claim = iota
	// ClaimPlain: check, then a plain store of L+1 (--claim plain).
	ClaimPlain
)

func (c Claim) String() string {
	if c == ClaimPlain {
		return "plain"
	}
	return "cas"
}

// Kernel is a parsed implementation name.
type Kernel struct {
	Variant Variant
	// Width is the virtual warp width W of the warp variants (2, 4, 8, 16
	// or 32), 1 otherwise.
	Width int
	// Aggregation is the frontier-count variant; AggNone for topo, queue and
	// dobfs.
	Aggregation Aggregation
}

// Name returns the runner's canonical name: "topo",
// "vertex-push-warp16/block-reduce", ...
func (k Kernel) Name() string {
	base := k.Variant.String()
	if k.Variant == VertexPushWarp || k.Variant == VertexPullWarp {
		base += strconv.Itoa(k.Width)
	}
	if k.Aggregation == AggNone {
		return base
	}
	return base + "/" + k.Aggregation.String()
}

// ErrUnknownKernel is returned (wrapped) by ParseKernel.
var ErrUnknownKernel = errors.New("warp: unknown kernel")

// ParseKernel parses a runner implementation name (kernels/cuda/README.md):
// "topo", "queue", "dobfs", or a base name with an optional "/AGG"
// aggregation (atomic, bulk, warp-reduce, block-reduce; "warp" and "block"
// are accepted as in the runner). A base name alone means the atomic
// aggregation. The warp kinds take a width, "vertex-push-warp8"; without one
// the width is 32. Widths 2 to 32 (powers of two) are accepted; the runner
// builds 4 to 32.
func ParseKernel(name string) (Kernel, error) {
	base, agg, hasAgg := strings.Cut(name, "/")
	k := Kernel{Width: 1}
	found := false
	for v := Variant(0); v < numVariants; v++ {
		vn := v.String()
		switch {
		case base == vn:
			k.Variant, found = v, true
			if v == VertexPushWarp || v == VertexPullWarp {
				k.Width = 32
			}
		case (v == VertexPushWarp || v == VertexPullWarp) && strings.HasPrefix(base, vn):
			w, err := strconv.Atoi(base[len(vn):])
			if err != nil || w < 2 || w > 32 || w&(w-1) != 0 {
				return Kernel{}, fmt.Errorf("%w: %q: virtual warp width must be 2, 4, 8, 16 or 32", ErrUnknownKernel, name)
			}
			k.Variant, k.Width, found = v, w, true
		}
		if found {
			break
		}
	}
	if !found {
		return Kernel{}, fmt.Errorf("%w: %q", ErrUnknownKernel, name)
	}
	switch k.Variant {
	case Topo, Queue, DOBFS:
		if hasAgg {
			return Kernel{}, fmt.Errorf("%w: %q: %v has no aggregation variants", ErrUnknownKernel, name, k.Variant)
		}
		return k, nil
	}
	k.Aggregation = AggAtomic
	if hasAgg {
		switch agg {
		case "atomic":
			k.Aggregation = AggAtomic
		case "bulk":
			k.Aggregation = AggBulk
		case "warp-reduce", "warp":
			k.Aggregation = AggWarp
		case "block-reduce", "block":
			k.Aggregation = AggBlock
		default:
			return Kernel{}, fmt.Errorf("%w: %q: aggregation %q is not atomic, bulk, warp-reduce or block-reduce",
				ErrUnknownKernel, name, agg)
		}
	}
	return k, nil
}

// Kernels returns the names of every kernel the simulator runs with the
// atomic aggregation, in the runner's order, with the warp widths the
// runner builds (4 to 32).
func Kernels() []string {
	names := []string{"topo"}
	for _, v := range []Variant{EdgeList, StructEdgeList, RevEdgeList, RevStructEdgeList, VertexPush, VertexPull} {
		names = append(names, Kernel{Variant: v, Width: 1, Aggregation: AggAtomic}.Name())
	}
	for _, v := range []Variant{VertexPushWarp, VertexPullWarp} {
		for _, w := range []int{4, 8, 16, 32} {
			names = append(names, Kernel{Variant: v, Width: w, Aggregation: AggAtomic}.Name())
		}
	}
	return append(names, "queue", "dobfs")
}
