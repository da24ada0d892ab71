package main

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
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

// simMachine is a GPU "sim bfs --machine" knows: its physical warps and
// the default geometries of its models (nil where none exists).
type simMachine struct {
	warps int
	fa    cache.FullyAssociativeConfig
	rows  dram.RowBufferConfig
	// sectored and banked say whether those models have a geometry for the
	// machine.
	sectored, banked bool
}

var simMachines = map[string]simMachine{
	"h100": {warps: warp.H100Warps, fa: gpu.DefaultFullyAssociative, rows: dram.H100RowBuffers, sectored: true, banked: true},
	"k40c": {warps: warp.K40cWarps, fa: cache.K40cL2, rows: dram.K40cRowBuffers},
}

// simServerJSON is one server's counts in "sim bfs --json".
type simServerJSON struct {
	Jobs              int64 `json:"jobs"`
	L2Transactions    int64 `json:"l2_transactions"`
	L2Hits            int64 `json:"l2_hits"`
	L2Misses          int64 `json:"l2_misses"`
	DRAMReads         int64 `json:"dram_reads"`
	RowHits           int64 `json:"row_hits"`
	RowMisses         int64 `json:"row_misses"`
	WriteTransactions int64 `json:"write_transactions"`
	WriteHits         int64 `json:"write_hits"`
	WriteMisses       int64 `json:"write_misses"`
}

// simLevelJSON is one line of "sim bfs --json".
type simLevelJSON struct {
	Level             int                      `json:"level"`
	Jobs              map[string]int64         `json:"jobs"`
	JobsTotal         int64                    `json:"jobs_total"`
	L2Transactions    int64                    `json:"l2_transactions"`
	L2Hits            int64                    `json:"l2_hits"`
	L2Misses          int64                    `json:"l2_misses"`
	DRAMReads         int64                    `json:"dram_reads"`
	RowHits           int64                    `json:"row_hits"`
	RowMisses         int64                    `json:"row_misses"`
	WriteTransactions int64                    `json:"write_transactions"`
	WriteHits         int64                    `json:"write_hits"`
	WriteMisses       int64                    `json:"write_misses"`
	WMax              int64                    `json:"w_max"`
	LoadEstimate      float64                  `json:"load_estimate"`
	Servers           map[string]simServerJSON `json:"servers"`
}

func serverJSON(jobs int64, t gpu.Traffic) simServerJSON {
	return simServerJSON{jobs, t.L2Transactions, t.L2Hits, t.L2Misses, t.DRAMReads, t.RowHits, t.RowMisses,
		t.WriteTransactions, t.WriteHits, t.WriteMisses}
}

