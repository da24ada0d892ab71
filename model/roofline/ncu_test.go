package roofline

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
)

// rmatNCU is ncu 2025.3.1's "--csv --page raw" output (gzipped) for the 9
// levels of the topology-driven BFS on R-MAT scale 18, edge factor 8, from
// root 148956, measured on the H100 on 2026-11-21 by kernels/measure-ncu.sh
// (kernels/measured/h100/ncu/PROVENANCE.txt).
const rmatNCU = "../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz"

// TestReadNCUMeasured reads the measured file and checks levels 0 and 3
// against its cells, read off by hand.
func TestReadNCUMeasured(t *testing.T) {
	f, err := os.Open(rmatNCU)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	launches, warnings, err := ReadNCU(f, "rmat-s18-e8.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(launches) != 9 {
		t.Fatalf("%d launches, want 9 (one per BFS level)", len(launches))
	}
	// The file has the L2 read and write sectors and the L1 global load
	// sectors; L2 atomics and reductions and L1 stores, atomics and
	// reductions are not counted.
	if len(warnings) != 2 || !strings.HasPrefix(warnings[0], "L1: l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") ||
		!strings.HasPrefix(warnings[1], "L2: lts__t_sectors_srcunit_tex_op_atom.sum") {
		t.Errorf("warnings %q", warnings)
	}
	tests := []struct {
		level                      int
		inst, l2, dram, l1, timeNs float64
	}{
		// Row ID 0: smsp__inst_executed.sum 262,187; lts__t_sectors_srcunit_tex_op_read.sum
		// 32,771 + op_write 2; dram__sectors_read.sum 32,920 + dram__sectors_write.sum 0;
		// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 32,772; gpu__time_duration.sum 3,872 ns.
		{0, 262187, 32771 + 2, 32920, 32772, 3872},
		// Row ID 3: 4,856,663; 653,478 + 192,139; 193,840 + 672; 2,213,757; 1,917,344 ns.
		{3, 4856663, 653478 + 192139, 193840 + 672, 2213757, 1917344},
	}
	for _, tt := range tests {
		l := launches[tt.level]
		c := l.Counters
		if l.ID != string(rune('0'+tt.level)) || l.Line != tt.level+3 || !strings.HasPrefix(l.Name, "k_topo(") {
			t.Errorf("level %d: ID %q line %d name %q", tt.level, l.ID, l.Line, l.Name)
		}
		if c.InstExecuted != tt.inst || c.Sectors[L2] != tt.l2 || c.Sectors[DRAM] != tt.dram || c.Sectors[L1] != tt.l1 || c.DurationNs != tt.timeNs {
			t.Errorf("level %d: %+v, want inst %v L2 %v DRAM %v L1 %v time %v", tt.level, c, tt.inst, tt.l2, tt.dram, tt.l1, tt.timeNs)
		}
		k, err := l.Kernel()
		if err != nil {
			t.Fatal(err)
		}
		hand, err := KernelFromNCU(k.Name, tt.inst, tt.l2, tt.dram, 0, tt.timeNs)
		hand.Transactions[L1] = tt.l1
		if err != nil || hand.WarpInstructions != k.WarpInstructions || hand.Seconds != k.Seconds ||
			hand.Transactions[L2] != k.Transactions[L2] || hand.Transactions[DRAM] != k.Transactions[DRAM] || k.Name != l.ID+" k_topo" {
			t.Errorf("level %d: KernelFromNCU %+v, Launch.Kernel %+v, %v", tt.level, hand, k, err)
		}
	}
}

