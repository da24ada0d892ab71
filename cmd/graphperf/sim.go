package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/simulate/warp"
)

func simGroup() group {
	return group{
		name:    "sim",
		summary: "simulate kernels warp by warp through L2 and DRAM row-buffer models",
		commands: []command{
			{"bfs", "simulate a BFS kernel: per level jobs, L2 and row-buffer counts, W_max and n_est", simBFS},
			{"cpu", "simulate the topology-driven BFS on a CPU cache hierarchy: per level jobs, L1/L2/L3 hits, predicted cycles", simCPU},
		},
	}
}

func simBFS(e *env, args []string) error {
	fs := newFlagSet(e, "bfs", "sim bfs [flags] GRAPH",
		`Simulate a BFS kernel of the CUDA runner warp by warp (simulate/warp) and send
every load's 32-byte sectors through an L2 model, and the L2 misses through a
DRAM row-buffer model (simulate/gpu). Per level it prints each server's jobs
(seed 000 §6.3), the L2 read transactions C_L2, hits C_L2H and misses C_L2M,
the DRAM reads C_DRAM (= C_L2M) and their row-buffer hits C_RBH and misses
C_RBM (§6.4), the store and atomic sectors in the L2 (never sent to the row
buffers), W_max and n_est = N_G / W_max (§6.5), and the DRAM writes: the
dirty 32-byte sectors written back by the level's L2 evictions (a level
total, not split by server, not sent to the row buffers). The caches carry
over from level to level; --cold empties them at the start of every level,
as seed 000 §6.4 reasons and as ncu's --cache-control all measures.

--l2 fa is seed 000's fully-associative LRU approximation, sectored the sliced
set-associative H100 L2; --dram paper is seed 000's LRU cache of 256-byte
blocks, banked one open row per bank of the H100's HBM3. --machine k40c uses
960 physical warps, the K40c L2 (fa) and row buffers (paper).
--unroll 1 counts loops as seed 000 §6.3 does (the longest lane's trip
count); --unroll 4 follows nvcc's unrolling of the edge loops of topo,
vertex-push and vertex-push-warpW, and reproduces the load instructions ncu
counted on the H100 (docs/ACCURACY.md; queue and dobfs within 2%). --chunk
is the vertices per virtual warp of the warp kernels.
--json prints one JSON object per level, one per line; --csv one row per
level and server (server "total" is the level), with the level-wide
dram_writes, W_max and n_est on the total row.`)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	kernel := fs.String("kernel", "topo", "kernel `NAME`: "+strings.Join(warp.Kernels(), ", "))
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	machineName := fs.String("machine", "h100", "GPU: h100, h200 or k40c")
	l2 := fs.String("l2", gpu.L2FullyAssociative, "L2 model: fa or sectored")
	dramModel := fs.String("dram", gpu.DRAMPaper, "DRAM row-buffer model: paper or banked")
	unroll := fs.Int("unroll", 1, "edge-loop unrolling `K`: 1 as seed 000 §6.3, 4 as nvcc")
	chunk := fs.Int("chunk", 1, "vertices per virtual warp per grid-stride step (vertex-push-warpW, vertex-pull-warpW)")
	cold := fs.Bool("cold", false, "empty the L2 and close every row at the start of each level")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if _, err := warp.ParseKernel(*kernel); err != nil {
		return fmt.Errorf("--kernel: %w", plainError(err))
	}
	if *unroll < 1 {
		return fmt.Errorf("--unroll: %d is not a positive unroll factor", *unroll)
	}
	if *chunk < 1 {
		return fmt.Errorf("--chunk: %d is not a positive number of vertices", *chunk)
	}
	cfg, err := simConfig(*machineName, *kernel, *l2, *dramModel)
	if err != nil {
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
	cfg.ColdLevels, cfg.Warp = *cold, warp.Config{Unroll: *unroll, Chunk: *chunk}
	res, err := gpu.Simulate(g, r, cfg)
	if err != nil {
		return err
	}
	switch {
	case of.json:
		return writeJSONLines(e.stdout, res.Records())
	case of.csv:
		return tableOf(res.Table()).write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: %s from root %d on %s, L2 %s, DRAM %s, %d levels\n",
		pos[0], *kernel, r, strings.ToLower(*machineName), *l2, *dramModel, len(res.Levels))
	return writeSimLevels(e, res)
}

// writeSimLevels prints one table per level of res, then its warnings.
func writeSimLevels(e *env, res *gpu.Result) error {
	for _, lv := range res.Levels {
		fmt.Fprintf(e.stdout, "\nlevel %d: N_G %d, W_max %d, n_est %s, DRAM writes %d\n",
			lv.Level, lv.JobsTotal, lv.WMax, ftoa(lv.LoadEstimate), lv.DRAMWrites)
		if err := tableOf(gpu.LevelTable(lv)).write(e.stdout, false); err != nil {
			return err
		}
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stdout, "\nwarning: %s", w)
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintln(e.stdout)
	}
	return nil
}

// simConfig is the simulation of kernel on the GPU --machine names with
// the --l2 and --dram models (gpu.Preset.Config).
func simConfig(machineName, kernel, l2, dramModel string) (gpu.Config, error) {
	m, ok := gpu.LookupPreset(machineName)
	if !ok {
		return gpu.Config{}, fmt.Errorf("--machine: unknown machine %q (want h100, h200 or k40c)", machineName)
	}
	cfg, err := m.Config(kernel, l2, dramModel)
	var me *gpu.ModelError
	switch {
	case !errors.As(err, &me):
		return cfg, err
	case me.Model == "l2" && me.Unknown:
		return cfg, fmt.Errorf("--l2: unknown L2 model %q (want fa or sectored)", l2)
	case me.Model == "l2":
		return cfg, fmt.Errorf("--l2 sectored: no set-associative L2 geometry for %s", machineName)
	case me.Unknown:
		return cfg, fmt.Errorf("--dram: unknown DRAM model %q (want paper or banked)", dramModel)
	}
	return cfg, fmt.Errorf("--dram banked: no banked DRAM geometry for %s", machineName)
}
