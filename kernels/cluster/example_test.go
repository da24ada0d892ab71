package cluster_test

import (
	"fmt"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// Shard a corpus of five graphs into two shards of about equal estimated
// work and print the job array's index list.
func ExampleNewPlan() {
	c, err := kernels.ParseCorpus([]byte(`graphs:
  - {name: rmat-s16, gen: {kind: rmat, scale: 16, edge_factor: 16}}
  - {name: rmat-s14, gen: {kind: rmat, scale: 14, edge_factor: 16}}
  - {name: rmat-s15, gen: {kind: rmat, scale: 15, edge_factor: 16}}
  - {name: er-16k, gen: {kind: er, n: 16384, m: 131072}}
  - {name: ba-32k, gen: {kind: ba, n: 32768, attach: 16}}
`), "corpus.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := cluster.NewPlan(c, cluster.Options{
		Sweep:  kernels.SweepOptions{Runner: "/opt/graphperf-bfs", WorkDir: "/scratch/work", ResultsDir: "/data/results"},
		Shards: 2, Program: "/opt/graphperf",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range p.Shards {
		fmt.Println(s.Dir, s.Graphs, s.Edges)
	}
	fmt.Println(cluster.ArraySpec([]int{0, 1}, 1))
	// Output:
	// shards/000 [rmat-s16 rmat-s14 er-16k] 1572864
	// shards/001 [rmat-s15 ba-32k] 1572352
	// 0-1%1
}

// Resume a Slurm sweep with its last submission's options, changing only
// the number of tasks at once.
func ExampleSlurmOptions_With() {
	last := cluster.SlurmOptions{Partition: "gpu", Gres: "gpu:1", ArrayMax: 8, Time: "30"}
	four := 4
	fmt.Printf("%+v\n", last.With(cluster.SlurmOverride{ArrayMax: &four}))
	// Output:
	// {Partition:gpu Gres:gpu:1 Time:30 Account: ArrayMax:4 JobName:}
}