func simBFS(e *env, args []string) error {
	fs := newFlagSet(e, "bfs", "sim bfs [flags] GRAPH",
		`Simulate a BFS kernel of the CUDA runner warp by warp (simulate/warp) and send
every load's 32-byte sectors through an L2 model, and the L2 misses through a
DRAM row-buffer model (simulate/gpu). Per level it prints each server's jobs
(seed 000 §6.3), the L2 read transactions C_L2, hits C_L2H and misses C_L2M,
the DRAM reads C_DRAM (= C_L2M) and their row-buffer hits C_RBH and misses
C_RBM (§6.4), the store and atomic sectors in the L2 (never sent to the row
buffers), W_max and n_est = N_G / W_max (§6.5). The caches carry over from
level to level.

--l2 fa is seed 000's fully-associative LRU approximation, sectored the sliced
set-associative H100 L2; --dram paper is seed 000's LRU cache of 256-byte
blocks, banked one open row per bank of the H100's HBM3. --machine k40c uses
960 physical warps, the K40c L2 (fa) and row buffers (paper).
--json prints one JSON object per level, one per line.`)
	var lf loadFlags
	lf.register(fs)
	kernel := fs.String("kernel", "topo", "kernel `NAME`: "+strings.Join(warp.Kernels(), ", "))
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	machineName := fs.String("machine", "h100", "GPU: h100 or k40c")
	l2 := fs.String("l2", gpu.L2FullyAssociative, "L2 model: fa or sectored")
	dramModel := fs.String("dram", gpu.DRAMPaper, "DRAM row-buffer model: paper or banked")
	asJSON := fs.Bool("json", false, "print one JSON object per level, one per line")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if _, err := warp.ParseKernel(*kernel); err != nil {
		return fmt.Errorf("--kernel: %w", err)
	}
	m, ok := simMachines[strings.ToLower(*machineName)]
	if !ok {
		return fmt.Errorf("--machine: unknown machine %q (want h100 or k40c)", *machineName)
	}
	switch *l2 {
	case gpu.L2FullyAssociative:
	case gpu.L2Sectored:
		if !m.sectored {
			return fmt.Errorf("--l2 sectored: no set-associative L2 geometry for %s", *machineName)
		}
	default:
		return fmt.Errorf("--l2: unknown L2 model %q (want fa or sectored)", *l2)
	}
	switch *dramModel {
	case gpu.DRAMPaper:
	case gpu.DRAMBanked:
		if !m.banked {
			return fmt.Errorf("--dram banked: no banked DRAM geometry for %s", *machineName)
		}
	default:
		return fmt.Errorf("--dram: unknown DRAM model %q (want paper or banked)", *dramModel)
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	r, err := pickRoot(g, *root, *seed)
	if err != nil {
		return err
	}
	res, err := gpu.Simulate(g, r, gpu.Config{Kernel: *kernel, L2: *l2, DRAM: *dramModel,
		PhysicalWarps: m.warps, FullyAssociative: m.fa, RowBuffers: m.rows})
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]simLevelJSON, len(res.Levels))
		for i, lv := range res.Levels {
			o := simLevelJSON{Level: lv.Level, Jobs: map[string]int64{}, JobsTotal: lv.JobsTotal,
				L2Transactions: lv.L2Transactions, L2Hits: lv.L2Hits, L2Misses: lv.L2Misses,
				DRAMReads: lv.DRAMReads, RowHits: lv.RowHits, RowMisses: lv.RowMisses,
				WriteTransactions: lv.WriteTransactions, WriteHits: lv.WriteHits, WriteMisses: lv.WriteMisses,
				WMax: lv.WMax, LoadEstimate: lv.LoadEstimate, Servers: map[string]simServerJSON{}}
			for srv := range warp.NumServers {
				if lv.Jobs[srv] == 0 && lv.Servers[srv] == (gpu.Traffic{}) {
					continue
				}
				o.Jobs[srv.String()] = lv.Jobs[srv]
				o.Servers[srv.String()] = serverJSON(lv.Jobs[srv], lv.Servers[srv])
			}
			out[i] = o
		}
		return writeJSONLines(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s: %s from root %d on %s, L2 %s, DRAM %s, %d levels\n",
		pos[0], *kernel, r, strings.ToLower(*machineName), *l2, *dramModel, len(res.Levels))
	for _, lv := range res.Levels {
		fmt.Fprintf(e.stdout, "\nlevel %d: N_G %d, W_max %d, n_est %s\n", lv.Level, lv.JobsTotal, lv.WMax, ftoa(lv.LoadEstimate))
		t := &table{header: []string{"server", "jobs", "C_L2", "C_L2H", "C_L2M", "C_DRAM", "C_RBH", "C_RBM", "writes", "write_hits"}}
		row := func(name string, jobs int64, tr gpu.Traffic) {
			t.add(name, itoa(jobs), itoa(tr.L2Transactions), itoa(tr.L2Hits), itoa(tr.L2Misses), itoa(tr.DRAMReads),
				itoa(tr.RowHits), itoa(tr.RowMisses), itoa(tr.WriteTransactions), itoa(tr.WriteHits))
		}
		for srv := range warp.NumServers {
			if lv.Jobs[srv] == 0 && lv.Servers[srv] == (gpu.Traffic{}) {
				continue
			}
			row(srv.String(), lv.Jobs[srv], lv.Servers[srv])
		}
		row("total", lv.JobsTotal, lv.Traffic)
		if err := t.write(e.stdout, false); err != nil {
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
