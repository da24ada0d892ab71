package kernels

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// alternate decides queue at even levels and dobfs at odd ones, predicting
// 1 us per level.
func alternate(g *graph.CSR, name string, roots []uint32) (*SwitchPlan, error) {
	p := &SwitchPlan{Decisions: &Decisions{Source: "test " + name, Default: "topo"}}
	for _, r := range roots {
		levels := props.Levels(g, r)
		for L := range levels {
			impl := "queue"
			if L%2 == 1 {
				impl = ImplDOBFS
			}
			p.Decisions.Levels = append(p.Decisions.Levels, Decision{Root: int64(r), Level: L, Impl: impl})
		}
		p.PredictedNs = append(p.PredictedNs, 1000*float64(len(levels)))
	}
	return p, nil
}

func TestSwitchSweep(t *testing.T) {
	c, opt := sweepSetup(t)
	calls := filepath.Join(t.TempDir(), "calls")
	t.Setenv("GRAPHPERF_FAKE_CALLS", calls)
	opt.Switch = &SwitchOptions{Decide: alternate}
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Measured, []string{"fig2", "er-small", "rmat-small"}) || len(rep.Failed)+len(rep.Unvalidated) != 0 {
		t.Fatalf("report %+v\nlog:\n%s", rep, opt.Log)
	}
	got := runnerCalls(t, calls)
	if len(got) != 3 || !strings.Contains(got[0], "--impl switch,dobfs,queue") || !strings.Contains(got[0], "--decisions") {
		t.Errorf("runner calls %q", got)
	}
	m := readManifest(t, opt)
	if m.Tool != "graphperf bench switch" || len(m.Graphs) != 3 {
		t.Fatalf("manifest %+v", m)
	}
	for i, rec := range m.Graphs {
		g := c.Graphs[i]
		if rec.Name != g.Name || rec.Algorithm != AlgorithmSwitch || !rec.Validated || rec.Results != g.Name+SwitchResultsSuffix ||
			!slices.Equal(rec.Impls[:2], SwitchImpls) || !slices.Contains(rec.Impls, "queue") || rec.Switch == nil || len(rec.Switch.PredictedNs) != len(rec.Roots) {
			t.Fatalf("record %+v", rec)
		}
		// The roots are a BFS sweep's of the same entry.
		csr, _, err := graph.LoadGPG(filepath.Join(opt.WorkDir, g.Name+".gpg"))
		if err != nil {
			t.Fatal(err)
		}
		roots, _ := props.RandomRoots(csr, g.Roots, g.Seed)
		if !slices.Equal(rec.Roots, roots) {
			t.Errorf("%s: roots %v, want %v", g.Name, rec.Roots, roots)
		}
		f, err := os.Open(filepath.Join(opt.ResultsDir, rec.Switch.Decisions))
		if err != nil {
			t.Fatal(err)
		}
		d, err := ParseDecisions(f, rec.Switch.Decisions)
		f.Close()
		if err != nil || d.Source != "test "+g.Name {
			t.Fatalf("%s: decisions %+v, %v", g.Name, d, err)
		}
		res, err := ReadFile(filepath.Join(opt.ResultsDir, rec.Results))
		if err != nil {
			t.Fatal(err)
		}
		var switches int
		for _, tot := range res.Totals {
			if tot.Impl == ImplSwitch {
				switches++
				if tot.SwitchImpls[0] != "queue" || (len(tot.SwitchImpls) > 1 && tot.SwitchImpls[1] != ImplDOBFS) {
					t.Errorf("%s: ran %v", g.Name, tot.SwitchImpls)
				}
			}
		}
		if switches != len(roots) {
			t.Errorf("%s: %d switch totals for %d roots", g.Name, switches, len(roots))
		}
	}

	// Again: complete, nothing runs.
	os.Remove(calls)
	rep, err = Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 3 || len(rep.Measured) != 0 || len(runnerCalls(t, calls)) != 0 {
		t.Errorf("second switch sweep %+v", rep)
	}
}

// SwitchCallImpls: switch and dobfs first, then every other pick once,
// sorted, the default included.
func TestSwitchCallImpls(t *testing.T) {
	d := &Decisions{Default: "topo", Levels: []Decision{{Root: AnyRoot, Level: 0, Impl: "queue"}, {Root: 1, Level: 1, Impl: ImplDOBFS},
		{Root: 2, Level: 1, Impl: "edge-list/atomic"}, {Root: 2, Level: 2, Impl: "queue"}}}
	want := []string{ImplSwitch, ImplDOBFS, "edge-list/atomic", "queue", "topo"}
	if got := SwitchCallImpls(d); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := SwitchCallImpls(nil); !slices.Equal(got, SwitchImpls) {
		t.Errorf("nil decisions: %v", got)
	}
}
