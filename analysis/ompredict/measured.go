package ompredict

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/cost"
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

// Levels returns the level properties (bench levels) of the measured BFS:
// of the graph named by m.Path's stem (NAME.jsonl.gz) from m.Root, read
// from file, or with file "" from the level-properties file beside m.Path
// (kernels.LevelsName) where there is one. It also returns the file read.
// Without a file given, no file beside m.Path, or one that lacks the graph
// or root, is no error: nil levels (the counters' tail then falls back on
// the sub-partitions); with file given, each of those is an error.
func (m *Measured) Levels(file string) ([]cost.BFSLevel, string, error) {
	given := file != ""
	if !given {
		file = filepath.Join(filepath.Dir(m.Path), kernels.LevelsName)
	}
	doc, err := kernels.ReadLevelsFile(file)
	if err != nil {
		if !given && errors.Is(err, os.ErrNotExist) {
			return nil, "", nil
		}
		return nil, "", err
	}
	name := filepath.Base(m.Path)
	for _, ext := range []string{".gz", ".jsonl"} {
		name = strings.TrimSuffix(name, ext)
	}
	lv := ProfileLevels(doc, name, m.Root)
	if lv == nil {
		if given {
			return nil, "", fmt.Errorf("%s has no level properties of graph %s from root %d", file, name, m.Root)
		}
		return nil, "", nil
	}
	return lv, file, nil
}
