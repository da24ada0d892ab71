package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/ompredict"
)

func simCPU(e *env, args []string) error {
	fs := newFlagSet(e, "cpu", "sim cpu [flags] GRAPH",
		`Simulate seed 000's single-threaded topology-driven BFS on one Westmere core
(simulate/cpu): every memory instruction, with its address (int64 offsets,
uint32 targets, int32 levels, 64-byte aligned), goes through the core's
L1/L2/L3 (simulate/cache WestmereHierarchy), which carries over from level to
level. Per level it prints the jobs (memory instructions, seed 000 §4), the
L1, L2 and L3 hits and the accesses that missed every cache, and the
predicted cycles max_i C_i S_i and bottleneck of the westmere machine with
memory left out (§5); then the jobs of each operator-machine server. --json
prints one JSON object per level, one per line; --csv the first table, one
row per level.`)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	r, err := pickRoot(g, *root, *seed)
	if err != nil {
		return err
	}
	sim, err := ompredict.SimulateCPU(g, r)
	if err != nil {
		return err
	}
	if of.json {
		return writeJSONLines(e.stdout, sim.Records())
	}
	t := tableOf(sim.LevelsTable())
	if of.csv {
		return t.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: topology-driven BFS from root %d on westmere, %d levels\n\n", pos[0], r, len(sim.Simulation.Levels))
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\njobs (memory instructions) per server, completions C_i in brackets:")
	if err := tableOf(sim.ServersTable()).write(e.stdout, false); err != nil {
		return err
	}
	for _, w := range sim.Warnings {
		fmt.Fprintf(e.stdout, "\nwarning: %s", w)
	}
	if len(sim.Warnings) > 0 {
		fmt.Fprintln(e.stdout)
	}
	return nil
}
