package roofline

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The ncu metrics the instruction roofline reads.
const (
	// MetricInstructions counts warp instructions executed.
	MetricInstructions = "smsp__inst_executed.sum"
	// MetricDuration is the kernel's run time.
	MetricDuration = "gpu__time_duration.sum"
)

// LevelMetrics are, per memory level, the ncu sector counts whose sum is
// the level's 32-byte transactions. A level is counted when the file has
// its first metric; the others are added where present. L1 counts the
// global loads, stores, atomics and reductions that the L1/TEX unit looks
// up; L2 the sectors the L1/TEX units read, write, and send as atomics and
// reductions to the L2 slices; DRAM the sectors read and written.
var LevelMetrics = map[Level][]string{
	L1: {
		"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
		"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
		"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
		"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
	},
	L2: {
		"lts__t_sectors_srcunit_tex_op_read.sum",
		"lts__t_sectors_srcunit_tex_op_write.sum",
		"lts__t_sectors_srcunit_tex_op_atom.sum",
		"lts__t_sectors_srcunit_tex_op_red.sum",
	},
	DRAM: {
		"dram__sectors_read.sum",
		"dram__sectors_write.sum",
	},
}

// Counters are the ncu metrics of one kernel launch that the instruction
// roofline needs, in base units.
type Counters struct {
	// InstExecuted is smsp__inst_executed.sum, warp instructions.
	InstExecuted float64 `json:"inst_executed"`
	// Sectors are per memory level the sum of the level's LevelMetrics
	// present in the file; a level is absent when its first metric is.
	Sectors map[Level]float64 `json:"sectors"`
	// DurationNs is gpu__time_duration.sum in ns.
	DurationNs float64 `json:"duration_ns"`
}

// Kernel returns the kernel point of c: warp instructions, one 32-byte
// transaction per sector, run time in seconds. The error wraps ErrKernel
// (Kernel.Check).
func (c Counters) Kernel(name string) (Kernel, error) {
	k := Kernel{Name: name, WarpInstructions: c.InstExecuted, Transactions: map[Level]float64{}, Seconds: c.DurationNs / 1e9}
	for level, n := range c.Sectors {
		k.Transactions[level] = n
	}
	return k, k.Check()
}

// KernelFromNCU returns the kernel point of ncu counters in hand:
//
//	warp instructions = smsp__inst_executed.sum
//	L2 transactions   = l2Sectors (lts__t_sectors_srcunit_tex_op_read.sum,
//	                    plus op_write, op_atom and op_red where measured)
//	DRAM transactions = dram__sectors_read.sum + dram__sectors_write.sum
//	seconds           = gpu__time_duration.sum [ns] / 1e9
//
// (seed 001 eq. 2-3 count inst_executed_thread / 32 and DRAM read plus
// write transactions; a sector is a 32-byte transaction). The error wraps
// ErrKernel.
func KernelFromNCU(name string, instExecuted, l2Sectors, dramSectorsRead, dramSectorsWrite, durationNs float64) (Kernel, error) {
	return Counters{
		InstExecuted: instExecuted,
		Sectors:      map[Level]float64{L2: l2Sectors, DRAM: dramSectorsRead + dramSectorsWrite},
		DurationNs:   durationNs,
	}.Kernel(name)
}

// Launch is one row of an ncu CSV.
type Launch struct {
	// Line is the line of the file the row starts on.
	Line int `json:"line"`
	// ID is ncu's ID column ("0", "1", ...), Name its "Kernel Name".
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Counters Counters `json:"counters"`
}

// Kernel returns the launch's kernel point, named by its ID and the
// kernel's name without its parameter list ("3 k_topo").
func (l Launch) Kernel() (Kernel, error) {
	name := l.Name
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	return l.Counters.Kernel(strings.TrimSpace(l.ID + " " + name))
}

