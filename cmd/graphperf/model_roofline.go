package main

import (
	rplot "github.com/graphperf/graphperf/reports/plot"

	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

func modelRoofline(e *env, args []string) error {
	fs := newFlagSet(e, "roofline", "model roofline [flags]",
		`The instruction roofline of a GPU (seed 001 §3.4, after Ding and Williams):
warp instructions per second against 32-byte transactions per second at each
memory level. The compute ceiling is SMs x schedulers x IPC x clock; a memory
ceiling is bandwidth / 32 B (L2: the machine file's measured L2 bandwidth;
DRAM: its peak; L1: skipped, as machine files give no L1 bandwidth). The
ridge point of a level, compute / (bandwidth / 32 B), is the instruction
intensity above which a kernel cannot be bound by that level.

Without --ncu it prints the machine's ceilings and ridge points. With --ncu
FILE.csv (ncu --csv --page raw, as "bench ncu" writes it) it places every
launch: time, warp instructions (smsp__inst_executed.sum), achieved warp
GIPS, and per level the transactions (L2: lts__t_sectors_srcunit_tex_op_*
sectors; DRAM: dram__sectors_read + write) and the intensity; then the bound
(the least of min(compute, intensity x GTXN/s) over the levels), the level
that binds, the class and the percentage of the bound achieved. The class is
compute-bound when compute binds and the kernel achieves at least half the
compute ceiling; memory-bound when a memory level binds and it achieves at
least a tenth of that bound; latency-bound otherwise (far below every
ceiling: too few requests in flight, imbalance or launch overhead).`)
	name := fs.String("machine", "h100", "embedded machine `NAME`, or a machine FILE (a path with a / or ending in .yaml)")
	ncu := fs.String("ncu", "", "ncu --csv --page raw `FILE` whose launches to place on the roofline")
	measured := fs.Bool("measured", false, "take the compute and DRAM ceilings from the machine's measured ceilings, not its peaks")
	var of outputFlags
	of.register(fs)
	plotDir := fs.String("plot", "", plotFlagUsage+": the instruction roofline with the ceilings, and with --ncu each launch at L1, L2 and DRAM (seed 001 figures 1 and 9-12)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	m, err := rooflineMachine(*name)
	if err != nil {
		return err
	}
	r, err := roofline.ForMachine(m, &roofline.Options{Measured: *measured})
	if err != nil {
		return err
	}
	out := roofline.NewReport(m, r)
	var analyses []roofline.Analysis
	defer func() {
		if !e.wantFigures(*plotDir) {
			return
		}
		tag := ""
		if *ncu != "" {
			tag = ompredict.SourceTag(*ncu)
		}
		figs, err := rplot.RooflineFigures(m, r, analyses, tag)
		if err == nil {
			err = e.figures(*plotDir, figs)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "graphperf: model roofline: figure: %v\n", err)
		}
	}()
	if *ncu == "" {
		if of.json {
			return writeJSON(e.stdout, out)
		}
		return writeRooflineCeilings(e, m, r, out, of.csv)
	}

	launches, readWarnings, err := roofline.ReadNCUFile(*ncu)
	if err != nil {
		return err
	}
	as, err := out.AddLaunches(r, *ncu, launches, readWarnings)
	if err != nil {
		return err
	}
	analyses = as
	if of.json {
		return writeJSON(e.stdout, out)
	}
	return writeRooflineLaunches(e, r, out, of.csv)
}

// rooflineMachine is an embedded machine or a machine file, as in
// "model machine show".
func rooflineMachine(name string) (*machine.Machine, error) {
	m, err := machine.Open(name)
	if errors.Is(err, machine.ErrUnknownMachine) {
		return nil, fmt.Errorf("--machine: unknown machine %q (embedded: %s; a file of your own needs a / or .yaml in its name)",
			name, strings.Join(machine.Names(), ", "))
	}
	return m, err
}

// rooflineCount prints a whole count in full ("4856663"), anything else as
// ftoa does (roofline.Count).
func rooflineCount(x float64) string { return roofline.Count(x) }

func writeRooflineCeilings(e *env, m *machine.Machine, r *roofline.Instruction, out *roofline.Report, asCSV bool) error {
	t := tableOf(out.CeilingsTable())
	if asCSV {
		if err := t.write(e.stdout, true); err != nil {
			return err
		}
		return writeRooflineNotes(e.stderr, "graphperf: model roofline: note: ", out.Notes())
	}
	w := e.stdout
	fmt.Fprintf(w, "%s (%s): instruction roofline, warp instructions per 32-byte transaction (seed 001 §3.4)\n", m.Name, m.File)
	if r.ComputeSource == "peak" {
		fmt.Fprintf(w, "compute: %s warp GIPS = %d SMs x %d schedulers x %s IPC x %v\n\n",
			ftoa(r.WarpInstructionsPerSecond/1e9), m.SMs, m.SchedulersPerSM, ftoa(m.IPCPerScheduler), m.Clock)
	} else {
		fmt.Fprintf(w, "compute: %s warp GIPS measured (peak %s)\n\n", ftoa(r.WarpInstructionsPerSecond/1e9), ftoa(float64(m.WarpGIPSPeak())/1e9))
	}
	if err := t.write(w, false); err != nil {
		return err
	}
	return writeRooflineNotes(w, "\nnotes:\n", out.Notes())
}

func writeRooflineLaunches(e *env, r *roofline.Instruction, out *roofline.Report, asCSV bool) error {
	t := tableOf(out.LaunchesTable())
	notes := out.Notes()
	if asCSV {
		if err := t.write(e.stdout, true); err != nil {
			return err
		}
		return writeRooflineNotes(e.stderr, "graphperf: model roofline: note: ", notes)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %d launches on the %s instruction roofline (seed 001 §3.4)\n", out.NCU, len(out.Launches), out.Machine)
	fmt.Fprintf(w, "compute %s warp GIPS (%s)", ftoa(r.WarpInstructionsPerSecond/1e9), r.ComputeSource)
	for _, c := range r.Memory {
		ridge, _ := r.Ridge(c.Level)
		fmt.Fprintf(w, "; %s %s GTXN/s (%s), ridge %.2f", c.Level, ftoa(c.TransactionsPerSecond()/1e9), c.Source, ridge)
	}
	fmt.Fprintf(w, "\nII_<level>: warp instructions per 32-byte transaction at that level; a level binds when its II is below its ridge point\n\n")
	if err := t.write(w, false); err != nil {
		return err
	}
	return writeRooflineNotes(w, "\nnotes:\n", notes)
}

func writeRooflineNotes(w io.Writer, heading string, notes []string) error {
	if len(notes) == 0 {
		return nil
	}
	if strings.HasSuffix(heading, "\n") {
		if _, err := io.WriteString(w, heading); err != nil {
			return err
		}
		for _, n := range notes {
			if _, err := fmt.Fprintf(w, "  %s\n", n); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range notes {
		if _, err := fmt.Fprintf(w, "%s%s\n", heading, n); err != nil {
			return err
		}
	}
	return nil
}
