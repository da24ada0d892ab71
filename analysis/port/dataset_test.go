package port_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/internal/porttest"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/cost"
)

// fakeGraphs is a GraphSource that gives the embedded levels of every
// graph but broken, and counts its calls.
type fakeGraphs struct {
	levels             *kernels.LevelsDocument
	broken             string
	fills, levelsCalls *int
}

var _ port.GraphSource = fakeGraphs{}

func (g fakeGraphs) FillProps(d *split.Data) { *g.fills++ }

func (g fakeGraphs) Levels(graph string, root int64) ([]cost.BFSLevel, error) {
	*g.levelsCalls++
	if graph == g.broken {
		return nil, errors.New("cannot be rebuilt")
	}
	gl, ok := g.levels.Graph(graph)
	if !ok {
		return nil, errors.New("no levels")
	}
	lv, ok := gl.BFSLevels(uint32(root))
	if !ok {
		return nil, errors.New("no root")
	}
	return lv, nil
}

func TestDatasets(t *testing.T) {
	db := openFixture(t)
	dir, err := measured.Dir()
	if err != nil {
		t.Fatal(err)
	}
	props, err := port.ReadProps(dir)
	if err != nil || len(props) == 0 {
		t.Fatalf("ReadProps(embedded) = %d graphs, %v", len(props), err)
	}
	levels, err := kernels.ReadLevelsFile(filepath.Join(dir, kernels.LevelsName))
	if err != nil {
		t.Fatal(err)
	}
	platforms := []string{porttest.First, porttest.Second}
	machines := map[string]*machine.Machine{porttest.First: machine.Default(), porttest.Second: machine.Default()}
	var fills, levelsCalls int
	var done []string
	o := port.DatasetOptions{Props: props, Dir: dir,
		Graphs: func(recs []kernels.GraphRecord) port.GraphSource {
			// The store holds a record of each of the fixture's graphs.
			if len(recs) != len(porttest.Graphs) {
				t.Errorf("%d graph records, want %d", len(recs), len(porttest.Graphs))
			}
			return fakeGraphs{levels: levels, fills: &fills, levelsCalls: &levelsCalls}
		},
		Done: func(p string, ds *predict.Dataset) { done = append(done, p) },
	}
	ds, err := port.Datasets(db, platforms, machines, o)
	if err != nil {
		t.Fatal(err)
	}
	// The embedded files have every graph: the GraphSource fills (nothing)
	// once a platform and gives no levels.
	if !slices.Equal(done, platforms) || fills != 2 || levelsCalls != 0 {
		t.Errorf("done %q, %d fills, %d level calls", done, fills, levelsCalls)
	}
	for _, p := range platforms {
		if d := ds[p]; d == nil || !slices.Equal(d.Graphs, porttest.Graphs) || len(d.Warnings) != 0 {
			t.Fatalf("%s: %+v", p, d)
		}
	}
	// The second GPU's times differ, its levels and features do not.
	if len(ds[platforms[0]].X) != len(ds[platforms[1]].X) || slices.Equal(ds[platforms[0]].Ns, ds[platforms[1]].Ns) {
		t.Errorf("datasets: %d and %d features, times equal: %v", len(ds[platforms[0]].X), len(ds[platforms[1]].X),
			slices.Equal(ds[platforms[0]].Ns, ds[platforms[1]].Ns))
	}

	// Without a levels file the GraphSource gives the levels; a graph it
	// cannot give is left out of both datasets with a warning a root
	// (porttest: five roots a graph).
	broken := porttest.Graphs[0]
	o.Dir, o.Done = "", nil
	o.Graphs = func([]kernels.GraphRecord) port.GraphSource {
		return fakeGraphs{levels: levels, broken: broken, fills: &fills, levelsCalls: &levelsCalls}
	}
	fills, levelsCalls = 0, 0
	ds, err = port.Datasets(db, platforms, machines, o)
	if err != nil {
		t.Fatal(err)
	}
	if fills != 2 || levelsCalls != 2*5*len(porttest.Graphs) {
		t.Errorf("%d fills, %d level calls, want 2 and %d", fills, levelsCalls, 2*5*len(porttest.Graphs))
	}
	for _, p := range platforms {
		d := ds[p]
		if slices.Contains(d.Graphs, broken) || len(d.Graphs) != len(porttest.Graphs)-1 || len(d.Warnings) != 5 ||
			!strings.HasPrefix(d.Warnings[0], broken+" root ") || !strings.HasSuffix(d.Warnings[0], ": cannot be rebuilt; left out") {
			t.Errorf("%s: graphs %q, warnings %q", p, d.Graphs, d.Warnings)
		}
	}

	// Without graph properties or a GraphSource every graph is left out.
	if _, err := port.Datasets(db, platforms, machines, port.DatasetOptions{}); err == nil {
		t.Error("no properties: no error")
	}
	// A platform the store lacks is named in the error.
	if _, err := port.Datasets(db, []string{"NVIDIA A100"}, machines, o); err == nil || !strings.HasPrefix(err.Error(), "NVIDIA A100: ") {
		t.Errorf("unknown platform: %v", err)
	}
}

func TestReadProps(t *testing.T) {
	// A results directory without a properties file has none.
	if props, err := port.ReadProps(t.TempDir()); props != nil || err != nil {
		t.Errorf("ReadProps(empty) = %v, %v", props, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, split.PropsName), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := port.ReadProps(dir); err == nil {
		t.Error("ReadProps(corrupt): no error")
	}
	// A corrupt levels file fails Datasets.
	if err := os.WriteFile(filepath.Join(dir, kernels.LevelsName), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openFixture(t)
	if _, err := port.Datasets(db, []string{porttest.First}, map[string]*machine.Machine{porttest.First: machine.Default()},
		port.DatasetOptions{Dir: dir}); err == nil {
		t.Error("corrupt levels file: no error")
	}
}
