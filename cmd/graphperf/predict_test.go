package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

// TestPredictBFS predicts the fig2 graph of seed 000 with the embedded
// default model: one level per BFS level, every implementation's time
// positive, the recommended one the fastest, the totals consistent. The
// graph is smaller than any the model trained on: the warning names the
// range, on stderr and in the JSON.
func TestPredictBFS(t *testing.T) {
	out, stderr, err := runCLI(t, "predict", "bfs", "testdata/fig2.txt", "--root", "0", "--json", "--top", "0")
	if err != nil {
		t.Fatal(err)
	}
	// The default model's 179 graphs: kernels/measured/h100/manifest.json.
	const rangeWarning = "is outside the range of the model's training graphs (179 graphs of 4039-4194304 vertices, 14548-67108864 edges, machine h100): it has fewer vertices than the smallest (4039) and fewer edges than the smallest (14548)"
	if !strings.Contains(stderr, "warning: the graph (") || !strings.Contains(stderr, rangeWarning) {
		t.Errorf("stderr has no range warning:\n%s", stderr)
	}
	var p struct {
		Levels []struct {
			Level       int    `json:"level"`
			Recommended string `json:"recommended"`
			Times       []struct {
				Impl string  `json:"impl"`
				Ns   float64 `json:"ns"`
			} `json:"times"`
		} `json:"levels"`
		MixAndMatchNs float64 `json:"mix_and_match_ns"`
		BestSingle    struct {
			Impl string  `json:"impl"`
			Ns   float64 `json:"ns"`
		} `json:"best_single"`
		DOBFSNs  float64  `json:"dobfs_ns"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(strings.Join(p.Warnings, "\n"), rangeWarning) {
		t.Errorf("JSON warnings %q have no range warning", p.Warnings)
	}
	if len(p.Levels) < 2 {
		t.Fatalf("%d levels", len(p.Levels))
	}
	sum := 0.0
	for _, l := range p.Levels {
		if len(l.Times) != 59 {
			t.Fatalf("level %d: %d implementations, want 59 with --top 0", l.Level, len(l.Times))
		}
		if l.Recommended != l.Times[0].Impl {
			t.Errorf("level %d: recommended %s, fastest %s", l.Level, l.Recommended, l.Times[0].Impl)
		}
		for i, x := range l.Times {
			if !(x.Ns > 0) || (i > 0 && x.Ns < l.Times[i-1].Ns) {
				t.Fatalf("level %d: times not positive and ascending: %v", l.Level, l.Times)
			}
		}
		sum += l.Times[0].Ns
	}
	if d := sum - p.MixAndMatchNs; d > 1e-6*sum || d < -1e-6*sum {
		t.Errorf("Mix-and-Match %g, sum of the levels' fastest %g", p.MixAndMatchNs, sum)
	}
	if p.MixAndMatchNs > p.BestSingle.Ns || p.BestSingle.Ns > p.DOBFSNs {
		t.Errorf("Mix-and-Match %g > best single %g or best single > dobfs %g", p.MixAndMatchNs, p.BestSingle.Ns, p.DOBFSNs)
	}
}

func TestPredictErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "bfs", "testdata/fig2.txt", "--top", "-1"}, "--top"},
		{[]string{"predict", "bfs", "testdata/fig2.txt", "--machine", "k40c"}, "--machine k40c"},
		{[]string{"predict", "bfs", "testdata/no-such.txt"}, "no-such.txt"},
		{[]string{"predict", "bfs", "testdata/fig2.txt", "--root", "99"}, "--root"},
		{[]string{"predict", "bfs", "testdata/fig2.txt", "--model", "testdata/fig2.txt"}, "fig2.txt"},
		{[]string{"predict", "bfs"}, "argument"},
		{[]string{"predict", "evaluate", "--seeds", "5-1"}, "--seeds"},
		{[]string{"predict", "evaluate", "--dataset", "x"}, "--dataset needs --db"},
		{[]string{"predict", "evaluate", "--max-train-vertices", "2^20"}, "--max-train-vertices: only with --split scale"},
		{[]string{"predict", "evaluate", "--split", "scale", "--max-train-vertices", "0"}, "--max-train-vertices"},
		{[]string{"predict", "evaluate", "--json", "--csv"}, "--json and --csv"},
		{[]string{"predict", "train", "-o", "m.json", "--max-train-vertices", "2^20"}, "--max-train-vertices: only with --split scale"},
		{[]string{"predict", "train"}, "-o FILE"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want it to mention %q", c.args, err, c.want)
		}
	}
}

// predict evaluate --levels writes one row per held-out level: the pick,
// the per-level optimum and best non-switching, the pick never faster than
// the optimum.
func TestPredictEvaluateLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the embedded dataset")
	}
	path := filepath.Join(t.TempDir(), "levels.csv")
	if _, stderr, err := runCLI(t, "predict", "evaluate", "--model", "heldout-real", "--levels", path); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || rows[0][0] != "split" || rows[0][9] != "pick" || rows[0][15] != "opt" || rows[0][18] != "bns" {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	for _, r := range rows[1:] {
		pick, _ := strconv.ParseFloat(r[11], 64)
		opt, _ := strconv.ParseFloat(r[17], 64)
		bns, _ := strconv.ParseFloat(r[20], 64)
		if !(pick >= opt && bns >= opt && opt > 0) {
			t.Fatalf("row %v: pick %g, optimum %g, best non-switching %g ns", r, pick, opt, bns)
		}
	}
}

// TestPredictEvaluateUnseen scores the embedded default model on the
// fifth corpus (kernels/measured/h100/unseen-2026-11-26), measured after
// the model was trained and in none of its graph lists: every one of the
// 15 graphs and 75 inputs is scored, the per-level totals add up, and the
// JSON says "default" with no best fixed implementation (the data has none
// of the model's training graphs). The numbers themselves are in
// docs/ACCURACY.md.
func TestPredictEvaluateUnseen(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the fifth, sixth and seventh corpora's measurements")
	}
	for _, c := range []struct {
		dir            string
		graphs, inputs int
	}{
		{"unseen-2026-11-26", 15, 75}, // h100-bfs-5.yaml
		{"roads-wave6", 12, 52},       // h100-bfs-6.yaml: four grids have 3 roots
		{"unseen-wave7", 15, 75},      // h100-bfs-7.yaml
	} {
		dir := filepath.Join("..", "..", "kernels", "measured", "h100", c.dir)
		stdout, stderr, err := runCLI(t, "predict", "evaluate", dir, "--model", "default", "--json")
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.dir, err, stderr)
		}
		var split struct {
			Split          string   `json:"split"`
			TestGraphs     []string `json:"test_graphs"`
			Inputs         int      `json:"inputs"`
			MixAndMatch    float64  `json:"mix_and_match_total"`
			BNS            float64  `json:"best_non_switching_total"`
			BestOtherRoots *float64 `json:"best_other_roots_total"`
			BestFixed      float64  `json:"best_fixed_total"`
		}
		if err := json.NewDecoder(strings.NewReader(stdout)).Decode(&split); err != nil {
			t.Fatal(err)
		}
		if len(split.TestGraphs) != c.graphs || split.Inputs != c.inputs || !strings.HasPrefix(split.Split, "default") {
			t.Errorf("%s: split %q, %d graphs, %d inputs; want %d graphs and %d inputs", c.dir, split.Split, len(split.TestGraphs), split.Inputs, c.graphs, c.inputs)
		}
		if split.MixAndMatch < 1 || split.BNS < 1 || split.BestFixed != 0 {
			t.Errorf("%s: Mix-and-Match %g, best non-switching %g, best fixed %g: want ratios >= 1 and no best fixed", c.dir, split.MixAndMatch, split.BNS, split.BestFixed)
		}
		// Every input's best non-switching time is at most any single
		// implementation's, the one of the other roots included.
		if split.BestOtherRoots == nil || *split.BestOtherRoots < split.BNS {
			t.Errorf("%s: best on other roots %v, want a total >= best non-switching's %g", c.dir, split.BestOtherRoots, split.BNS)
		}
	}
}

// TestBenchRepeat scores the first sweeps' choices on the second sweep of
// the same inputs (kernels/measured/h100/repeat-2026-11-27).
func TestBenchRepeat(t *testing.T) {
	if testing.Short() {
		t.Skip("reads two measurements of ten graphs")
	}
	h100 := filepath.Join("..", "..", "kernels", "measured", "h100")
	for _, c := range []struct {
		first, second  string
		graphs, inputs int
	}{
		{"unseen-2026-11-26", "repeat-2026-11-27/wave5", 4, 20},
		{"unseen-wave7", "repeat-2026-11-27/wave7", 6, 30},
	} {
		stdout, stderr, err := runCLI(t, "bench", "repeat", filepath.Join(h100, c.first), filepath.Join(h100, c.second), "--json")
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var res aggregate.RepeatJSON
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Lines) != c.graphs+1 || res.Lines[c.graphs].Graph != "all" || res.Lines[c.graphs].Inputs != c.inputs {
			t.Fatalf("%s: %d lines, last %+v; want %d graphs and all with %d inputs", c.second, len(res.Lines), res.Lines[len(res.Lines)-1], c.graphs, c.inputs)
		}
		for _, l := range res.Lines {
			// Best non-switching is each input's least single-implementation
			// total, so no other single implementation's (the first
			// sweep's best) is below it; both are at least the optimum.
			if l.BestNonSwitching < 1 || l.FirstBest < l.BestNonSwitching || l.FirstLevels < 1 {
				t.Errorf("%s: %+v: want 1 <= best non-switching <= first best, and first levels >= 1", c.second, l)
			}
		}
	}
	if _, _, err := runCLI(t, "bench", "repeat", filepath.Join(h100, "unseen-wave7")); err == nil {
		t.Error("one directory: want an error")
	}
}
