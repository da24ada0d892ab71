package roofline

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/graphperf/graphperf/kernels/ncu"
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

// NCUReader reads an ncu "--csv --page raw" file a launch at a time, like
// bufio.Scanner:
//
//	r := roofline.NewNCUReader(f, "rmat.csv")
//	for r.Next() {
//		launch := r.Launch()
//	}
//	if err := r.Err(); err != nil { ... }
//
// The CSV, units and numbers are read by ncu.Reader: the first row
// names the metrics; the second, if its ID cell is empty (or, without an
// ID column, if it is not numeric), gives their units ("sector", "inst",
// "ns", "usecond", "Ksector" ...; empty means base units); each further
// row is a launch. Numbers may have thousands separators ("1,911,456").
// Errors are *ParseError.
type NCUReader struct {
	file     string
	r        *ncu.Reader
	started  bool
	levels   map[Level][]string
	warnings []string
	launch   Launch
	err      error
	done     bool
}

// NewNCUReader returns a reader of the ncu CSV r; file names it in errors.
func NewNCUReader(r io.Reader, file string) *NCUReader {
	return &NCUReader{file: file, r: ncu.NewReader(r, file)}
}

func (r *NCUReader) fail(line int, metric, format string, args ...any) bool {
	r.err = &ParseError{File: r.file, Line: line, Metric: metric, Msg: fmt.Sprintf(format, args...)}
	r.done = true
	return false
}

// setErr converts an error of the kernels/ncu reader into a *ParseError.
func (r *NCUReader) setErr(err error) bool {
	pe := &ParseError{File: r.file, Msg: err.Error(), Err: err}
	var kpe *ncu.ParseError
	switch {
	case errors.As(err, &kpe):
		pe.Line, pe.Msg = kpe.Line, kpe.Msg
		for _, m := range r.metrics() {
			if msg, ok := strings.CutPrefix(kpe.Msg, m+": "); ok {
				pe.Metric, pe.Msg = m, msg
				break
			}
		}
	case errors.Is(err, ncu.ErrEmpty):
		pe.Msg = ncu.ErrEmpty.Error()
	case errors.Unwrap(err) != nil:
		pe.Msg = errors.Unwrap(err).Error()
	}
	r.err, r.done = pe, true
	return false
}

// metrics are the metrics the reader parses, in order.
func (r *NCUReader) metrics() []string {
	ms := []string{MetricInstructions, MetricDuration}
	for _, level := range MemoryLevels {
		ms = append(ms, r.levels[level]...)
	}
	return ms
}

// start reads the header and chooses the metrics.
func (r *NCUReader) start() bool {
	header, err := r.r.Header()
	if err != nil {
		return r.setErr(err)
	}
	has := map[string]bool{}
	for _, h := range header {
		has[h] = true
	}
	if !has[MetricInstructions] {
		return r.fail(r.r.HeaderLine(), "", "no %s column: want ncu --csv --page raw with --metrics %s,%s and sector counts", MetricInstructions, MetricInstructions, MetricDuration)
	}
	if !has[MetricDuration] {
		return r.fail(r.r.HeaderLine(), "", "no %s column", MetricDuration)
	}
	r.levels = map[Level][]string{}
	for _, level := range MemoryLevels {
		metrics := LevelMetrics[level]
		if !has[metrics[0]] {
			continue
		}
		var missing []string
		for _, m := range metrics {
			if has[m] {
				r.levels[level] = append(r.levels[level], m)
			} else {
				missing = append(missing, m)
			}
		}
		if len(missing) > 0 {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: %s not in the file: those sectors are not counted", level, strings.Join(missing, ", ")))
		}
	}
	if len(r.levels) == 0 {
		return r.fail(r.r.HeaderLine(), "", "no sector counts: want at least one of %s, %s, %s",
			LevelMetrics[L1][0], LevelMetrics[L2][0], LevelMetrics[DRAM][0])
	}
	metrics := []ncu.Metric{{Name: MetricInstructions, Kind: ncu.Count}, {Name: MetricDuration, Kind: ncu.Time}}
	for _, m := range r.metrics()[2:] {
		metrics = append(metrics, ncu.Metric{Name: m, Kind: ncu.Count})
	}
	r.r.SetMetrics(metrics...)
	return true
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
	if !r.r.Next() {
		if err := r.r.Err(); err != nil {
			return r.setErr(err)
		}
		r.done = true
		return false
	}
	nl := r.r.Launch()
	l := Launch{Line: nl.Line, ID: nl.ID, Name: nl.Name, Counters: Counters{
		InstExecuted: nl.Metrics[MetricInstructions],
		DurationNs:   nl.Metrics[MetricDuration],
		Sectors:      map[Level]float64{},
	}}
	for _, level := range MemoryLevels {
		metrics, counted := r.levels[level]
		if !counted {
			continue
		}
		sum := 0.0
		for _, m := range metrics {
			sum += nl.Metrics[m]
		}
		if math.IsInf(sum, 1) {
			return r.fail(nl.Line, metrics[0], "the %s sectors add up beyond range", level)
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
