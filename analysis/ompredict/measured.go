package ompredict

import (
	"math"

	"fmt"

	"github.com/graphperf/graphperf/kernels"
)

// Measured is what a sweep measured of impl "topo" from one root: the
// times over the timed repetitions at each level (the first record per
// level).
type Measured struct {
	// Path is the sweep's results file, Root the BFS root.
	Path  string
	Root  uint32
	Times map[int]kernels.Times
}

// ReadMeasured reads the sweep results at path (.jsonl or .jsonl.gz) and
// keeps the levels of impl "topo" from root; it is an error when there is
// none.
func ReadMeasured(path string, root uint32) (*Measured, error) {
	res, err := kernels.ReadFile(path)
	if err != nil {
		return nil, err
	}
	times := map[int]kernels.Times{}
	for _, l := range res.Levels {
		if l.Impl == "topo" && l.Root == root {
			if _, seen := times[l.Level]; !seen {
				times[l.Level] = l.Times
			}
		}
	}
	if len(times) == 0 {
		return nil, fmt.Errorf("%s has no level of impl topo from root %d", path, root)
	}
	return &Measured{Path: path, Root: root, Times: times}, nil
}

// Median returns the median time (ns) at level, and whether it was
// measured.
func (m *Measured) Median(level int) (float64, bool) {
	t, ok := m.Times[level]
	return t.MedianNs, ok
}

// attach sets r's measured time and returns it, or adds a warning and
// returns NaN where the sweep has no such level.
func (m *Measured) attach(r *Level) float64 {
	if t, ok := m.Median(r.Level); ok {
		r.MeasuredNs = ptr(t)
		return t
	}
	r.Warnings = append(r.Warnings, fmt.Sprintf("no topo level %d from root %d in %s", r.Level, m.Root, m.Path))
	return math.NaN()
}
