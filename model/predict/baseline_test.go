package predict

import (
	"os/exec"
	"testing"
)

// TestRunBaseline runs docs/baselines/sklearn_hgb.py on the synthetic
// dataset's split and scores its predictions: every test input scored, and
// a fit of the known rule well below the best fixed implementation. It
// skips where /usr/bin/python3 has no scikit-learn (.ci/run installs it).
func TestRunBaseline(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import sklearn").Run(); err != nil {
		t.Skip("/usr/bin/python3 has no scikit-learn")
	}
	ds, _ := synthetic(t, h100Physics(t))
	splits, err := MakeSplits(ds, ByGraphs, 0.5, []uint64{3})
	if err != nil {
		t.Fatal(err)
	}
	out, err := RunBaseline(ds, splits, "/usr/bin/python3", "../../docs/baselines/sklearn_hgb.py")
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := out[splits[0].Name][BaselineName]
	if !ok {
		t.Fatalf("no score for %s: %v", splits[0].Name, out)
	}
	if want := len(splits[0].Test); sc.Inputs != want {
		t.Errorf("%d inputs scored, want %d", sc.Inputs, want)
	}
	if !(sc.MixAndMatch.Total >= 1 && sc.MixAndMatch.Total < 1.5) {
		t.Errorf("baseline Mix-and-Match %.3f, want in [1, 1.5) on the synthetic rule", sc.MixAndMatch.Total)
	}
}
