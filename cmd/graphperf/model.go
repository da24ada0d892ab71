package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/queue"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

func modelGroup() group {
	return group{
		name:    "model",
		summary: "machines, the operator machine, mean value analysis, rooflines, performance portability",
		commands: []command{
			{"machine", "list the embedded machine files, or show one or a file of your own", modelMachine},
			{"mva", "solve a closed queueing network given in YAML by mean value analysis", modelMVA},
			{"roofline", "instruction roofline: a GPU's ceilings and ridge points, or ncu launches placed on it", modelRoofline},
			{"portability", "Pennycook performance portability per application from a CSV of efficiencies", modelPortability},
			{"om", "operator machine of seed 000: an abstract BFS round's bottleneck, or levels predicted from ncu counters", modelOM},
			{"accuracy", "the operator machine's accuracy per graph of the embedded dataset (counters, simulation)", modelAccuracy},
			{"workload", "workload models of seed 004 ch. 6: reads, writes and atomics per PageRank kernel or per BFS kernel and level", modelWorkload},
			{"dist", "seed 003's 1D-partitioned BFS on P GPUs: exact per-level, per-pair volumes (sort-unique), times from a measured all-to-all", modelDist},
		},
	}
}

const machineUsage = `Usage: graphperf model machine list [--json|--csv]
       graphperf model machine show [--json] NAME|FILE

Machine description files: one YAML file per GPU or CPU, with the unit inside
every value ("50 MiB", "1.98 GHz", "3.35 TB/s", "147 ns", "292 cycles") and a
source note for each (model/machine documents the format).

  list   the embedded machines: %s
  show   one machine: compute and memory ceilings, ridge points, latencies,
         service-time curves and sources. NAME is an embedded machine; FILE
         (a path containing a / or ending in .yaml or .yml) is read and
         validated.
`

// modelMachine is "model machine list|show": the verb reads its own
// sub-verb.
func modelMachine(e *env, args []string) error {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprintf(e.stdout, machineUsage, strings.Join(machine.Names(), ", "))
		return nil
	}
	switch args[0] {
	case "list":
		return machineList(e, args[1:])
	case "show":
		return machineShow(e, args[1:])
	}
	fmt.Fprintf(e.stderr, machineUsage, strings.Join(machine.Names(), ", "))
	return fmt.Errorf("unknown sub-command %q (want list or show)", args[0])
}

func machineList(e *env, args []string) error {
	fs := newFlagSet(e, "list", "model machine list [flags]",
		`List the embedded machines: kind, clock, SMs (GPU) or cores (CPU), physical
warps (SMs x resident warps per SM), the last-level cache, the DRAM's peak
bandwidth, the peak warp instruction rate (SMs x schedulers x IPC x clock,
seed 001 §3.4), the ridge point against the DRAM peak (warp instructions per
32-byte transaction) and the classes of the service-time curves.`)
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	rows, err := machine.Summaries()
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, rows)
	}
	return tableOf(machine.SummaryTable(rows)).write(e.stdout, of.csv)
}

func machineShow(e *env, args []string) error {
	fs := newFlagSet(e, "show", "model machine show [flags] NAME|FILE",
		`Show one machine: its compute resources and ceilings (peak warp instruction
rate = SMs x schedulers x IPC x clock, seed 001 §3.4), its caches and DRAM,
its memory ceilings as bandwidth, 32-byte transactions per second and ridge
point (warp instructions per transaction where the ceilings meet), its
latencies, its service-time curves S(m) with L(m) = m S(m) and the
throughput 1/S(m) (seed 000 §6.5), and where each value comes from. NAME is
an embedded machine (see "model machine list"); FILE, a path containing a /
or ending in .yaml or .yml, is read and validated.`)
	asJSON := fs.Bool("json", false, "print JSON (stable keys) instead of the summary")
	plotDir := fs.String("plot", "", plotFlagUsage+": the service-time curves S(m) (seed 000 figure 6)")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	m, err := machine.Open(pos[0])
	if errors.Is(err, machine.ErrUnknownMachine) {
		return fmt.Errorf("unknown machine %q (embedded: %s; a file of your own needs a / or .yaml in its name)",
			pos[0], strings.Join(machine.Names(), ", "))
	}
	if err != nil {
		return err
	}
	d := m.Details()
	if *asJSON {
		return writeJSON(e.stdout, d)
	}
	if e.inReport() && len(d.Derived.Ceilings) > 0 {
		// The ceilings as a table of their own (the summary is text); a
		// CPU machine has none, and an empty table has nothing to chart.
		t := tableOf(d.CeilingsChart())
		if err := t.write(e.stdout, false); err != nil {
			return err
		}
	}
	if e.wantFigures(*plotDir) {
		figs, err := rplot.ServiceCurveFigures(m)
		if err != nil {
			return err
		}
		if err := e.figures(*plotDir, figs); err != nil {
			return err
		}
	}
	return writeMachine(e.stdout, d)
}

