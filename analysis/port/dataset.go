package port

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/cost"
)

// GraphSource supplies what a platform's runs lack to train the time
// model on them: the degree properties and the BFS levels of their graphs
// (cmd/graphperf rebuilds the graphs from their store records).
type GraphSource interface {
	// FillProps sets the properties of d's graphs that have runs but no
	// properties, adding a warning to d for each it cannot.
	FillProps(d *split.Data)
	// Levels returns the BFS levels of graph from root.
	Levels(graph string, root int64) ([]cost.BFSLevel, error)
}

// DatasetOptions say where Datasets finds what the store lacks.
type DatasetOptions struct {
	// Dataset is the store's dataset to read ("" every dataset).
	Dataset string
	// Props are graph properties used where the store has none (ReadProps
	// of a results directory); Dir is a results directory whose
	// kernels.LevelsName file gives the BFS levels where it has the graph
	// and root ("" none).
	Props map[string]kernels.GraphPropsJSON
	Dir   string
	// Graphs returns, for a platform's graph records in the store, what
	// gives the properties and levels that Props and Dir lack (nil:
	// nothing does; such graphs are left out with a warning).
	Graphs func(records []kernels.GraphRecord) GraphSource
	// Done, when not nil, is called with each platform's dataset as soon
	// as it is built, before the next platform's is begun.
	Done func(platform string, ds *predict.Dataset)
}

// ReadProps returns the graph properties of the results directory dir
// (split.PropsName), or none when it has no such file.
func ReadProps(dir string) (map[string]kernels.GraphPropsJSON, error) {
	props, err := split.ReadProps(filepath.Join(dir, split.PropsName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return props, nil
}

// Datasets builds the time model's dataset (predict.NewDataset) of every
// platform from its validated BFS runs in db (split.FromStoreOn), with
// the physics of its machine (machines[platform]): the graph properties
// from the store, else o.Props, else o.Graphs; the levels from o.Dir's
// levels file, else o.Graphs. What a dataset lacks is in its Warnings.
// Transfer trains and scores on them.
func Datasets(db *store.DB, platforms []string, machines map[string]*machine.Machine, o DatasetOptions) (map[string]*predict.Dataset, error) {
	datasets := map[string]*predict.Dataset{}
	for _, p := range platforms {
		ds, err := platformDataset(db, p, machines[p], o)
		if err != nil {
			return nil, err
		}
		if o.Done != nil {
			o.Done(p, ds)
		}
		datasets[p] = ds
	}
	return datasets, nil
}

// platformDataset is one platform's dataset of Datasets.
func platformDataset(db *store.DB, platform string, m *machine.Machine, o DatasetOptions) (*predict.Dataset, error) {
	d, recs, err := split.FromStoreOn(db, o.Dataset, platform)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", platform, err)
	}
	for g, gp := range o.Props {
		if _, ok := d.Props[g]; !ok {
			d.Props[g] = gp
		}
	}
	var graphs GraphSource = noGraphs{}
	if o.Graphs != nil {
		graphs = o.Graphs(recs)
	}
	graphs.FillProps(d)
	src, err := predict.DirLevelSource(o.Dir, graphs)
	if err != nil {
		return nil, err
	}
	ph, err := predict.NewPhysics(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", platform, err)
	}
	ds, err := predict.NewDataset(d, src, ph)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", platform, err)
	}
	return ds, nil
}

// noGraphs is the GraphSource of no graphs.
type noGraphs struct{}

var _ GraphSource = noGraphs{}

func (noGraphs) FillProps(d *split.Data) {}

func (noGraphs) Levels(graph string, root int64) ([]cost.BFSLevel, error) {
	return nil, fmt.Errorf("%s: no levels of root %d", graph, root)
}
