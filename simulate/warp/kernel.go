package warp

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/workload/catalog"
)

// Kernel is a BFS implementation of the CUDA runner, from the catalog: its
// family, virtual warp width and frontier-count aggregation. The simulator
// follows nvcc (13.0, -O3, sm_90) on the aggregations: catalog.AggAtomic's
// one atomicAdd per discovery is one REDG per warp instruction with any
// discovery, catalog.AggBulk's one REDG per warp with a nonzero count.
type Kernel = catalog.Impl

// Claim is how push kernels claim a vertex (catalog.Claim).
type Claim = catalog.Claim

// The claims (see catalog.Claim).
const (
	ClaimCAS   = catalog.ClaimCAS
	ClaimPlain = catalog.ClaimPlain
)

// ErrUnknownKernel is returned (wrapped) by ParseKernel.
var ErrUnknownKernel = errors.New("warp: unknown kernel")

// ParseKernel parses a runner implementation name with catalog.Parse:
// "topo", "queue", "dobfs", or a family with an optional "/AGG"
// aggregation. The error wraps ErrUnknownKernel.
func ParseKernel(name string) (Kernel, error) {
	k, err := catalog.Parse(name)
	var pe *catalog.ParseError
	switch {
	case err == nil:
		return k, nil
	case !errors.As(err, &pe):
		return Kernel{}, fmt.Errorf("%w: %w", ErrUnknownKernel, err)
	case pe.Reason == "":
		return Kernel{}, fmt.Errorf("%w: %q", ErrUnknownKernel, name)
	default:
		return Kernel{}, fmt.Errorf("%w: %q: %s", ErrUnknownKernel, name, pe.Reason)
	}
}

// Kernels returns the names of every kernel the simulator runs with the
// atomic aggregation, in the runner's order, with the warp widths the
// runner builds (catalog.Representatives).
func Kernels() []string { return catalog.Names(catalog.Representatives()) }
