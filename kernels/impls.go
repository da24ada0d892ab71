package kernels

import (
	"fmt"
	"strconv"
	"strings"
)

// aggregations are the frontier-count aggregations of the kinds that have
// them (seed 004 §4.5.1), in the runner's order.
var aggregations = []string{"atomic", "bulk", "warp-reduce", "block-reduce"}

// Impls lists the runner's BFS implementations in its canonical order, the
// order of "--impl all" and "graphperf-bfs --list" (kernels/cuda/hostutil.h,
// all_impls): topo; the edge-list, struct-edge-list, rev-edge-list,
// rev-struct-edge-list, vertex-push and vertex-pull kinds with each
// aggregation; the push and pull virtual-warp kinds of width 4, 8, 16 and 32
// with each aggregation; queue; dobfs. 59 names.
var Impls = func() []string {
	v := []string{"topo"}
	for _, base := range []string{"edge-list", "struct-edge-list", "rev-edge-list", "rev-struct-edge-list", "vertex-push", "vertex-pull"} {
		for _, a := range aggregations {
			v = append(v, base+"/"+a)
		}
	}
	for _, base := range []string{"vertex-push-warp", "vertex-pull-warp"} {
		for _, w := range []int{4, 8, 16, 32} {
			for _, a := range aggregations {
				v = append(v, base+strconv.Itoa(w)+"/"+a)
			}
		}
	}
	return append(v, "queue", "dobfs")
}()

// PageRankImpls lists the PageRank runner's implementations in its
// canonical order, the order of "--impl all" and "graphperf-pr --list"
// (kernels/cuda/pagerank_host.h, pr_impls): seed 004 §4.4.1 algorithms 1-9.
// The warp kinds run with the runner's --warp-width (32 unless given).
var PageRankImpls = []string{
	"edge-list", "struct-edge-list", "rev-edge-list",
	"vertex-push", "vertex-pull", "vertex-pull-nodiv",
	"vertex-push-warp", "vertex-pull-warp", "vertex-pull-warp-nodiv",
}

// implBase returns the name without its aggregation.
func implBase(name string) string {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return name
}

// normaliseImpl spells a selector the runner's way: "warp" and "block" are
// the warp-reduce and block-reduce aggregations, and vertex-push-warp /
// vertex-pull-warp without a width mean width 32.
func normaliseImpl(tok string) string {
	base, agg, hasAgg := strings.Cut(tok, "/")
	if base == "vertex-push-warp" || base == "vertex-pull-warp" {
		base += "32"
	}
	switch agg {
	case "warp":
		agg = "warp-reduce"
	case "block":
		agg = "block-reduce"
	}
	if !hasAgg {
		return base
	}
	return base + "/" + agg
}

// SelectImpls expands implementation selectors the way the runner's --impl
// does (kernels/cuda/README.md): "all"; a full name; a base name such as
// "edge-list" for its four aggregations; a prefix ending in "*"; with the
// runner's aliases. Each selector may itself be a comma-separated list. The
// result is in order of first appearance, without duplicates, out of
// universe (nil: Impls; PageRankImpls for the PageRank runner, whose names
// are matched as they are before any alias applies). An unknown selector
// is an error.
func SelectImpls(selectors []string, universe []string) ([]string, error) {
	if universe == nil {
		universe = Impls
	}
	taken := make([]bool, len(universe))
	var out []string
	take := func(i int) {
		if !taken[i] {
			taken[i] = true
			out = append(out, universe[i])
		}
	}
	for _, sel := range selectors {
		for _, tok := range strings.Split(sel, ",") {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				continue
			}
			any := false
			switch {
			case tok == "all":
				for i := range universe {
					take(i)
				}
				any = true
			case strings.HasSuffix(tok, "*"):
				prefix := strings.TrimSuffix(tok, "*")
				for i, name := range universe {
					if strings.HasPrefix(name, prefix) {
						take(i)
						any = true
					}
				}
			default:
				n := normaliseImpl(tok)
				for i, name := range universe {
					if name == tok || name == n || implBase(name) == n {
						take(i)
						any = true
					}
				}
			}
			if !any {
				return nil, fmt.Errorf("unknown implementation %q (graphperf-bfs --list and graphperf-pr --list print the names)", tok)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no implementation selected")
	}
	return out, nil
}
