package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot/vg"

	rtable "github.com/graphperf/graphperf/internal/table"
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
	t := &table{header: []string{"name", "kind", "clock", "sms", "cores", "physical_warps", "llc", "dram_peak", "peak_warp_gips", "ridge_point", "service_curves"}}
	for _, r := range rows {
		llc, dram, gips, ridge := "-", "-", "-", "-"
		if r.LLCBytes > 0 {
			llc = machine.Bytes(r.LLCBytes).String()
		}
		if r.DRAMPeak > 0 {
			dram = machine.BytesPerSecond(r.DRAMPeak).String()
		}
		if r.Kind == string(machine.GPU) {
			gips = ftoa(r.PeakWarpGIPS)
			if r.RidgePoint > 0 {
				ridge = fmt.Sprintf("%.2f", r.RidgePoint)
			}
		}
		curves := strings.Join(r.ServiceCurves, " ")
		if curves == "" {
			curves = "-"
		}
		t.add(r.Name, r.Kind, machine.Hertz(r.ClockHz).String(), dash(r.SMs), dash(r.Cores), dash(r.PhysicalWarps), llc, dram, gips, ridge, curves)
	}
	return t.write(e.stdout, of.csv)
}

func dash(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
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
		t := &table{name: "ceilings",
			title: fmt.Sprintf("%s: memory ceilings (32-byte transactions; ridge = peak %.0f warp GIPS / GTXN/s)", m.Name, d.Derived.PeakWarpGIPS)}
		t.column(textCol("ceiling"), numCol("bandwidth_GB_s", "GB/s"), numCol("GTXN_s", "GTXN/s"),
			numCol("ridge_warp_inst_per_txn", "warp instructions per transaction"))
		for _, c := range d.Derived.Ceilings {
			t.add(c.Name, fmt.Sprintf("%.1f", c.Bandwidth/1e9), fmt.Sprintf("%.1f", c.GTXNPerS), fmt.Sprintf("%.2f", c.RidgePoint))
		}
		t.chart = &rtable.Chart{Type: "bar", X: 0, Y: []int{1}, Title: "bandwidth ceilings", YTitle: "GB/s"}
		if err := t.write(e.stdout, false); err != nil {
			return err
		}
	}
	if (*plotDir != "" || e.inReport()) && len(m.ServiceCurves) > 0 {
		p, err := rplot.ServiceCurves(m)
		if err != nil {
			return err
		}
		if err := e.figure(*plotDir, "service-curves-"+slug(m.Name), m.Name+": service time S(m) against memory-level parallelism", p, 5*vg.Inch, 3.75*vg.Inch); err != nil {
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
			kv.add("L1 (per SM)", cacheShape(m.L1))
		}
		if m.L2 != nil {
			kv.add("L2", cacheShape(m.L2))
		}
		if m.DRAM != nil {
			kv.add("DRAM", dramShape(m.DRAM))
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
	m := d.Machine
	if len(m.Caches) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nCaches")
	t := &table{header: []string{"level", "size", "line", "ways", "sets", "shared_by", "service", "service_ns"}}
	for _, c := range m.Caches {
		t.add(c.Name, c.Size.String(), c.Line.String(), dash(c.Ways), dash(c.Sets), dash(c.SharedBy),
			ftoa(c.ServiceCycles)+" cycles", ftoa(float64(c.Service)))
	}
	return writeIndented(w, t)
}

// writeMachineCeilings is the Memory ceilings section.
func writeMachineCeilings(w io.Writer, d *machine.Details) error {
	ceilings := d.Derived.Ceilings
	if len(ceilings) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nMemory ceilings (ridge point: warp instructions per 32-byte transaction at the peak warp GIPS)")
	t := &table{header: []string{"ceiling", "bandwidth", "GTXN/s", "ridge_point"}}
	for _, c := range ceilings {
		ridge := "-"
		if c.RidgePoint > 0 {
			ridge = fmt.Sprintf("%.2f", c.RidgePoint)
		}
		t.add(c.Name, machine.BytesPerSecond(c.Bandwidth).String(), ftoa(c.GTXNPerS), ridge)
	}
	return writeIndented(w, t)
}

// writeMachineLatencies is the Latencies section.
func writeMachineLatencies(w io.Writer, d *machine.Details) error {
	m := d.Machine
	if len(m.Latencies) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nLatencies")
	t := &table{header: []string{"name", "time", "cycles", "working_set"}}
	for _, l := range m.Latencies {
		ws := "-"
		if l.WorkingSet > 0 {
			ws = l.WorkingSet.String()
		}
		t.add(l.Name, l.Time.String(), ftoa(l.Cycles(m.Clock)), ws)
	}
	return writeIndented(w, t)
}

// writeMachineCurves is one Service curve section per curve.
func writeMachineCurves(w io.Writer, d *machine.Details) error {
	for _, c := range d.Machine.ServiceCurves {
		rows, err := c.Rows()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nService curve %s (%s form): S(m) per request, L(m) = m S(m), GTXN/s = 1/S(m)\n", c.Class, c.Form)
		t := &table{header: []string{"m", "S(m)_ns", "L(m)_ns", "GTXN/s"}}
		for _, r := range rows {
			t.add(ftoa(r.MLP), ftoa(r.ServiceNs), ftoa(r.LatencyNs), ftoa(r.GTXNPerS))
		}
		if err := writeIndented(w, t); err != nil {
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

func cacheShape(c *machine.Cache) string {
	s := c.Size.String()
	if c.Ways > 0 && c.Sets > 0 {
		s += " ="
		if c.Slices > 0 {
			s += fmt.Sprintf(" %d slices x", c.Slices)
		}
		s += fmt.Sprintf(" %d sets x %d ways x", c.Sets, c.Ways)
	} else {
		s += ","
	}
	s += " " + c.Line.String() + " lines"
	if c.Sector > 0 {
		s += ", " + c.Sector.String() + " sectors"
	}
	if c.Carveout > 0 {
		s += fmt.Sprintf(", %v cached (%v shared-memory carveout)", c.L1Bytes(), c.Carveout)
	}
	return s
}

func dramShape(d *machine.DRAM) string {
	var parts []string
	if d.Type != "" {
		parts = append(parts, d.Type)
	}
	if d.Size > 0 {
		parts = append(parts, d.Size.String())
	}
	if d.BusBits > 0 && d.Clock > 0 {
		parts = append(parts, fmt.Sprintf("%d-bit at %v", d.BusBits, d.Clock))
	}
	if d.Channels > 0 {
		parts = append(parts, fmt.Sprintf("%d channels", d.Channels))
	}
	per := "channel"
	if d.PseudoChannels > 0 {
		parts = append(parts, fmt.Sprintf("%d pseudo-channels each", d.PseudoChannels))
		per = "pseudo-channel"
	}
	if d.Banks > 0 {
		parts = append(parts, fmt.Sprintf("%d banks per %s", d.Banks, per))
	}
	if d.RowBytes > 0 {
		parts = append(parts, d.RowBytes.String()+" rows")
	}
	if d.Interleave > 0 {
		parts = append(parts, d.Interleave.String()+" interleaving")
	}
	parts = append(parts, "peak "+d.PeakBandwidth.String())
	return strings.Join(parts, ", ")
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
	centers := &table{header: []string{"center", "kind", "visits", "service_time", "demand", "utilization", "queue_length", "residence_time"}}
	for _, c := range out.Centers {
		centers.add(c.Name, c.Kind, ftoa(c.Visits), ftoa(c.ServiceTime), ftoa(c.Demand), ftoa(c.Utilization), ftoa(c.QueueLength), ftoa(c.ResidenceTime))
	}
	if of.csv {
		return centers.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s: %d jobs, think time %s, %d centers, %s\n\n", out.File, out.Population, ftoa(out.ThinkTime), len(out.Centers), out.MethodTitle())
	if pops := out.SampledPopulations(); len(pops) > 0 {
		t := &table{header: []string{"population", "throughput", "response_time"}}
		for _, p := range pops {
			t.add(strconv.Itoa(p.Population), ftoa(p.Throughput), ftoa(p.ResponseTime))
		}
		if err := t.write(e.stdout, false); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "at N = %d: throughput X = %s jobs per time unit, response time R = %s (cycle R + Z = %s)\n\n",
		out.Population, ftoa(out.Throughput), ftoa(out.ResponseTime), ftoa(out.ResponseTime+out.ThinkTime))
	return centers.write(e.stdout, false)
}
