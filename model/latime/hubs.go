package latime

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/linalg"
)

// HubFile holds the Hubs of the measured graphs, which the runner's lines
// do not give: per graph, the mean over its measured roots. It is made by
// "graphperf predict la-hubs" (ComputeHubFile) from the rebuilt graphs.
type HubFile struct {
	Source string               `json:"source"`
	Corpus string               `json:"corpus"`
	Graphs map[string]GraphHubs `json:"graphs"`
}

// GraphHubs are one graph's Hubs (mean over Roots) and its size, which
// identifies the graph rebuilt against the one measured.
type GraphHubs struct {
	N     int64   `json:"n"`
	M     int64   `json:"m"`
	Roots []int64 `json:"roots"`
	Hubs
}

// ComputeHubFile rebuilds every timed graph of runs with build and
// computes its Hubs from the roots of its bfs-push runs; source names the
// measurements (HubFile.Source). A rebuilt graph whose size differs from
// the measured one is an error.
func ComputeHubFile(source string, runs []Runs, build func(name string) (*graph.CSR, error)) (*HubFile, error) {
	hf := &HubFile{Source: source, Graphs: map[string]GraphHubs{}}
	for _, row := range runs {
		g, err := build(row.Graph)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", row.Graph, err)
		}
		if int64(g.NumVertices()) != row.N || g.NumEdges() != row.M {
			return nil, fmt.Errorf("%s: rebuilt with n %d, m %d; measured n %d, m %d", row.Graph, g.NumVertices(), g.NumEdges(), row.N, row.M)
		}
		var roots []int64
		for _, t := range row.Totals {
			if t.Impl == laout.BFSPush && t.Root != nil && !slices.Contains(roots, *t.Root) {
				roots = append(roots, *t.Root)
			}
		}
		gh, err := HubsOf(g, roots)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", row.Graph, err)
		}
		hf.Graphs[row.Graph] = gh
	}
	return hf, nil
}

// HubsOf returns g's GraphHubs over roots (sorted in the result). O(roots
// · (n + m)).
func HubsOf(g *graph.CSR, roots []int64) (GraphHubs, error) {
	gh := GraphHubs{N: int64(g.NumVertices()), M: g.NumEdges(), Roots: slices.Clone(roots)}
	slices.Sort(gh.Roots)
	if len(gh.Roots) == 0 {
		return gh, fmt.Errorf("latime: no roots")
	}
	for _, r := range gh.Roots {
		if r < 0 || r >= gh.N {
			return gh, fmt.Errorf("latime: root %d is not a vertex (the graph has %d)", r, gh.N)
		}
		depth, _ := linalg.BFSPush(g, uint32(r))
		h := ComputeHubs(g, depth)
		k := float64(len(gh.Roots))
		gh.MaxOutDegree, gh.MaxInDegree = h.MaxOutDegree, h.MaxInDegree
		gh.PushHub += h.PushHub / k
		gh.PullHub += h.PullHub / k
	}
	return gh, nil
}

// Write writes hf as indented JSON, graphs by name.
func (hf *HubFile) Write(w io.Writer) error {
	b, err := json.MarshalIndent(hf, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadHubFile reads a HubFile; name labels errors.
func ReadHubFile(r io.Reader, name string) (*HubFile, error) {
	var hf HubFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&hf); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(hf.Graphs) == 0 {
		return nil, fmt.Errorf("%s: no graphs", name)
	}
	return &hf, nil
}

// embeddedHubs is "graphperf predict la-hubs --corpus
// kernels/corpus/h100-la.yaml --graphs ../shared/graphs -o
// model/latime/hubs-h100-la.json".
//
//go:embed hubs-h100-la.json
var embeddedHubs []byte

// EmbeddedHubs returns the Hubs of the embedded measurements' graphs.
func EmbeddedHubs() (*HubFile, error) {
	return ReadHubFile(bytes.NewReader(embeddedHubs), "the embedded hubs-h100-la.json")
}

// EmbeddedFiles returns the files embedded in the binary, by their path in
// the repository (hubs-h100-la.json), for a report's manifest. The slices
// are the embedded bytes: callers must not modify them.
func EmbeddedFiles() map[string][]byte {
	return map[string][]byte{"model/latime/hubs-h100-la.json": embeddedHubs}
}
