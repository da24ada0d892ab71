package ompredict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
)

// TestFromCountersLevels: the level properties beside the sweep give every
// level's tail as the hub walk of om.TopoWarpLoads, a different prediction
// from the sub-partitions' fallback wherever the two tails differ; a
// levels file without the graph is an error when given and nil levels when
// found beside; fewer levels than launches is an error.
func TestFromCountersLevels(t *testing.T) {
	f, err := os.Open(testNCU)
	if err != nil {
		t.Skip(err)
	}
	launches, err := om.ReadNCU(f, testNCU)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	meas, err := ReadMeasured(testMeasured, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	lv, file, err := meas.Levels("")
	if err != nil || lv == nil {
		t.Fatalf("levels beside %s: %v, %v", testMeasured, lv, err)
	}
	if want := filepath.Join(filepath.Dir(testMeasured), kernels.LevelsName); file != want {
		t.Errorf("levels read from %s, want %s", file, want)
	}
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	hub, err := FromCounters(launches, testNCU, m, om.GPUOptions{}, meas, lv)
	if err != nil {
		t.Fatal(err)
	}
	smsp, err := FromCounters(launches, testNCU, m, om.GPUOptions{}, meas, nil)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i, c := range launches {
		mx, mean := om.TopoWarpLoads(lv[i], c.Loads, m)
		p, err := om.PredictFromCounters(om.WithTopoLevel(c, lv[i], m), m, &om.GPUOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if hub.Levels[i].PredictedNs != p.PredictedNs {
			t.Errorf("level %d: %g ns, the hub tail's prediction is %g", i, hub.Levels[i].PredictedNs, p.PredictedNs)
		}
		if want := max(mx-mean, 0); p.TailJobs != want {
			t.Errorf("level %d: tail of %g loads, want 3 + 2 x %d - %g = %g", i, p.TailJobs, lv[i].MaxFrontierDegree, mean, want)
		}
		if hub.Levels[i].PredictedNs != smsp.Levels[i].PredictedNs {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the hub tail changed no level's prediction")
	}
	if _, err := FromCounters(launches, testNCU, m, om.GPUOptions{}, meas, lv[:len(launches)-1]); err == nil || !strings.Contains(err.Error(), "not the same BFS") {
		t.Errorf("fewer levels than launches: %v", err)
	}
	other := &Measured{Path: filepath.Join(t.TempDir(), "rmat-s18-e8.jsonl.gz"), Root: testRoot}
	if lv, file, err := other.Levels(""); lv != nil || file != "" || err != nil {
		t.Errorf("no file beside: %d levels from %q, %v; want none and no error", len(lv), file, err)
	}
	wrongRoot := &Measured{Path: testMeasured, Root: testRoot + 1}
	if lv, _, err := wrongRoot.Levels(""); lv != nil || err != nil {
		t.Errorf("a root the file lacks, found beside: %d levels, %v; want none and no error", len(lv), err)
	}
	given := filepath.Join(filepath.Dir(testMeasured), kernels.LevelsName)
	if _, _, err := wrongRoot.Levels(given); err == nil || !strings.Contains(err.Error(), "from root") {
		t.Errorf("a root the given file lacks: %v, want an error naming the root", err)
	}
}
