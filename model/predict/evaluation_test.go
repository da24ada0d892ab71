package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/tree"
)

func TestParseSeeds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []uint64 // nil: an error
	}{
		{"1-3", []uint64{1, 2, 3}},
		{"7-7", []uint64{7}},
		{"1,2,5", []uint64{1, 2, 5}},
		{" 4 , 6", []uint64{4, 6}},
		{"9", []uint64{9}},
		// HIGH = 2^64-1 once looped for ever (v <= HIGH always holds).
		{"18446744073709551614-18446744073709551615", []uint64{18446744073709551614, 18446744073709551615}},
		{"5-1", nil},
		{"1-1002", nil}, // 1002 seeds, more than MaxSeedRange+1
		{"-3", nil},
		{"1-x", nil},
		{"1,x", nil},
		{"", nil},
		{"1,,2", nil},
	} {
		got, err := ParseSeeds(c.in)
		if c.want == nil {
			if err == nil {
				t.Errorf("ParseSeeds(%q) = %v, want an error", c.in, got)
			} else if strings.Contains(err.Error(), "--") {
				t.Errorf("ParseSeeds(%q): error %q names a flag", c.in, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if got, err := ParseSeeds("1-1001"); err != nil || len(got) != MaxSeedRange+1 || got[1000] != 1001 {
		t.Errorf("ParseSeeds(1-1001): %d seeds, %v; want 1001", len(got), err)
	}
}

// FuzzParseSeeds: no input panics or hangs; a range gives consecutive
// ascending seeds, at most MaxSeedRange+1 of them.
func FuzzParseSeeds(f *testing.F) {
	for _, s := range []string{"1-10", "1,2,3", "18446744073709551614-18446744073709551615", "5-1", " 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSeeds(s)
		if err != nil {
			return
		}
		if len(got) == 0 {
			t.Fatalf("%q: no seeds and no error", s)
		}
		if strings.Contains(s, "-") {
			if len(got) > MaxSeedRange+1 {
				t.Fatalf("%q: %d seeds", s, len(got))
			}
			for i := 1; i < len(got); i++ {
				if got[i] != got[i-1]+1 {
					t.Fatalf("%q: seeds %v not consecutive", s, got)
				}
			}
		}
	})
}

func TestOnlyFamilies(t *testing.T) {
	ss := []Split{{Name: "family-rmat"}, {Name: "family-road"}, {Name: "family-real"}}
	got, err := OnlyFamilies(ss, []string{"real", "rmat"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "family-real" || got[1].Name != "family-rmat" {
		t.Errorf("OnlyFamilies(real, rmat) = %v, want family-real then family-rmat", got)
	}
	for _, names := range [][]string{{"nope"}, {"road", ""}} {
		_, err = OnlyFamilies(ss, names)
		if err == nil || !strings.Contains(err.Error(), "rmat, road, real") || strings.Contains(err.Error(), "--") {
			t.Errorf("OnlyFamilies(%q): error %v, want one listing the data's families and no flag", names, err)
		}
	}
}

// FindBaseline finds the script under the first root that has it, and says
// why not where python lacks scikit-learn or no root has the script.
func TestFindBaseline(t *testing.T) {
	empty, repo := t.TempDir(), t.TempDir()
	script := filepath.Join(repo, BaselineScript)
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("no /bin/true to stand for a python with scikit-learn")
	}
	if got, why := FindBaseline("/bin/true", empty, repo); got != script || why != "" {
		t.Errorf("FindBaseline = %q, %q; want %q", got, why, script)
	}
	if got, why := FindBaseline("/bin/false", empty, repo); got != "" || !strings.Contains(why, "scikit-learn") {
		t.Errorf("python without scikit-learn: %q, %q", got, why)
	}
	if got, why := FindBaseline("/bin/true", empty); got != "" || !strings.Contains(why, "not found") {
		t.Errorf("no script: %q, %q", got, why)
	}
}

// A split scored by a saved model without test graphs has no
// classification tree (its Total is NaN): the JSON leaves the key out
// instead of failing on the NaN.
func TestSplitRowWithoutTree(t *testing.T) {
	r := &SplitResult{}
	r.Tree.Total = math.NaN()
	b, err := json.Marshal(r.Row())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "classification_tree_total") {
		t.Errorf("split line %s has a tree", b)
	}
	b, err = json.Marshal(SummarizeKind("graphs", []*SplitResult{r}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "classification_tree_total") {
		t.Errorf("summary line %s has a tree", b)
	}
	r.Tree.Total = 1.25
	b, _ = json.Marshal(r.Row())
	if !strings.Contains(string(b), `"classification_tree_total":1.25`) {
		t.Errorf("split line %s lost its tree", b)
	}
}

// result is a SplitResult of kind with the given Mix-and-Match,
// best non-switching and baseline totals (baseline 0: none).
func result(kind SplitKind, mm, bns, base float64) *SplitResult {
	r := &SplitResult{Split: Split{Name: string(kind), Kind: kind}}
	r.Model.MixAndMatch = aggregate.Row{Total: mm}
	r.Model.BestNonSwitching = aggregate.Row{Total: bns}
	r.Model.MedianError = mm - 1
	r.Tree.Total = 2 * mm
	if base > 0 {
		r.External = map[string]Score{BaselineName: {MixAndMatch: aggregate.Row{Total: base}}}
	}
	return r
}

func TestSummaries(t *testing.T) {
	ev := &Evaluation{Splits: []*SplitResult{
		result(ToReal, 1.3, 1.2, 1.1),
		result(ByGraphs, 1.1, 1.2, 1.5),
		result(ByGraphs, 1.3, 1.2, 1.2),
		result(ByGraphs, 1.2, 1.25, 1.3),
	}}
	sums := ev.Summaries()
	if len(sums) != 2 || sums[0].Kind != "real" || sums[1].Kind != "graphs" {
		t.Fatalf("kinds %+v, want real then graphs (first appearance)", sums)
	}
	g := sums[1]
	if g.Splits != 3 || math.Abs(g.MixAndMatch.Mean-1.2) > 1e-12 || g.MixAndMatch.Min != 1.1 || g.MixAndMatch.Max != 1.3 {
		t.Errorf("graphs Mix-and-Match %+v over %d splits, want 1.2 [1.1-1.3] over 3", g.MixAndMatch, g.Splits)
	}
	if g.WinsOverNonSwitching != 2 || g.WinsOverBaselines[BaselineName] != 2 {
		t.Errorf("graphs wins %d over best non-switching, %v over the baseline; want 2 and 2", g.WinsOverNonSwitching, g.WinsOverBaselines)
	}
	if g.Tree == nil || math.Abs(g.Tree.Mean-2.4) > 1e-12 || g.Baselines[BaselineName].Max != 1.5 {
		t.Errorf("graphs tree %v, baselines %v", g.Tree, g.Baselines)
	}
	// A kind the model never beats keeps the baseline's key with 0 wins.
	r := sums[0]
	if n, ok := r.WinsOverBaselines[BaselineName]; !ok || n != 0 || r.WinsOverNonSwitching != 0 {
		t.Errorf("real wins %v over the baseline, %d over best non-switching; want a 0 entry and 0", r.WinsOverBaselines, r.WinsOverNonSwitching)
	}
	rows := ev.Rows()
	if len(rows) != 4 || rows[1].Kind != "graphs" || rows[1].Baselines[BaselineName] != 1.5 || rows[1].Tree == nil || *rows[1].Tree != 2.2 {
		t.Errorf("rows %+v", rows)
	}
}

// Evaluate scores each split as EvaluateSplit does, with its baseline,
// diagnoses every test level, collects the first split's points and
// reports progress up to its total; EvaluateSaved scores a split's model
// on its test graphs the same way.
func TestEvaluate(t *testing.T) {
	ds, _ := synthetic(t, h100Physics(t))
	splits, err := MakeSplits(ds, ByGraphs, 0.5, []uint64{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	grid := Grid{Targets: []Target{TargetResidual}, MaxLeaves: []int{15}, MinLeaf: []int{5},
		Base: tree.BoostParams{Trees: 60, LearningRate: 0.1, Bins: 255, Subsample: 1, FeatureFraction: 1, EarlyStopping: 20}}
	ext := map[string]map[string]Score{splits[1].Name: {"other": {Inputs: 3}}}
	var done, total []int
	ev, err := Evaluate(ds, splits, EvaluateParams{Grid: &grid, External: ext, Diagnose: true, Points: true,
		Progress: func(d, n int) { done, total = append(done, d), append(total, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Splits) != 2 || ev.Splits[0].External != nil || ev.Splits[1].External["other"].Inputs != 3 {
		t.Fatalf("%d splits, baselines %v and %v", len(ev.Splits), ev.Splits[0].External, ev.Splits[1].External)
	}
	// Two splits of one fit per grid point (1) and the final fit each.
	if len(done) == 0 || done[len(done)-1] != 4 || !slices.IsSorted(done) || slices.Min(total) != 4 || slices.Max(total) != 4 {
		t.Errorf("progress %v of %v, want ascending to 4 of 4", done, total)
	}
	want, m, err := EvaluateSplit(ds, splits[0], grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.Splits[0]; got.Model.MixAndMatch != want.Model.MixAndMatch || got.Tree != want.Tree || got.Split.Name != splits[0].Name {
		t.Errorf("split 0: %+v, EvaluateSplit %+v", got.Model.MixAndMatch, want.Model.MixAndMatch)
	}
	test0, test1 := ds.LevelsOf(splits[0].Test), ds.LevelsOf(splits[1].Test)
	if len(ev.Levels) != len(test0)+len(test1) || ev.Levels[0].Split != splits[0].Name || ev.Levels[len(ev.Levels)-1].Split != splits[1].Name {
		t.Errorf("%d diagnosed levels, want %d + %d, split by split", len(ev.Levels), len(test0), len(test1))
	}
	// Every level of the synthetic data measures every implementation.
	if p := ev.Points; p == nil || p.Split.Name != splits[0].Name || len(p.Predicted) != len(test0)*ds.K() || len(p.Measured) != len(p.Predicted) {
		t.Errorf("points %+v, want %d of split 0", p, len(test0)*ds.K())
	}

	saved, err := EvaluateSaved(ds, m, "m.json", EvaluateParams{})
	if err != nil {
		t.Fatal(err)
	}
	unseen, trained := Unseen(ds, m)
	if !slices.Equal(unseen, splits[0].Test) || trained != len(ds.Graphs)-len(unseen) || saved.LeftOut != trained {
		t.Errorf("unseen %v (%d trained, %d left out), want %v", unseen, trained, saved.LeftOut, splits[0].Test)
	}
	s := saved.Splits[0]
	if s.Split.Name != "m.json: 8 unseen graphs" || s.Model.MixAndMatch != want.Model.MixAndMatch || s.Model.BestFixed != want.Model.BestFixed || math.IsNaN(s.Tree.Total) {
		t.Errorf("saved %q: %+v, EvaluateSplit %+v", s.Split.Name, s.Model.MixAndMatch, want.Model.MixAndMatch)
	}
	if saved.Levels != nil || saved.Points != nil {
		t.Errorf("levels and points not asked for, got %d and %v", len(saved.Levels), saved.Points)
	}
	// The memo: an evaluation computed afresh equals one from the memo but
	// for its name, and held-out models are read once.
	evalMemo.Lock()
	evalMemo.last = nil
	evalMemo.Unlock()
	fresh, err := EvaluateModel(ds, m, "fresh")
	if err != nil {
		t.Fatal(err)
	}
	memo, err := EvaluateModel(ds, m, "memo")
	if err != nil {
		t.Fatal(err)
	}
	if evalMemo.last == nil || memo.Split.Name != "memo" {
		t.Fatalf("no memo, or the memo's result kept the old name %q", memo.Split.Name)
	}
	memo.Split.Name = "fresh"
	if fmt.Sprintf("%+v", fresh) != fmt.Sprintf("%+v", memo) { // NaN fields: not DeepEqual
		t.Errorf("from the memo:\n%+v\nafresh:\n%+v", memo, fresh)
	}
	if a, _ := HeldOutModel("real"); a == nil {
		t.Error("no held-out model")
	} else if b, _ := HeldOutModel("real"); a != b {
		t.Error("HeldOutModel read the embedded model twice")
	}
	all := *m
	all.Training.TrainGraphs = ds.Graphs
	if _, err := EvaluateSaved(ds, &all, "all", EvaluateParams{}); !errors.Is(err, ErrNothingToScore) {
		t.Errorf("a model trained on every graph: error %v, want ErrNothingToScore", err)
	}
}
