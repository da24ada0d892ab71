package mixmatch_test

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/mixmatch"
)

// The per-level optimum of two implementations measured from root 0 of a
// graph: queue is faster at level 0, topo at level 1.
func ExampleOracle_Decisions() {
	run := func(impl string, levels ...float64) aggregate.Run {
		return aggregate.Run{Impl: impl, LevelNs: levels, TotalNs: levels[0] + levels[1]}
	}
	o := &mixmatch.Oracle{Graph: mixmatch.GraphName("/data/g.txt.gz"), File: "results/g.jsonl.gz",
		ByRoot: map[uint32][]aggregate.Run{0: {run("queue", 10, 90), run("topo", 40, 30)}}}
	d, rows, err := o.Decisions(o.Roots())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range d.Levels {
		fmt.Printf("level %d: %s\n", l.Level, l.Impl)
	}
	fmt.Printf("switch %.0f ns, best single %s %.0f ns; default %s\n", rows[0].SwitchNs, rows[0].BestSingle, rows[0].BestSingleNs, d.Default)
	// Output:
	// level 0: queue
	// level 1: topo
	// switch 40 ns, best single topo 70 ns; default topo
}