// TestNCUOnH100 places levels 0 and 3 on the H100's roofline (compute
// 1045.44 warp GIPS; L2 240.75 GTXN/s, ridge 4.342; DRAM 104.75 GTXN/s,
// ridge 9.980), by hand:
//
//	level 0: L2 intensity 262187 / 32773 = 8.0001, DRAM 262187 / 32920 = 7.9644
//	         < 9.980: DRAM-bound at 7.9644 x 104.75e9 = 834.27 warp GIPS;
//	         achieved 262187 / 3.872 us = 67.714 warp GIPS, 8.12% of the bound.
//	level 3: L2 4856663 / 845617 = 5.7433, DRAM 4856663 / 194512 = 24.969:
//	         above both ridges, compute-bound at 1045.44; achieved
//	         4856663 / 1.917344 ms = 2.5330 warp GIPS, 0.242% of the bound.
//
// The H100 file has no L1 ceiling, so the L1 transactions are skipped with
// a warning.
func TestNCUOnH100(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ForMachine(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rmatNCU)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	launches, _, err := ReadNCU(f, "rmat-s18-e8.csv")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		level                                int
		l2Intensity, dramIntensity, achieved float64
		binding                              Level
		bound, fraction                      float64
	}{
		{0, 8.0001, 7.9644, 67.714e9, DRAM, 834.27e9, 0.0812},
		{3, 5.7433, 24.969, 2.5330e9, Compute, 1045.44e9, 0.00242},
	}
	for _, tt := range tests {
		k, err := launches[tt.level].Kernel()
		if err != nil {
			t.Fatal(err)
		}
		a, err := r.Analyze(k)
		if err != nil {
			t.Fatal(err)
		}
		l2, _ := a.Level(L2)
		dram, _ := a.Level(DRAM)
		if !near(l2.Intensity, tt.l2Intensity, 1e-4) || !near(dram.Intensity, tt.dramIntensity, 1e-4) ||
			!near(a.Achieved, tt.achieved, 1e-4) || a.Binding != tt.binding || !near(a.Bound, tt.bound, 1e-4) ||
			!near(a.FractionOfBound, tt.fraction, 3e-3) {
			t.Errorf("level %d: %v", tt.level, a)
		}
		// No L1 ceiling; both levels run below a tenth of their bound.
		if len(a.Warnings) != 2 || !strings.Contains(a.Warnings[0], "no L1 ceiling") || !strings.Contains(a.Warnings[1], "does not explain") {
			t.Errorf("level %d: warnings %q", tt.level, a.Warnings)
		}
	}
}

func TestReadNCUUnits(t *testing.T) {
	// No ID column; a units row told apart by its non-numeric cell; us and
	// K prefixes; every L2 metric present.
	in := `"smsp__inst_executed.sum","gpu__time_duration.sum","lts__t_sectors_srcunit_tex_op_read.sum","lts__t_sectors_srcunit_tex_op_write.sum","lts__t_sectors_srcunit_tex_op_atom.sum","lts__t_sectors_srcunit_tex_op_red.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
"Kinst","usecond","Ksector","sector","sector","sector","Msector"
"1,000","2.5","3","400","0","1","0.5"
`
	launches, warnings, err := ReadNCU(strings.NewReader(in), "u.csv")
	if err != nil {
		t.Fatal(err)
	}
	c := launches[0].Counters
	if c.InstExecuted != 1e6 || c.DurationNs != 2500 || c.Sectors[L2] != 3401 || c.Sectors[L1] != 5e5 || launches[0].Line != 3 {
		t.Errorf("counters %+v line %d", c, launches[0].Line)
	}
	if _, ok := c.Sectors[DRAM]; ok {
		t.Error("DRAM counted without DRAM metrics")
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "L1: ") {
		t.Errorf("warnings %q, want the missing L1 stores, atomics and reductions", warnings)
	}
	// No units row at all: base units.
	launches, _, err = ReadNCU(strings.NewReader("smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum\n10,20,30\n"), "b.csv")
	if err != nil || len(launches) != 1 || launches[0].Counters.DurationNs != 20 || launches[0].Line != 2 {
		t.Errorf("no units row: %+v, %v", launches, err)
	}
}

