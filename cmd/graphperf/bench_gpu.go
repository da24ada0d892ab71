package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

func benchMicrobench(e *env, args []string) error {
	fs := newFlagSet(e, "microbench", "bench microbench [flags]",
		`Run the GPU microbenchmarks (kernels/cuda/graphperf-microbench, see
kernels/cuda/MICROBENCH.md) or read a file they wrote (--from), and print
what a machine file needs: pointer-chase latency by working set, the
service-time curves S(m) per class (seed 000 §6.5, figure 6: L2 hits, DRAM row
hits, DRAM row misses against the memory-level parallelism m), bandwidth
ceilings and warp instruction throughput. --yaml prints the measured parts in
the machine-file format of model/machine (ceilings and service_curves), ready
to paste into a machine file such as model/machine/machines/h100.yaml.`)
	from := fs.String("from", "", "read this microbenchmark output instead of running the binary (no GPU needed)")
	runner := fs.String("runner", kernels.DefaultMicrobench, "the graphperf-microbench binary")
	out := fs.String("out", "microbench.jsonl", "where a run writes its JSON lines")
	quick := fs.Bool("quick", false, "fewer points (a run of a few seconds)")
	asYAML := fs.Bool("yaml", false, "print the machine-file sections instead of tables")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *asYAML && (of.json || of.csv) {
		return fmt.Errorf("--yaml excludes --json and --csv")
	}
	var mb *kernels.Microbench
	var err error
	source := *from
	if *from != "" {
		mb, err = kernels.ReadMicrobenchFile(*from)
	} else {
		source = *out
		mb, err = kernels.RunMicrobench(*runner, *out, *quick, e.stderr)
	}
	if err != nil {
		return err
	}
	switch {
	case *asYAML:
		return mb.WriteMachineYAML(e.stdout, source)
	case of.json:
		return writeJSON(e.stdout, mb.JSON())
	}
	t := tableOf(mb.ServiceTable())
	if of.csv {
		return t.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: %s\n\npointer-chase latency (one thread, 128 B stride):\n", source, mb.Device.Name)
	tableOf(mb.LatencyTable()).write(e.stdout, false)
	fmt.Fprintln(e.stdout, "\nceilings:")
	tableOf(mb.CeilingTable()).write(e.stdout, false)
	fmt.Fprintln(e.stdout, "\nservice time S(m) = latency / m:")
	return t.write(e.stdout, false)
}

func benchNCU(e *env, args []string) error {
	fs := newFlagSet(e, "ncu", "bench ncu [flags] GRAPH.gpg --root R -o OUT.csv",
		`Collect Nsight Compute counters for every level of the topology-driven BFS
(seed 000 listing 2) from one root, one profiled launch per level, with
--clock-control none: L2 sector lookups, hits and misses, DRAM sectors read
and written, executed instructions, achieved occupancy and duration (the
inputs of the operator machine's counter-driven mapping). Runs
kernels/cuda/ncu_topo.sh; needs ncu and an NVIDIA GPU.`)
	root := fs.Uint64("root", 0, "BFS root")
	out := fs.String("o", "", "output CSV (required)")
	runner := fs.String("runner", kernels.DefaultRunner, "the graphperf-bfs binary")
	script := fs.String("script", "kernels/cuda/ncu_topo.sh", "the collection script")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o: an output file is required")
	}
	if !strings.HasSuffix(pos[0], ".gpg") {
		return fmt.Errorf("%s: the runner reads .gpg files (graphperf graph convert makes one)", pos[0])
	}
	if _, err := exec.LookPath("ncu"); err != nil {
		return fmt.Errorf("ncu not found: collecting counters needs Nsight Compute and an NVIDIA GPU")
	}
	for _, f := range []string{*runner, *script, pos[0]} {
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	cmd := exec.Command("bash", *script, *runner, pos[0], strconv.FormatUint(*root, 10), *out)
	cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", *script, err)
	}
	fmt.Fprintf(e.stdout, "%s: ncu counters of every topo level from root %d\n", *out, *root)
	return nil
}
