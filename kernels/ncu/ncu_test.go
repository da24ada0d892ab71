package ncu

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

func TestNCUUnitFactor(t *testing.T) {
	tests := []struct {
		u    string
		kind Kind
		f    float64
		ok   bool
	}{
		{"", Count, 1, true}, {"sector", Count, 1, true}, {"inst", Count, 1, true},
		{"Ksector", Count, 1e3, true}, {"Minst", Count, 1e6, true}, {"Gsector", Count, 1e9, true},
		{"K", Count, 1e3, true}, {"cycle", Count, 1, true}, {"Mcycle", Count, 1e6, true}, {"byte", Count, 0, false}, {"Tsector", Count, 0, false},
		{"ns", Count, 0, false}, {"%", Count, 0, false},
		{"", Time, 1, true}, {"ns", Time, 1, true}, {"nsecond", Time, 1, true},
		{"us", Time, 1e3, true}, {"usecond", Time, 1e3, true}, {"ms", Time, 1e6, true},
		{"msecond", Time, 1e6, true}, {"s", Time, 1e9, true}, {"second", Time, 1e9, true},
		{"furlong", Time, 0, false}, {"sector", Time, 0, false},
		{"%", Percent, 1, true}, {"", Percent, 1, true}, {"ns", Percent, 0, false},
		{"%", Any, 1, true}, {"usecond", Any, 1e3, true}, {"Ksector", Any, 1e3, true},
		{"", Any, 1, true}, {"byte", Any, 0, false},
	}
	for _, tt := range tests {
		f, ok := unitFactor(tt.u, tt.kind)
		if ok != tt.ok || (ok && f != tt.f) {
			t.Errorf("unitFactor(%q, %d) = %v, %v; want %v, %v", tt.u, tt.kind, f, ok, tt.f, tt.ok)
		}
	}
}

func TestNCUParseNumber(t *testing.T) {
	for in, want := range map[string]float64{"1,911,456": 1911456, " 3.776 ": 3.776, "0": 0, "1e3": 1000} {
		if v, err := parseNumber(in); err != nil || v != want {
			t.Errorf("parseNumber(%q) = %v, %v", in, v, err)
		}
	}
	for _, in := range []string{"", "n/a", "NaN", "Inf", "-1", ","} {
		if _, err := parseNumber(in); err == nil {
			t.Errorf("parseNumber(%q) accepted", in)
		}
	}
}

