package store

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

// MaxTimeNs is the longest time a measurement may hold: one day, in ns. No
// timed level or traversal of a graph that fits one machine takes longer;
// a larger value is a unit or a printing error (1e300).
const MaxTimeNs = 86400e9

// The validation below is the one both ways in use, runner JSON lines
// (IngestRunnerJSONL) and plain CSV files (IngestCSV): every value is
// checked for its type and range before anything is stored, and the first
// value out of range rejects the whole file with its line and field.
//
//   - times: finite, >= 0, <= MaxTimeNs; min <= median <= max and
//     min <= mean <= max (within rounding: the runner prints one decimal);
//   - counts (frontier, discovered, reached, levels): >= 0 and <= the
//     graph's vertex count n, which must be >= 1;
//   - level numbers: 0, 1, 2, ... in order, without gaps or repeats;
//   - a BFS total line: its depth hash (16 hex digits) present;
//   - repetitions >= 1, warm-ups, block sizes, grids >= 0.

// FieldError is a value out of its range: Field is the runner key or CSV
// column, Msg says what is wrong (and names the field too).
type FieldError struct {
	Field, Msg string
}

func (e *FieldError) Error() string { return e.Msg }

// fieldErr returns a *FieldError of field.
func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// checkTime checks one time of field (a JSON key or a CSV column).
func checkTime(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fieldErr(field, "%s %v: want a finite time", field, v)
	case v < 0:
		return fieldErr(field, "%s %v: want a time >= 0", field, v)
	case v > MaxTimeNs:
		return fieldErr(field, "%s %v ns: longer than a day (%g ns); a unit error?", field, v, MaxTimeNs)
	}
	return nil
}

// checkTimes checks a summary of repetitions; prefix is "" or "wall_".
func checkTimes(prefix string, t kernels.Times) error {
	for _, f := range []struct {
		key string
		v   float64
	}{{"min_ns", t.MinNs}, {"median_ns", t.MedianNs}, {"mean_ns", t.MeanNs}, {"max_ns", t.MaxNs}, {"stddev_ns", t.StddevNs}} {
		if err := checkTime(prefix+f.key, f.v); err != nil {
			return err
		}
	}
	// One printed decimal and float rounding: 1 ns of slack, and 1e-9 of
	// the value.
	slack := 1 + 1e-9*t.MaxNs
	switch {
	case t.MinNs > t.MaxNs:
		return fieldErr(prefix+"min_ns", "%smin_ns %v > %smax_ns %v", prefix, t.MinNs, prefix, t.MaxNs)
	case t.MedianNs < t.MinNs-slack || t.MedianNs > t.MaxNs+slack:
		return fieldErr(prefix+"median_ns", "%smedian_ns %v: outside [%smin_ns, %smax_ns] = [%v, %v]", prefix, t.MedianNs, prefix, prefix, t.MinNs, t.MaxNs)
	case t.MeanNs < t.MinNs-slack || t.MeanNs > t.MaxNs+slack:
		return fieldErr(prefix+"mean_ns", "%smean_ns %v: outside [%smin_ns, %smax_ns] = [%v, %v]", prefix, t.MeanNs, prefix, prefix, t.MinNs, t.MaxNs)
	}
	return nil
}

// checkCount checks a count of vertices against n.
func checkCount(field string, v, n int64) error {
	switch {
	case v < 0:
		return fieldErr(field, "%s %d: want a count >= 0", field, v)
	case v > n:
		return fieldErr(field, "%s %d: more than the graph's %d vertices (n)", field, v, n)
	}
	return nil
}

// checkAtLeast checks an integer setting.
func checkAtLeast(field string, v, least int64) error {
	if v < least {
		return fieldErr(field, "%s %d: want an integer >= %d", field, v, least)
	}
	return nil
}

// checkIdentity checks what level and total lines share.
func checkIdentity(id *kernels.Identity) error {
	switch {
	case strings.TrimSpace(id.Graph) == "":
		return fieldErr("graph", `no "graph"`)
	case id.N < 1:
		return fieldErr("n", "n %d: want a vertex count >= 1", id.N)
	case id.M < 0:
		return fieldErr("m", "m %d: want an edge count >= 0", id.M)
	case id.Algorithm != kernels.AlgorithmPageRank && int64(id.Root) >= id.N:
		return fieldErr("root", "root %d: not a vertex of a graph of %d (n)", id.Root, id.N)
	}
	return nil
}

// checkLevel checks a runner level line.
func checkLevel(l *kernels.Level) error {
	if err := checkIdentity(&l.Identity); err != nil {
		return err
	}
	if err := checkAtLeast("level", int64(l.Level), 0); err != nil {
		return err
	}
	if err := checkCount("level", int64(l.Level), l.N-1); err != nil {
		return err
	}
	for _, c := range []struct {
		key string
		v   int64
	}{{"frontier", l.Frontier}, {"discovered", l.Discovered}, {"device_count", l.DeviceCount}} {
		if err := checkCount(c.key, c.v, l.N); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		key   string
		v     int64
		least int64
	}{{"reps", int64(l.Reps), 1}, {"grid", l.Grid, 0}, {"block_size", int64(l.BlockSize), 0}} {
		if err := checkAtLeast(c.key, c.v, c.least); err != nil {
			return err
		}
	}
	return checkTimes("", l.Times)
}

// checkTotal checks a runner total line.
func checkTotal(t *kernels.Total) error {
	if err := checkIdentity(&t.Identity); err != nil {
		return err
	}
	if t.Algorithm != kernels.AlgorithmPageRank {
		if _, err := kernels.ParseHash(t.ResultHash()); err != nil {
			return fieldErr("depth_hash", "%v", err)
		}
		if err := checkCount("levels", int64(t.Levels), t.N); err != nil {
			return err
		}
		if err := checkCount("reached", t.Reached, t.N); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		key   string
		v     int64
		least int64
	}{{"reps", int64(t.Reps), 1}, {"warmup", int64(t.Warmup), 0}, {"block_size", int64(t.BlockSize), 0},
		{"grid_cap", t.GridCap, 0}, {"bottom_up_levels", int64(t.BottomUpLevels), 0}} {
		if err := checkAtLeast(c.key, c.v, c.least); err != nil {
			return err
		}
	}
	if err := checkTimes("", t.Times); err != nil {
		return err
	}
	w := t.WallTimes
	return checkTimes("wall_", kernels.Times{MinNs: w.WallMinNs, MedianNs: w.WallMedianNs, MeanNs: w.WallMeanNs,
		MaxNs: w.WallMaxNs, StddevNs: w.WallStddevNs})
}

// checkNextLevel checks that level is the next of a traversal that has
// seen have levels: level numbers count up from 0 without gaps.
func checkNextLevel(level, have int) error {
	if level != have {
		if level < have {
			return fieldErr("level", "level %d: a second line for level %d of this traversal", level, level)
		}
		return fieldErr("level", "level %d: want level %d (levels count up from 0 without gaps)", level, have)
	}
	return nil
}
