package catalog_test

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

// TestViewsAgree checks that the runner's list (kernels.Impls), the warp
// simulator (simulate/warp) and the workload models (workload/cost) see the
// same 59 implementations as the catalog, with the same family, width,
// aggregation and direction, and that the simulator and the concrete model
// run every one of them.
func TestViewsAgree(t *testing.T) {
	all := catalog.All()
	names := catalog.Names(all)
	if !slices.Equal(kernels.Impls, names) {
		t.Errorf("kernels.Impls = %v\nwant %v", kernels.Impls, names)
	}
	if got := cost.AllBFSKernels(); !slices.Equal(got, names) {
		t.Errorf("cost.AllBFSKernels() = %v\nwant %v", got, names)
	}
	if got, want := warp.Kernels(), cost.BFSKernels(); !slices.Equal(got, want) || len(got) != 17 {
		t.Errorf("warp.Kernels() = %v, cost.BFSKernels() = %v", got, want)
	}
	el := &graph.EdgeList{N: 6} // seed 000 figure 2
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	levels := cost.BFSLevels(g, 0)
	for _, k := range all {
		name := k.Name()
		wk, err := warp.ParseKernel(name)
		if err != nil || wk != k {
			t.Errorf("warp.ParseKernel(%q) = %+v, %v; want %+v", name, wk, err, k)
		}
		ck, err := cost.ParseBFSKernel(name)
		if err != nil || ck != k || ck.Family.Direction() != k.Direction() {
			t.Errorf("cost.ParseBFSKernel(%q) = %+v, %v; want %+v", name, ck, err, k)
		}
		res, err := warp.Run(g, 0, warp.Config{Kernel: name})
		if err != nil || res.Kernel != k {
			t.Errorf("warp.Run(%q): kernel %+v, %v", name, res.Kernel, err)
		}
		if r := cost.EvaluateBFS(cost.Concrete, ck, levels, cost.BFSConfig{}); r == nil || len(r.Levels) == 0 {
			t.Errorf("cost.EvaluateBFS(%q): no levels", name)
		}
	}
}