// writeMachine prints the summary of "model machine show".
func writeMachine(w io.Writer, d *machine.Details) error {
	m := d.Machine
	fmt.Fprintf(w, "%s (%s): %s\nfile: %s\n", m.Name, m.Kind, m.Description, m.File)
	writeMachineCompute(w, d)
	if m.L1 != nil || m.L2 != nil || m.DRAM != nil {
		kv := newSection(w, "Memory")
		if m.L1 != nil {
			kv.add("L1 (per SM)", m.L1.Shape())
		}
		if m.L2 != nil {
			kv.add("L2", m.L2.Shape())
		}
		if m.DRAM != nil {
			kv.add("DRAM", m.DRAM.Shape())
		}
		kv.flush()
	}
	for _, write := range []func(io.Writer, *machine.Details) error{
		writeMachineCaches, writeMachineCeilings, writeMachineLatencies, writeMachineCurves,
	} {
		if err := write(w, d); err != nil {
			return err
		}
	}
	writeMachineSources(w, m)
	return nil
}

// writeMachineCompute is the Compute section of "model machine show".
func writeMachineCompute(w io.Writer, d *machine.Details) {
	m := d.Machine
	kv := newSection(w, "Compute")
	defer kv.flush()
	if m.Kind != machine.GPU {
		kv.add("cores", fmt.Sprintf("%d = %d sockets x %d, %d thread(s) per core", d.Derived.Cores, m.Sockets, m.CoresPerSocket, m.ThreadsPerCore))
		kv.add("clock", m.Clock.String())
		return
	}
	kv.add("SMs", strconv.Itoa(m.SMs))
	kv.add("warps per SM", fmt.Sprintf("%d (most resident)", m.WarpsPerSM))
	kv.add("physical warps", fmt.Sprintf("%d = %d SMs x %d", d.Derived.PhysicalWarps, m.SMs, m.WarpsPerSM))
	kv.add("warp schedulers", fmt.Sprintf("%d per SM, %s warp instruction(s) per cycle each", m.SchedulersPerSM, ftoa(m.IPCPerScheduler)))
	kv.add("clock", m.Clock.String())
	kv.add("peak warp GIPS", fmt.Sprintf("%s = %d x %d x %s x %v", ftoa(d.Derived.PeakWarpGIPS), m.SMs, m.SchedulersPerSM, ftoa(m.IPCPerScheduler), m.Clock))
	peak := float64(m.WarpGIPSPeak())
	if r := m.Ceilings.WarpInstructions; r > 0 {
		kv.add("measured warp GIPS", fmt.Sprintf("%s (FFMA, %.1f%% of peak)", ftoa(float64(r)/1e9), 100*float64(r)/peak))
	}
	if r := m.Ceilings.WarpInstructionsInteger; r > 0 {
		kv.add("", fmt.Sprintf("%s (integer add, %.1f%% of peak)", ftoa(float64(r)/1e9), 100*float64(r)/peak))
	}
}

// writeMachineCaches is the Caches section (CPU cache levels).
func writeMachineCaches(w io.Writer, d *machine.Details) error {
	if len(d.Machine.Caches) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nCaches")
	return writeIndented(w, tableOf(d.CachesTable()))
}

