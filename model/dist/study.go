package dist

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// Predict traverses g from root for P processes (Traverse) and models the
// traversal (Model): the per-level table of "graphperf model dist", and
// the Volumes it was made from. Errors: Traverse's and Model's.
func Predict(g *graph.CSR, root uint32, P int, opt Options) (*Prediction, *Volumes, error) {
	vols, err := Traverse(g, root, []int{P})
	if err != nil {
		return nil, nil, err
	}
	pr, err := Model(vols[0], opt)
	if err != nil {
		return nil, nil, err
	}
	return pr, vols[0], nil
}

// BytesPerLevel is the bytes sent over all process pairs at each level of
// v, at idBytes per vertex, without (raw) and with sort-unique (unique).
// O(levels × P²).
func BytesPerLevel(v *Volumes, idBytes int) (raw, unique []int64) {
	raw, unique = make([]int64, len(v.Levels)), make([]int64, len(v.Levels))
	for i := range v.Levels {
		raw[i] = v.Levels[i].TotalSent(false) * int64(idBytes)
		unique[i] = v.Levels[i].TotalSent(true) * int64(idBytes)
	}
	return raw, unique
}

// RunGraph500s is RunGraph500 for every scale of scales, in order, with
// the process counts procs and the root rule; done, when not nil, is
// called with each run as it completes (for progress). Errors name the
// scale.
func RunGraph500s(scales, procs []int, rootRule string, done func(*Run)) ([]*Run, error) {
	var runs []*Run
	for _, s := range scales {
		run, err := RunGraph500(s, procs, rootRule)
		if err != nil {
			return nil, fmt.Errorf("scale %d: %w", s, err)
		}
		if done != nil {
			done(run)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// ScalingRun is one run of a WeakScaling table with its rows; its JSON is
// the Run's fields and "rows".
type ScalingRun struct {
	*Run
	Rows []TableRow `json:"rows"`
}

// WeakScaling is seed 003's weak-scaling table ("graphperf model dist
// table"): per run (one scale), the rows of every process count at every
// level asked for.
type WeakScaling struct {
	Runs []ScalingRun
}

// NewWeakScaling tabulates runs at levels (each as Table takes it: a
// level number, 0 for SeedLevel or -1 for the peak level), rows of a run
// in the order of levels. O(runs × procs × levels × P).
func NewWeakScaling(runs []*Run, levels []int) *WeakScaling {
	w := &WeakScaling{Runs: make([]ScalingRun, len(runs))}
	for i, r := range runs {
		w.Runs[i].Run = r
		for _, lv := range levels {
			w.Runs[i].Rows = append(w.Runs[i].Rows, Table(r, lv)...)
		}
	}
	return w
}

// Rows are the rows of every run, in order.
func (w *WeakScaling) Rows() []TableRow {
	var rows []TableRow
	for _, r := range w.Runs {
		rows = append(rows, r.Rows...)
	}
	return rows
}

// Message is one message (level, src, dst) of a sort-unique BFS beside
// seed 003's printed message of the same level and pair: SeedPrinted is
// "-" and SeedBytes 0 where the seed lists none.
type Message struct {
	Level       int     `json:"level"`
	Src         int     `json:"src"`
	Dst         int     `json:"dst"`
	Bytes       int64   `json:"bytes"`
	SeedPrinted string  `json:"seed_printed"`
	SeedBytes   float64 `json:"seed_bytes"`
}

// Ratio is Bytes / SeedBytes, and false where the seed gives no size.
func (m Message) Ratio() (float64, bool) {
	if m.SeedBytes > 0 {
		return float64(m.Bytes) / m.SeedBytes, true
	}
	return 0, false
}

// Messages is seed 003's "network pattern" beside ours ("graphperf model
// dist messages").
type Messages struct {
	Graph string    `json:"graph"`
	Root  uint32    `json:"root"`
	Rows  []Message `json:"messages"`
}

// SeedPattern lists every message the first Volumes of run sends with
// sort-unique, at idBytes per vertex, in the order level, src, dst, each
// beside the seed's (SeedMessages, SCALE 20 on 4 processes). O(levels × P²
// × |SeedMessages|).
func SeedPattern(run *Run, idBytes int) *Messages {
	v := run.Volumes[0]
	out := &Messages{Graph: run.Graph, Root: run.Root}
	for _, l := range v.Levels {
		for p := range v.Procs {
			for q := range v.Procs {
				if p == q {
					continue
				}
				m := Message{Level: l.Level, Src: p, Dst: q, Bytes: l.Sent(p, q, true) * int64(idBytes), SeedPrinted: "-"}
				for _, sm := range SeedMessages {
					if sm.Level == l.Level && sm.Src == p && sm.Dst == q {
						m.SeedPrinted, m.SeedBytes = sm.Printed, sm.Bytes()
					}
				}
				out.Rows = append(out.Rows, m)
			}
		}
	}
	return out
}

// ReadRunsData is ReadRunData of every directory of dirs, in order.
func ReadRunsData(dirs []string) ([]*RunData, error) {
	var out []*RunData
	for _, d := range dirs {
		r, err := ReadRunData(d)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// CalibrateKernel is FitKernel of the runs in dirs.
func CalibrateKernel(dirs []string) (KernelFit, error) {
	runs, err := ReadRunsData(dirs)
	if err != nil {
		return KernelFit{}, err
	}
	return FitKernel(runs)
}

// Passed reports issue 18's volume target: at least one message compared,
// every message equal to its prediction, and the depth hash and root equal.
func (c CheckResult) Passed() bool {
	return c.Equal == c.Messages && c.HashEqual && c.Messages > 0
}

// ScaleShare is the levels of the runs of one rank count at SCALE >=
// MinScale and those within ±Tolerance, and their share in % (NaN
// without levels).
type ScaleShare struct {
	Ranks, Levels, Within int
	SharePct              float64
}

// SharePct is the share of all scored levels within ±Tolerance in % (NaN
// without levels).
func (r TimeReport) SharePct() float64 { return sharePct(r.Within, r.Levels) }

// AtScale is LevelsAtScale and WithinAtScale by rank count, fewest ranks
// first.
func (r TimeReport) AtScale() []ScaleShare {
	var ranks []int
	for k := range r.LevelsAtScale {
		ranks = append(ranks, k)
	}
	slices.Sort(ranks)
	out := make([]ScaleShare, len(ranks))
	for i, k := range ranks {
		out[i] = ScaleShare{Ranks: k, Levels: r.LevelsAtScale[k], Within: r.WithinAtScale[k],
			SharePct: sharePct(r.WithinAtScale[k], r.LevelsAtScale[k])}
	}
	return out
}

// sharePct is 100 a / b, NaN for b = 0.
func sharePct(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return 100 * float64(a) / float64(b)
}