// ParseError is a bad ncu CSV: the file, the line (0 when unknown), the
// metric (empty for the file or row as a whole) and what is wrong.
type ParseError struct {
	File   string
	Line   int
	Metric string
	Msg    string
	// Err is the underlying error, if any.
	Err error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Metric != "" {
		b.WriteString(e.Metric + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// column is one metric column: its index, and the factor to base units
// from the units row.
type column struct {
	name   string
	index  int
	factor float64
}

// NCUReader reads an ncu "--csv --page raw" file a launch at a time, like
// bufio.Scanner:
//
//	r := roofline.NewNCUReader(f, "rmat.csv")
//	for r.Next() {
//		launch := r.Launch()
//	}
//	if err := r.Err(); err != nil { ... }
//
// The first row names the metrics; the second, if its ID cell is empty (or,
// without an ID column, if it is not numeric), gives their units
// ("sector", "inst", "ns", "usecond", "Ksector" ...; empty means base
// units); each further row is a launch. Numbers may have thousands
// separators ("1,911,456"). Errors are *ParseError.
type NCUReader struct {
	file     string
	csv      *csv.Reader
	started  bool
	idCol    int
	nameCol  int
	inst     column
	duration column
	levels   map[Level][]column
	warnings []string
	launch   Launch
	pending  []string // a data row read while looking for the units row
	line     int      // the line of pending
	err      error
	done     bool
}

// NewNCUReader returns a reader of the ncu CSV r; file names it in errors.
func NewNCUReader(r io.Reader, file string) *NCUReader {
	c := csv.NewReader(r)
	c.FieldsPerRecord = -1
	return &NCUReader{file: file, csv: c}
}

func (r *NCUReader) fail(line int, metric, format string, args ...any) bool {
	return r.failErr(line, metric, nil, format, args...)
}

func (r *NCUReader) failErr(line int, metric string, err error, format string, args ...any) bool {
	r.err = &ParseError{File: r.file, Line: line, Metric: metric, Msg: fmt.Sprintf(format, args...), Err: err}
	r.done = true
	return false
}

// read returns the next CSV record and its line; io.EOF at the end.
func (r *NCUReader) read() ([]string, int, error) {
	rec, err := r.csv.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, 0, &ParseError{File: r.file, Line: pe.Line, Msg: "not CSV: " + pe.Err.Error(), Err: err}
		}
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		return nil, 0, &ParseError{File: r.file, Msg: err.Error(), Err: err}
	}
	line, _ := r.csv.FieldPos(0)
	return rec, line, nil
}

// start reads the header and the units row.
func (r *NCUReader) start() bool {
	header, line, err := r.read()
	if err == io.EOF {
		return r.fail(0, "", "empty file: want ncu --csv --page raw output")
	}
	if err != nil {
		r.err, r.done = err, true
		return false
	}
	index := map[string]int{}
	for i, h := range header {
		if _, dup := index[h]; !dup {
			index[h] = i
		}
	}
	r.idCol, r.nameCol = -1, -1
	if i, ok := index["ID"]; ok {
		r.idCol = i
	}
	if i, ok := index["Kernel Name"]; ok {
		r.nameCol = i
	}
	col := func(name string) (column, bool) {
		i, ok := index[name]
		return column{name: name, index: i, factor: 1}, ok
	}
	var ok bool
	if r.inst, ok = col(MetricInstructions); !ok {
		return r.fail(line, "", "no %s column: want ncu --csv --page raw with --metrics %s,%s and sector counts", MetricInstructions, MetricInstructions, MetricDuration)
	}
	if r.duration, ok = col(MetricDuration); !ok {
		return r.fail(line, "", "no %s column", MetricDuration)
	}
	r.levels = map[Level][]column{}
	for _, level := range MemoryLevels {
		metrics := LevelMetrics[level]
		if _, ok := index[metrics[0]]; !ok {
			continue
		}
		var missing []string
		for _, m := range metrics {
			if c, ok := col(m); ok {
				r.levels[level] = append(r.levels[level], c)
			} else {
				missing = append(missing, m)
			}
		}
		if len(missing) > 0 {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: %s not in the file: those sectors are not counted", level, strings.Join(missing, ", ")))
		}
	}
	if len(r.levels) == 0 {
		return r.fail(line, "", "no sector counts: want at least one of %s, %s, %s",
			LevelMetrics[L1][0], LevelMetrics[L2][0], LevelMetrics[DRAM][0])
	}

	units, line, err := r.read()
	if err == io.EOF {
		return true
	}
	if err != nil {
		r.err, r.done = err, true
		return false
	}
	isUnits := false
	if r.idCol >= 0 {
		isUnits = r.idCol < len(units) && units[r.idCol] == ""
	} else if r.inst.index < len(units) {
		_, perr := parseNumber(units[r.inst.index])
		isUnits = perr != nil
	}
	if !isUnits {
		r.pending, r.line = units, line
		return true
	}
	cols := []*column{&r.inst, &r.duration}
	for _, level := range MemoryLevels {
		for i := range r.levels[level] {
			cols = append(cols, &r.levels[level][i])
		}
	}
	for _, c := range cols {
		u := ""
		if c.index < len(units) {
			u = units[c.index]
		}
		f, ok := unitFactor(u, c == &r.duration)
		if !ok {
			want := "sector, inst or empty, with an optional K, M or G prefix"
			if c == &r.duration {
				want = "ns, us, ms, s (or nsecond, usecond, msecond, second) or empty"
			}
			return r.fail(line, c.name, "unit %q: want %s", u, want)
		}
		c.factor = f
	}
	return true
}

// unitFactor returns the factor from unit u to base units: ns for a time,
// one for a count.
func unitFactor(u string, isTime bool) (float64, bool) {
	if isTime {
		f, ok := map[string]float64{
			"": 1, "ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3,
			"ms": 1e6, "msecond": 1e6, "s": 1e9, "second": 1e9,
		}[u]
		return f, ok
	}
	for _, base := range []string{"sector", "inst", ""} {
		prefix, found := strings.CutSuffix(u, base)
		if !found {
			continue
		}
		if f, ok := map[string]float64{"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[prefix]; ok {
			return f, true
		}
	}
	return 0, false
}

// parseNumber parses an ncu value: thousands separators allowed, finite,
// not negative.
func parseNumber(s string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a number, got %q", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("want a count or time that is not negative, got %q", s)
	}
	return v, nil
}