// writeMachineCeilings is the Memory ceilings section.
func writeMachineCeilings(w io.Writer, d *machine.Details) error {
	if len(d.Derived.Ceilings) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nMemory ceilings (ridge point: warp instructions per 32-byte transaction at the peak warp GIPS)")
	return writeIndented(w, tableOf(d.MemoryCeilingsTable()))
}

// writeMachineLatencies is the Latencies section.
func writeMachineLatencies(w io.Writer, d *machine.Details) error {
	if len(d.Machine.Latencies) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nLatencies")
	return writeIndented(w, tableOf(d.LatenciesTable()))
}

// writeMachineCurves is one Service curve section per curve.
func writeMachineCurves(w io.Writer, d *machine.Details) error {
	for _, c := range d.Machine.ServiceCurves {
		t, err := c.Table()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nService curve %s (%s form): S(m) per request, L(m) = m S(m), GTXN/s = 1/S(m)\n", c.Class, c.Form)
		if err := writeIndented(w, tableOf(t)); err != nil {
			return err
		}
	}
	return nil
}

// writeMachineSources is the Sources section: each source with the
// fields it gave.
func writeMachineSources(w io.Writer, m *machine.Machine) {
	if len(m.Sources) == 0 {
		return
	}
	fmt.Fprintln(w, "\nSources")
	for _, s := range m.SourcesByNote() {
		fmt.Fprintf(w, "  %s:\n    %s\n", s.Source, strings.Join(s.Fields, ", "))
	}
}

// section prints "Title" and aligned "  key  value" lines.
type section struct {
	tw *tabwriter.Writer
}

func newSection(w io.Writer, title string) *section {
	fmt.Fprintf(w, "\n%s\n", title)
	return &section{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
}

func (s *section) add(key, value string) { fmt.Fprintf(s.tw, "  %s\t%s\n", key, value) }
func (s *section) flush()                { s.tw.Flush() }

// writeIndented prints t as the aligned table of output.go, two spaces in.
func writeIndented(w io.Writer, t *table) error {
	var b bytes.Buffer
	if err := t.write(&b, false); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			if _, err := io.WriteString(w, "  "+line); err != nil {
				return err
			}
		}
	}
	return nil
}

func modelMVA(e *env, args []string) error {
	fs := newFlagSet(e, "mva", "model mva [flags] SPEC.yaml",
		`Solve a closed single-class queueing network by mean value analysis: exact
MVA for every population 1..N (Reiser and Lavenberg; Lazowska et al.,
Quantitative System Performance, ch. 6), or Schweitzer's approximation at N.
The spec is YAML; times are in one unit of your choice:

  population: 3            # N, jobs in the closed network
  think_time: 15           # Z (0 if absent)
  method: exact            # exact (default) | schweitzer
  centers:
    - {name: cpu, demand: 0.605}                    # D_k = V_k S_k
    - {name: disk1, visits: 10, service_time: 0.21} # or V_k and S_k
    - {name: net, kind: delay, demand: 1.0}         # queueing (default) | delay

It prints the throughput X and response time R (think time excluded) per
population (exact: every population up to 25, else powers of two and N),
then each center's demand, utilization, queue length and residence time at
N. --csv prints the centers table; --json the final result with every
population.`)
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	out, err := queue.SolveFile(pos[0])
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, out)
	}
	centers := tableOf(out.CentersTable())
	if of.csv {
		return centers.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: %d jobs, think time %s, %d centers, %s\n\n", out.File, out.Population, ftoa(out.ThinkTime), len(out.Centers), out.MethodTitle())
	if pops := out.SampledPopulations(); len(pops) > 0 {
		t := tableOf(out.PopulationsTable())
		if err := t.write(e.stdout, false); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "at N = %d: throughput X = %s jobs per time unit, response time R = %s (cycle R + Z = %s)\n\n",
		out.Population, ftoa(out.Throughput), ftoa(out.ResponseTime), ftoa(out.ResponseTime+out.ThinkTime))
	return centers.write(e.stdout, false)
}
