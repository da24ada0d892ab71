package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/simulate/cpu"
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
	res, pred, warnings := sim.Simulation, sim.Prediction, sim.Warnings
	t := &table{header: []string{"level", "jobs", "L1_hits", "L2_hits", "L3_hits", "memory", "cycles", "bottleneck"},
		name: "sim-cpu", title: "simulated single-threaded BFS on a Westmere core, per level"}
	for i, lv := range res.Levels {
		cycles, bottleneck := "-", "-"
		if p := pred.Levels[i]; p != nil {
			cycles, bottleneck = ftoa(p.PredictedCycles), p.Bottleneck
		}
		t.add(itoa(int64(lv.Level)), itoa(lv.Instructions), itoa(lv.Counts.L1Hits), itoa(lv.Counts.L2Hits),
			itoa(lv.Counts.L3Hits), itoa(lv.Counts.Memory), cycles, bottleneck)
	}
	if of.csv {
		return t.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: topology-driven BFS from root %d on westmere, %d levels\n\n", pos[0], r, len(res.Levels))
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\njobs (memory instructions) per server, completions C_i in brackets:")
	header := []string{"level"}
	for s := range cpu.NumServers {
		header = append(header, s.String())
	}
	t = &table{header: header}
	for _, lv := range res.Levels {
		row := []string{itoa(int64(lv.Level))}
		for s := range cpu.NumServers {
			row = append(row, fmt.Sprintf("%d (%d)", lv.Servers[s].Instructions, lv.Servers[s].Completions))
		}
		t.add(row...)
	}
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(e.stdout, "\nwarning: %s", w)
	}
	if len(warnings) > 0 {
		fmt.Fprintln(e.stdout)
	}
	return nil
}
