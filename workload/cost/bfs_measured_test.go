package cost

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// measuredOps is one row of testdata/h100_thread_ops.csv: the thread-level
// global instructions of one access operation in one launch.
type measuredOps struct {
	launch       int
	kernel, op   string
	thread, warp int64
}

// readThreadOps reads testdata/h100_thread_ops.csv into rows per file
// ("fig2-simple", ...) and launch.
func readThreadOps(t *testing.T) map[string]map[int][]measuredOps {
	t.Helper()
	f, err := os.Open("testdata/h100_thread_ops.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kernelName := regexp.MustCompile(`k_[a-z_]+`)
	out := map[string]map[int][]measuredOps{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if strings.HasPrefix(s, "#") || strings.HasPrefix(s, "file,") {
			continue
		}
		c := strings.Split(s, ",")
		if len(c) != 6 {
			t.Fatalf("h100_thread_ops.csv:%d: %d fields", line, len(c))
		}
		launch, err1 := strconv.Atoi(c[1])
		thread, err2 := strconv.ParseInt(c[4], 10, 64)
		warp, err3 := strconv.ParseInt(c[5], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("h100_thread_ops.csv:%d: bad number", line)
		}
		if out[c[0]] == nil {
			out[c[0]] = map[int][]measuredOps{}
		}
		out[c[0]][launch] = append(out[c[0]][launch], measuredOps{launch, kernelName.FindString(c[2]), c[3], thread, warp})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// measuredGraphs rebuilds the graphs of testdata/h100_thread_ops.csv as
// "graphperf graph gen" made them (self-loops and duplicates dropped), with
// their roots.
func measuredGraphs(t *testing.T) map[string]struct {
	g    *graph.CSR
	root uint32
} {
	t.Helper()
	rmat := func(r gen.RMAT, seed uint64, m int64) *graph.CSR {
		el, err := r.Generate(seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.Build(el, graph.BuildOptions{Undirected: r.Undirected(), DropSelfLoops: true, DropDuplicates: true})
		if err != nil {
			t.Fatal(err)
		}
		if g.NumEdges() != m {
			t.Fatalf("regenerated %+v has %d edges, the measured graph %d", r, g.NumEdges(), m)
		}
		return g
	}
	return map[string]struct {
		g    *graph.CSR
		root uint32
	}{
		"fig2":    {figure2(t), 0},
		"rmat12":  {rmat(gen.RMAT{Scale: 12, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}, 1, 28634), 0},
		"urmat12": {rmat(gen.RMAT{Scale: 12, EdgeFactor: 4, A: .45, B: .15, C: .15, Permute: true}, 2, 31990), 211},
	}
}

// measuredSimple is the --impl list of the "simple" set, in launch order.
var measuredSimple = []string{
	"topo", "edge-list/atomic", "struct-edge-list/atomic", "rev-edge-list/atomic", "rev-struct-edge-list/atomic",
	"vertex-push/atomic", "vertex-pull/atomic", "vertex-push-warp4/atomic", "vertex-push-warp8/atomic",
	"vertex-push-warp16/atomic", "vertex-push-warp32/atomic", "vertex-pull-warp4/atomic", "vertex-pull-warp8/atomic",
	"vertex-pull-warp16/atomic", "vertex-pull-warp32/atomic", "edge-list/bulk", "vertex-push/warp-reduce",
	"vertex-pull-warp8/block-reduce",
}

// opBounds are the bounds the model puts on one launch's measured
// thread-level instructions of one class: Folded terms issue nothing,
// WarpAggregated ones one lane per warp instruction, Host terms are not
// kernels.
type opBounds struct{ low, count, high int64 }

func launchBounds(terms []BFSTerm, kernel string) map[Op]opBounds {
	out := map[Op]opBounds{}
	for _, tm := range terms {
		if tm.Kernel != kernel || tm.Compiled == Host {
			continue
		}
		b := out[tm.Op]
		switch tm.Compiled {
		case AsSource:
			b.low, b.count, b.high = b.low+tm.Low, b.count+tm.Count, b.high+tm.High
		case WarpAggregated:
			b.low, b.count, b.high = b.low+(tm.Low+31)/32, b.count+tm.Count, b.high+tm.High
		}
		out[tm.Op] = b
	}
	return out
}

// TestMeasuredThreadOps checks the concrete model against the thread-level
// global loads, stores and atomics Nsight Compute counted on an H100 for
// every launch of testdata/h100_thread_ops.csv (18 implementations, queue
// and dobfs on three graphs): each class within the model's bounds (as the
// compiled kernel issues it: Folded and WarpAggregated terms adjusted), and
// exact where the model's count is exact. TestMeasuredSummary prints the
// totals.
func TestMeasuredThreadOps(t *testing.T) {
	measured := readThreadOps(t)
	for name, mg := range measuredGraphs(t) {
		levels := BFSLevels(mg.g, mg.root)
		for _, set := range []string{"simple", "queue", "dobfs"} {
			rows := measured[name+"-"+set]
			if rows == nil {
				t.Fatalf("no measurements for %s-%s", name, set)
			}
			for _, l := range expectedLaunches(t, set, levels) {
				got := rows[l.index]
				if len(got) == 0 || got[0].kernel != l.kernel {
					t.Fatalf("%s-%s launch %d: measured %+v, want %s (%s level %d)", name, set, l.index, got, l.kernel, l.impl, l.level)
				}
				meas := map[Op]int64{}
				for _, r := range got {
					switch r.op {
					case "Load":
						meas[Read] += r.thread
					case "Store":
						meas[Write] += r.thread
					case "Atomic", "-": // ATOMG, REDG
						meas[Atomic] += r.thread
					default:
						t.Fatalf("%s-%s launch %d: access operation %q", name, set, l.index, r.op)
					}
				}
				b := launchBounds(l.terms, l.kernel)
				for _, op := range []Op{Read, Write, Atomic} {
					if m := meas[op]; m < b[op].low || m > b[op].high {
						t.Errorf("%s %s level %d %s: %v measured %d, model %d [%d, %d]", name, l.impl, l.level, l.kernel, op, m, b[op].count, b[op].low, b[op].high)
					}
				}
			}
		}
	}
}

// measuredLaunch is one kernel launch the runner makes, with the model's terms of
// its level.
type measuredLaunch struct {
	index  int
	impl   string
	level  int
	kernel string
	terms  []BFSTerm
}

// expectedLaunches lists the profiled launches of a set in order: one per
// level for the simple kernels; k_queue_expand per level with m_f > 0 for
// queue; the conversion and the level's kernel for dobfs.
func expectedLaunches(t *testing.T, set string, levels []BFSLevel) []measuredLaunch {
	t.Helper()
	var out []measuredLaunch
	add := func(impl string, level int, kernel string, terms []BFSTerm) {
		out = append(out, measuredLaunch{index: len(out), impl: impl, level: level, kernel: kernel, terms: terms})
	}
	switch set {
	case "simple":
		for _, impl := range measuredSimple {
			res := EvaluateBFS(Concrete, mustKernel(t, impl), levels, BFSConfig{})
			for _, lc := range res.Levels {
				add(impl, lc.Level, lc.Terms[0].Kernel, lc.Terms)
			}
		}
	default:
		res := EvaluateBFS(Concrete, mustKernel(t, set), levels, BFSConfig{})
		for _, lc := range res.Levels {
			var kernels []string
			for _, tm := range lc.Terms {
				if tm.Compiled != Host && (len(kernels) == 0 || kernels[len(kernels)-1] != tm.Kernel) {
					kernels = append(kernels, tm.Kernel)
				}
			}
			for _, k := range kernels {
				add(set, lc.Level, k, lc.Terms)
			}
		}
	}
	return out
}

// TestMeasuredSummary prints, per graph and implementation, the measured
// thread-level loads, stores and atomics beside the model's count over the
// traversal (as compiled: Folded loads left out). Run with -v.
func TestMeasuredSummary(t *testing.T) {
	measured := readThreadOps(t)
	graphs := measuredGraphs(t)
	for _, name := range []string{"rmat12", "urmat12"} {
		mg := graphs[name]
		levels := BFSLevels(mg.g, mg.root)
		var b strings.Builder
		fmt.Fprintf(&b, "%s (n=%d m=%d root %d, %d levels): H100 thread-level instructions vs model (point [low, high], as compiled)\n",
			name, mg.g.NumVertices(), mg.g.NumEdges(), mg.root, len(levels))
		type tot struct{ meas, count, low, high [3]int64 }
		sums := map[string]*tot{}
		var order []string
		for _, set := range []string{"simple", "queue", "dobfs"} {
			for _, l := range expectedLaunches(t, set, levels) {
				s := sums[l.impl]
				if s == nil {
					s = &tot{}
					sums[l.impl] = s
					order = append(order, l.impl)
				}
				for _, r := range measured[name+"-"+set][l.index] {
					switch r.op {
					case "Load":
						s.meas[Read] += r.thread
					case "Store":
						s.meas[Write] += r.thread
					default:
						s.meas[Atomic] += r.thread
					}
				}
				for op, bb := range launchBounds(l.terms, l.kernel) {
					s.count[op] += bb.count
					s.low[op] += bb.low
					s.high[op] += bb.high
				}
			}
		}
		for _, impl := range order {
			s := sums[impl]
			fmt.Fprintf(&b, "%-31s", impl)
			for op := range 3 {
				fmt.Fprintf(&b, " %9d %-26s", s.meas[op], fmt.Sprintf("%d [%d, %d]", s.count[op], s.low[op], s.high[op]))
			}
			b.WriteString("\n")
		}
		t.Log("\n" + b.String())
	}
}
