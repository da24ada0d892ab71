package predict

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels"
)

// GraphBuilder builds each BFS graph of its records once, for the
// properties and the roots' levels; a graph without a BFS record is a
// warning, not an error of the whole dataset.
func TestGraphBuilder(t *testing.T) {
	ws := map[string]any{"kind": "ws", "n": 256, "k": 4, "p": 0.1}
	recs := []kernels.GraphRecord{
		// A Watts-Strogatz ring of k = 4 neighbours has n*k/2 undirected
		// edges, stored twice: m = 256*4.
		{Name: "ws-small", Gen: ws, Seed: 1, N: 256, M: 1024, Roots: []uint32{0, 3}},
		{Name: "pr-small", Algorithm: "pagerank", Gen: ws, Seed: 1, N: 256, M: 1024},
	}
	var log strings.Builder
	b := NewGraphBuilder(recs, "", &log)
	run := func(g string) aggregate.Run { return aggregate.Run{Input: aggregate.Input{Graph: g}} }
	d := &split.Data{Props: map[string]kernels.GraphPropsJSON{}, Runs: []aggregate.Run{run("ws-small"), run("pr-small"), run("ws-small")}}
	b.FillProps(d)
	if p, ok := d.Props["ws-small"]; !ok || p.Vertices != 256 || p.Edges != 1024 {
		t.Errorf("ws-small properties %+v, %v; want n = 256, m = 1024", p, ok)
	}
	if _, ok := d.Props["pr-small"]; ok || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "pr-small: not in the manifest") {
		t.Errorf("pr-small (a PageRank record): warnings %q", d.Warnings)
	}
	lv, err := b.Levels("ws-small", 3)
	if err != nil || len(lv) < 2 || lv[0].Frontier != 1 || lv[0].Vertices != 256 {
		t.Fatalf("levels from root 3: %d levels, %v", len(lv), err)
	}
	if _, err := b.Levels("ws-small", 5); err == nil || !strings.Contains(err.Error(), "not a root") {
		t.Errorf("root 5, not the record's: error %v", err)
	}
	if _, err := b.Levels("pr-small", 0); err == nil || !strings.Contains(err.Error(), "could not be built") {
		t.Errorf("pr-small again: error %v, want the one that refers to the first", err)
	}
	if n := strings.Count(log.String(), "built ws-small (n=256 m=1024)"); n != 1 {
		t.Errorf("ws-small built %d times:\n%s", n, log.String())
	}
}

// DirDataset of a directory without a manifest or level file leaves the
// graphs it cannot rebuild out, with warnings, instead of failing.
func TestDirDatasetNoManifest(t *testing.T) {
	ph := h100Physics(t)
	ds, _ := synthetic(t, ph)
	d, graphs := ds.Data, len(ds.Graphs)
	d.Props = map[string]kernels.GraphPropsJSON{}
	d.Warnings = nil
	DirDataset(d, t.TempDir(), "", ph, nil) // an error or an empty dataset: no graph has properties
	if len(d.Warnings) != graphs {
		t.Fatalf("%d warnings for %d graphs without properties: %q", len(d.Warnings), graphs, d.Warnings)
	}
	for _, w := range d.Warnings {
		if !strings.Contains(w, "not in the manifest") {
			t.Errorf("warning %q", w)
		}
	}
}