// Next reads the next launch; false at the end of the file or on an error
// (see Err).
func (r *NCUReader) Next() bool {
	if r.done {
		return false
	}
	if !r.started {
		r.started = true
		if !r.start() {
			return false
		}
	}
	rec, line := r.pending, r.line
	r.pending = nil
	if rec == nil {
		var err error
		rec, line, err = r.read()
		if err == io.EOF {
			r.done = true
			return false
		}
		if err != nil {
			r.err, r.done = err, true
			return false
		}
	}
	cell := func(i int) string {
		if i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	value := func(c column) (float64, bool) {
		if c.index >= len(rec) {
			return 0, r.fail(line, c.name, "row has %d fields, the header %d", len(rec), c.index+1)
		}
		v, err := parseNumber(rec[c.index])
		if err != nil {
			return 0, r.failErr(line, c.name, err, "%v", err)
		}
		if math.IsInf(v*c.factor, 1) {
			return 0, r.fail(line, c.name, "%q is out of range", rec[c.index])
		}
		return v * c.factor, true
	}
	l := Launch{Line: line, ID: cell(r.idCol), Name: cell(r.nameCol), Counters: Counters{Sectors: map[Level]float64{}}}
	var ok bool
	if l.Counters.InstExecuted, ok = value(r.inst); !ok {
		return false
	}
	if l.Counters.DurationNs, ok = value(r.duration); !ok {
		return false
	}
	for _, level := range MemoryLevels {
		cols, counted := r.levels[level]
		if !counted {
			continue
		}
		sum := 0.0
		for _, c := range cols {
			v, ok := value(c)
			if !ok {
				return false
			}
			sum += v
		}
		if math.IsInf(sum, 1) {
			return r.fail(line, cols[0].name, "the %s sectors add up beyond range", level)
		}
		l.Counters.Sectors[level] = sum
	}
	r.launch = l
	return true
}

// Launch returns the launch Next read.
func (r *NCUReader) Launch() Launch { return r.launch }

// Err returns the error that stopped Next, nil at the end of the file.
func (r *NCUReader) Err() error { return r.err }

// Warnings say which sector metrics of a counted level the file lacks;
// valid once Next has been called.
func (r *NCUReader) Warnings() []string { return slices.Clone(r.warnings) }

// ErrNoLaunches: an ncu CSV with a header but no launch.
var ErrNoLaunches = errors.New("roofline: no kernel launches in the ncu CSV")

// ReadNCU reads every launch of an ncu CSV (see NCUReader) and the
// reader's warnings. A file without launches gives an error wrapping
// ErrNoLaunches.
func ReadNCU(r io.Reader, file string) ([]Launch, []string, error) {
	nr := NewNCUReader(r, file)
	var launches []Launch
	for nr.Next() {
		launches = append(launches, nr.Launch())
	}
	if err := nr.Err(); err != nil {
		return nil, nil, err
	}
	if len(launches) == 0 {
		return nil, nil, fmt.Errorf("%s: %w", file, ErrNoLaunches)
	}
	return launches, nr.Warnings(), nil
}