// TestReadNCUErrors checks that bad files name the file, line and metric.
func TestReadNCUErrors(t *testing.T) {
	const header = `"ID","Kernel Name","smsp__inst_executed.sum","gpu__time_duration.sum","dram__sectors_read.sum"` + "\n"
	const units = `"","","inst","ns","sector"` + "\n"
	tests := []struct{ in, want string }{
		{"", "x.csv: empty file: want ncu --csv --page raw output"},
		{`"ID","gpu__time_duration.sum"` + "\n", "x.csv:1: no smsp__inst_executed.sum column: want ncu --csv --page raw with --metrics smsp__inst_executed.sum,gpu__time_duration.sum and sector counts"},
		{`"smsp__inst_executed.sum"` + "\n", "x.csv:1: no gpu__time_duration.sum column"},
		{`"smsp__inst_executed.sum","gpu__time_duration.sum"` + "\n", "x.csv:1: no sector counts: want at least one of l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum, lts__t_sectors_srcunit_tex_op_read.sum, dram__sectors_read.sum"},
		{header + `"","","inst","furlong","sector"` + "\n", `x.csv:2: gpu__time_duration.sum: unit "furlong": want ns, us, ms, s (or nsecond, usecond, msecond, second) or empty`},
		{header + `"","","inst","ns","byte"` + "\n", `x.csv:2: dram__sectors_read.sum: unit "byte": want sector, inst, cycle or empty, with an optional K, M or G prefix`},
		{header + units + `"0","k","1","2","3"` + "\n" + `"1","k","1","2","n/a"` + "\n", `x.csv:4: dram__sectors_read.sum: want a number, got "n/a"`},
		{header + units + `"0","k","1","-2","3"` + "\n", `x.csv:3: gpu__time_duration.sum: want a count or time that is not negative, got "-2"`},
		{header + units + `"0","k","1"` + "\n", "x.csv:3: gpu__time_duration.sum: row has 3 fields, the header 4"},
		{header + units + `"0","k","1","2","NaN"` + "\n", `x.csv:3: dram__sectors_read.sum: want a number, got "NaN"`},
		{header + units + `"0","k,"1","2","3"` + "\n", `x.csv:3: not CSV: extraneous or missing " in quoted-field`},
		{header + `"","","Ginst","ns","sector"` + "\n" + `"0","k","1e300","2","3"` + "\n", `x.csv:3: smsp__inst_executed.sum: "1e300" is out of range`},
		{"smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum\n1,1,1e308,1e308\n", "x.csv:2: dram__sectors_read.sum: the DRAM sectors add up beyond range"},
	}
	for _, tt := range tests {
		_, _, err := ReadNCU(strings.NewReader(tt.in), "x.csv")
		var pe *ParseError
		if err == nil || err.Error() != tt.want || !errors.As(err, &pe) {
			t.Errorf("input %q:\n  error %v\n  want  %s", tt.in, err, tt.want)
		}
	}
	if _, _, err := ReadNCU(strings.NewReader(header+units), "x.csv"); !errors.Is(err, ErrNoLaunches) || err.Error() != "x.csv: roofline: no kernel launches in the ncu CSV" {
		t.Errorf("no launches: %v", err)
	}
	// A zero run time passes the reader but not Kernel.
	launches, _, err := ReadNCU(strings.NewReader(header+units+`"0","k","1","0","3"`+"\n"), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := launches[0].Kernel(); !errors.Is(err, ErrKernel) {
		t.Errorf("zero time: %v, want ErrKernel", err)
	}
}

// FuzzReadNCU checks that the reader never panics and that what it accepts
// is finite and not negative.
func FuzzReadNCU(f *testing.F) {
	f.Add("smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum\n10,20,30\n")
	f.Add(`"ID","smsp__inst_executed.sum","gpu__time_duration.sum","lts__t_sectors_srcunit_tex_op_read.sum"` + "\n" +
		`"","Kinst","usecond","sector"` + "\n" + `"0","1,000","2.5","3"` + "\n")
	f.Add("smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum\nx,ns\n\"1\n")
	f.Fuzz(func(t *testing.T, in string) {
		launches, _, err := ReadNCU(strings.NewReader(in), "f.csv")
		if err != nil {
			return
		}
		for _, l := range launches {
			vals := []float64{l.Counters.InstExecuted, l.Counters.DurationNs}
			for _, v := range l.Counters.Sectors {
				vals = append(vals, v)
			}
			for _, v := range vals {
				if !(v >= 0) || math.IsInf(v, 0) {
					t.Fatalf("accepted %v in %+v", v, l)
				}
			}
		}
	})
}