// TestReadNCUMeasured reads every column with a unit of the measured H100
// file (kernels/measured/h100/README.md) and checks level 3 by hand.
func TestReadNCUMeasured(t *testing.T) {
	f, err := os.Open("../measured/h100/ncu/rmat-s18-e8.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	launches, err := Read(f, "rmat-s18-e8.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(launches) != 9 {
		t.Fatalf("%d launches, want 9", len(launches))
	}
	l := launches[3]
	if l.ID != "3" || l.Line != 6 || !strings.HasPrefix(l.Name, "k_topo(") {
		t.Errorf("ID %q line %d name %q", l.ID, l.Line, l.Name)
	}
	for m, want := range map[string]float64{
		// The profile's row for level 3 (kernels/measure-ncu.sh, H100, 2026-11-21), read through gzip.
		"smsp__inst_executed.sum": 4856663, "gpu__time_duration.sum": 1917344,
		"lts__t_sectors_srcunit_tex_op_read.sum": 653478, "dram__sectors_read.sum": 193840, "dram__sectors_write.sum": 672,
		"smsp__inst_executed_op_global_ld.sum": 810976,
	} {
		if got, ok := l.Metrics[m]; !ok || got != want {
			t.Errorf("%s = %v (%v), want %v", m, got, ok, want)
		}
	}
}

func TestReadNCUMetrics(t *testing.T) {
	in := `"ID","Kernel Name","a__x.sum","b__t.sum","c__p.pct"` + "\n" +
		`"","","Ksector","usecond","%"` + "\n" +
		`"0","k(int)","1,000","2.5","77.5"` + "\n"
	ms := []Metric{{"a__x.sum", Count}, {"b__t.sum", Time}, {"c__p.pct", Percent}}
	launches, err := Read(strings.NewReader(in), "m.csv", ms...)
	if err != nil {
		t.Fatal(err)
	}
	if len(launches) != 1 {
		t.Fatalf("%+v", launches)
	}
	l := launches[0]
	if l.ID != "0" || l.Name != "k(int)" || l.Line != 3 || l.Metrics["a__x.sum"] != 1e6 || l.Metrics["b__t.sum"] != 2500 || l.Metrics["c__p.pct"] != 77.5 {
		t.Errorf("%+v", l)
	}
	// No metrics: those the units row gives a unit.
	auto, err := Read(strings.NewReader(in), "m.csv")
	if err != nil || len(auto) != 1 || len(auto[0].Metrics) != 3 || auto[0].Metrics["b__t.sum"] != 2500 {
		t.Errorf("auto: %+v, %v", auto, err)
	}
	// No ID column, no units row: base units, the first row a launch.
	launches, err = Read(strings.NewReader("a__x.sum,b__t.sum\n10,20\n"), "b.csv", ms[:2]...)
	if err != nil || len(launches) != 1 || launches[0].Metrics["b__t.sum"] != 20 || launches[0].Line != 2 {
		t.Errorf("no units row: %+v, %v", launches, err)
	}
	// No ID column, a units row told apart by its non-numeric cell.
	launches, err = Read(strings.NewReader("a__x.sum,b__t.sum\nKinst,ms\n1,2\n"), "b.csv", ms[:2]...)
	if err != nil || len(launches) != 1 || launches[0].Metrics["a__x.sum"] != 1e3 || launches[0].Metrics["b__t.sum"] != 2e6 {
		t.Errorf("units row without ID: %+v, %v", launches, err)
	}
	// A header alone: no launches, no error.
	if launches, err := Read(strings.NewReader("a__x.sum\n"), "h.csv", ms[0]); err != nil || len(launches) != 0 {
		t.Errorf("header alone: %+v, %v", launches, err)
	}
}

// TestReadNCUErrors checks that bad files name the file, line and metric.
func TestReadNCUErrors(t *testing.T) {
	const header = `"ID","Kernel Name","inst","time","dram","pct"` + "\n"
	const units = `"","","inst","ns","sector","%"` + "\n"
	ms := []Metric{{"inst", Count}, {"time", Time}, {"dram", Count}, {"pct", Percent}}
	tests := []struct{ in, want string }{
		{`"ID","time"` + "\n", "x.csv:1: no inst column"},
		{"\n\n" + `"ID","time"` + "\n", "x.csv:3: no inst column"},
		{header + `"","","inst","furlong","sector","%"` + "\n", `x.csv:2: time: unit "furlong": want ns, us, ms, s (or nsecond, usecond, msecond, second) or empty`},
		{header + `"","","inst","ns","byte","%"` + "\n", `x.csv:2: dram: unit "byte": want sector, inst, cycle or empty, with an optional K, M or G prefix`},
		{header + `"","","inst","ns","sector","ns"` + "\n", `x.csv:2: pct: unit "ns": want % or empty`},
		{header + units + `"0","k","1","2","3","4"` + "\n" + `"1","k","1","2","n/a","4"` + "\n", `x.csv:4: dram: want a number, got "n/a"`},
		{header + units + `"0","k","1","-2","3","4"` + "\n", `x.csv:3: time: want a count or time that is not negative, got "-2"`},
		{header + units + `"0","k","1"` + "\n", "x.csv:3: time: row has 3 fields, the header 4"},
		{header + units + `"0","k","1","2","NaN","4"` + "\n", `x.csv:3: dram: want a number, got "NaN"`},
		{header + units + `"0","k,"1","2","3","4"` + "\n", `x.csv:3: not CSV: extraneous or missing " in quoted-field`},
		{header + `"","","Ginst","ns","sector","%"` + "\n" + `"0","k","1e300","2","3","4"` + "\n", `x.csv:3: inst: "1e300" is out of range`},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "x.csv", ms...)
		var pe *ParseError
		if err == nil || err.Error() != tt.want || !errors.As(err, &pe) {
			t.Errorf("input %q:\n  error %v\n  want  %s", tt.in, err, tt.want)
		}
	}
	if _, err := Read(strings.NewReader(""), "x.csv", ms...); !errors.Is(err, ErrEmpty) || err.Error() != "x.csv: empty file: want ncu --csv --page raw output" {
		t.Errorf("empty: %v", err)
	}
}

// FuzzReadNCU checks that the reader never panics and that what it accepts
// is finite and not negative.
func FuzzReadNCU(f *testing.F) {
	f.Add("smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum\n10,20,30\n")
	f.Add(`"ID","smsp__inst_executed.sum","gpu__time_duration.sum","lts__t_sectors_srcunit_tex_op_read.sum"` + "\n" +
		`"","Kinst","usecond","sector"` + "\n" + `"0","1,000","2.5","3"` + "\n")
	f.Add("smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum\nx,ns\n\"1\n")
	ms := []Metric{{"smsp__inst_executed.sum", Count}, {"gpu__time_duration.sum", Time}}
	f.Fuzz(func(t *testing.T, in string) {
		for _, metrics := range [][]Metric{ms, nil} {
			launches, err := Read(strings.NewReader(in), "f.csv", metrics...)
			if err != nil {
				continue
			}
			for _, l := range launches {
				if metrics != nil && len(l.Metrics) != len(metrics) {
					t.Fatalf("%d metrics in %+v", len(l.Metrics), l)
				}
				for _, v := range l.Metrics {
					if !(v >= 0) || math.IsInf(v, 0) {
						t.Fatalf("accepted %v in %+v", v, l)
					}
				}
			}
		}
	})
}
