package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/port"
)

const portSpeedupHelp = `The speedup of one GPU (--to) over another (--from) of every BFS
implementation, against the ratio of their DRAM bandwidths:

  S(a) = sum_{p in C_a} T_from(a, p) / sum_{p in C_a} T_to(a, p)
  B    = bandwidth(to) / bandwidth(from)
  x    = (S - 1) / (B - 1)

C_a: the inputs (graph, root) a ran on both (validated runs, median total
times). B comes from the two machine files (model/machine): their measured
read ceilings (ceilings.read_bandwidth) where both have one, else their
datasheet peaks (dram.peak_bandwidth). x >= 0.75 is memory-bound (the time
scales with the bandwidth), x <= 0.25 latency/overhead-bound (the time is
what the GPUs share: launches, latencies, SMs and clock), mixed between,
slower when S moves away from B by more than 5%. The per-level columns
are quantiles of T_from / T_to over every (input, level).

A platform's machine file is the embedded one whose name its device name
contains (h100 for "NVIDIA H100 80GB HBM3"), or --machine PLATFORM=FILE.`

func portSpeedup(e *env, args []string) error {
	fs := newFlagSet(e, "port speedup", "port speedup [--db STORE] [--from A --to B] [--machine PLATFORM=FILE,...] [--json|--csv]", portSpeedupHelp)
	var pf portFlags
	pf.register(fs)
	from := fs.String("from", "", "the platform compared against (default: the first of --platforms, or of the store)")
	to := fs.String("to", "", "the platform whose speedup is given (default: the second)")
	machines := fs.String("machine", "", "machine files by platform, PLATFORM=MACHINE comma-separated (MACHINE: an embedded name or a .yaml file; default: the embedded one the device name names)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if (*from == "") != (*to == "") {
		return fmt.Errorf("give --from and --to together")
	}
	if *from != "" {
		if pf.platforms != "" {
			return fmt.Errorf("--from and --to choose the platforms; leave out --platforms")
		}
		pf.platforms = *from + "," + *to
	}
	m, err := pf.load(e)
	if err != nil {
		return err
	}
	if len(m.Platforms) != 2 {
		return fmt.Errorf("%w: %d platforms (%q): choose two with --from and --to", port.ErrPlatforms, len(m.Platforms), m.Platforms)
	}
	mach, err := platformMachines(*machines, m.Platforms)
	if err != nil {
		return err
	}
	a, b := m.Platforms[0], m.Platforms[1]
	res, err := port.Speedup(m, a, b, mach[a], mach[b], port.DefaultSpeedupOptions)
	if err != nil {
		return err
	}
	if pf.of.json {
		return writeJSON(e.stdout, res)
	}
	t := tableOf(res.Table())
	if !pf.of.csv {
		short := port.ShortNames([]string{res.From, res.To})
		fmt.Fprintf(e.stdout, "speedup of %s over %s ({%s}): S = summed time on %s / summed time on %s; x = (S - 1) / (B - 1)\n",
			short[1], short[0], port.Legend([]string{res.From, res.To}), short[0], short[1])
		fmt.Fprintf(e.stdout, "B = %s = %.3f (%s %.3f TB/s over %s %.3f TB/s; peak ratio %.3f)\n\n", res.RatioKind, res.Ratio,
			res.Bandwidth[1].Machine, res.RatioBandwidth(1)/1e12, res.Bandwidth[0].Machine, res.RatioBandwidth(0)/1e12, res.PeakRatio)
	}
	if err := t.write(e.stdout, pf.of.csv); err != nil {
		return err
	}
	writeNotes(e, pf.of.csv, res.Notes())
	return nil
}
