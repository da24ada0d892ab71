package kernels

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/workload/catalog"
)

// Impls lists the runner's 59 BFS implementations in its canonical order,
// the order of "--impl all" and "graphperf-bfs --list"
// (kernels/cuda/hostutil.h, all_impls): catalog.All's names.
var Impls = catalog.Names(catalog.All())

// PageRankImpls lists the PageRank runner's implementations in its
// canonical order (kernels/cuda/pagerank_host.h, pr_impls):
// catalog.PageRankNames.
var PageRankImpls = catalog.PageRankNames

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
