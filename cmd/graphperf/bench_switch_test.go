package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
)

// TestBenchDecisionsOracle: the oracle's decisions for a graph of the
// embedded dataset are, level by level, the least measured level time.
func TestBenchDecisionsOracle(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.txt")
	// ba-s12-m4 and its root 222: in the embedded H100 dataset (manifest.json).
	stdout, stderr, err := runCLI(t, "bench", "decisions", "ba-s12-m4.gpg", "--mode", "oracle", "--roots", "222", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "oracle decisions for 1 roots") || !strings.Contains(stdout, "   222 ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := kernels.ParseDecisions(f, out)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := measured.Dir()
	if err != nil {
		t.Fatal(err)
	}
	res, err := kernels.ReadFile(filepath.Join(dir, "ba-s12-m4.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	runs, _, err := aggregate.FromResults(res)
	if err != nil {
		t.Fatal(err)
	}
	var levels int
	for _, r := range runs {
		if r.Root == 222 && r.LevelNs != nil {
			levels = len(r.LevelNs)
			for L, ns := range r.LevelNs {
				impl, ok := d.Impl(222, L)
				if !ok {
					t.Fatalf("no decision for level %d", L)
				}
				for _, q := range runs {
					if q.Root == 222 && q.Impl == impl && q.LevelNs[L] > ns {
						t.Errorf("level %d: %s (%v ns) chosen, %s is faster (%v ns)", L, impl, q.LevelNs[L], r.Impl, ns)
					}
				}
			}
		}
	}
	if levels == 0 || len(d.Levels) != levels || d.Default == "" || !strings.Contains(d.Source, "oracle") {
		t.Errorf("decisions %+v for %d levels", d, levels)
	}

	_, _, err = runCLI(t, "bench", "decisions", "ba-s12-m4.gpg", "--mode", "oracle", "--roots", "5", "-o", out)
	if err == nil || !strings.Contains(err.Error(), "measured roots: 1078,222,2396,2412,2817") {
		t.Errorf("unmeasured root: %v", err)
	}
	_, _, err = runCLI(t, "bench", "decisions", "nope.gpg", "--mode", "oracle", "-o", out)
	if err == nil || !strings.Contains(err.Error(), "no results of nope") {
		t.Errorf("unmeasured graph: %v", err)
	}
}

// TestBenchDecisionsModel: the model's decisions cover every level of
// every root, with the level's recommendation of "predict bfs".
func TestBenchDecisionsModel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.txt")
	stdout, stderr, err := runCLI(t, "bench", "decisions", "../../kernels/testdata/fig2.txt", "--roots", "0,1", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	d, err := kernels.ParseDecisions(strings.NewReader(string(b)), out)
	if err != nil {
		t.Fatal(err)
	}
	// fig2 from A (0): depths 0, 1, 2, so 3 levels; from B (1): 1 -> 2, 3, 4 -> 5: 3 levels.
	if len(d.Levels) != 6 || d.Default == "" || !strings.Contains(d.Source, "model default") {
		t.Errorf("decisions:\n%s", b)
	}
	if !strings.Contains(stdout, "model decisions for 2 roots") {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, args := range [][]string{
		{"../../kernels/testdata/fig2.txt", "--roots", "0"},
		{"../../kernels/testdata/fig2.txt", "--mode", "nope", "-o", out},
		{"../../kernels/testdata/fig2.txt", "--roots", "9", "-o", out},
	} {
		if _, _, err := runCLI(t, append([]string{"bench", "decisions"}, args...)...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestBenchSwitchReport reports the SNAP part of the H100 switch
// measurement (kernels/measured/h100/switch/real, 5 graphs x 5 roots)
// against the embedded H100 dataset.
func TestBenchSwitchReport(t *testing.T) {
	stdout, stderr, err := runCLI(t, "bench", "switch", "--report", "--results", "../../kernels/measured/h100/switch/real")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"NVIDIA H100 80GB HBM3, 25 inputs", "embedded h100", "switch (measured)", "issue 15 targets:", "faster than dobfs on >= 75 % of inputs and in Total: met", "of its own call's offline for >= 80 % of inputs:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

func TestBenchSwitchFlags(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "switch", "--corpus", "c.yaml", "--work", "w"},                                                         // no --results
		{"bench", "switch", "--results", "r", "--json"},                                                                  // --json without --report
		{"bench", "switch", "--results", "r", "--work", "w"},                                                             // no --corpus
		{"bench", "switch", "--results", "r", "--corpus", "c.yaml"},                                                      // no --work
		{"bench", "switch", "--results", "r", "--corpus", "c", "--work", "w", "--time-budget", "2m", "--deadline", "1m"}, // budget > deadline
	} {
		if _, _, err := runCLI(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
