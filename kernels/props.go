package kernels

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// BuildGraph makes the graph a corpus entry describes, as a sweep does: a
// generated graph from its gen spec and seed, self-loops and duplicate edges
// dropped; a file graph read from graphsDir with the entry's load options.
func BuildGraph(g Graph, graphsDir string) (*graph.CSR, error) {
	if g.Gen == nil {
		opts, err := g.Load.Options()
		if err != nil {
			return nil, err
		}
		return graph.Load(filepath.Join(graphsDir, g.File), opts)
	}
	gen, err := g.Gen.Generator()
	if err != nil {
		return nil, err
	}
	el, err := gen.Generate(g.Seed, nil)
	if err != nil {
		return nil, err
	}
	return graph.Build(el, graph.BuildOptions{Undirected: gen.Undirected(), DropSelfLoops: true, DropDuplicates: true})
}

// DegreeStatsJSON is the stable JSON shape of props.Stats.
type DegreeStatsJSON struct {
	Min           float64 `json:"min"`
	LowerQuartile float64 `json:"lower_quartile"`
	Mean          float64 `json:"mean"`
	Median        float64 `json:"median"`
	UpperQuartile float64 `json:"upper_quartile"`
	Max           float64 `json:"max"`
	StdDev        float64 `json:"stddev"`
}

// NewDegreeStatsJSON returns the JSON shape of s.
func NewDegreeStatsJSON(s props.Stats) DegreeStatsJSON {
	return DegreeStatsJSON{s.Min, s.LowerQuartile, s.Mean, s.Median, s.UpperQuartile, s.Max, s.StdDev}
}

// GraphPropsJSON is the stable JSON shape of props.Graph: the keys of
// "graph stats --json" (which adds "file" before them) and of each graph of
// "bench props" (which adds "name").
type GraphPropsJSON struct {
	Vertices              int64           `json:"vertices"`
	Edges                 int64           `json:"edges"`
	Directed              bool            `json:"directed"`
	AbsDegree             DegreeStatsJSON `json:"abs_degree"`
	InDegree              DegreeStatsJSON `json:"in_degree"`
	OutDegree             DegreeStatsJSON `json:"out_degree"`
	Density               float64         `json:"density"`
	SelfLoops             int64           `json:"self_loops"`
	Components            int64           `json:"components"`
	LargestComponent      int64           `json:"largest_component"`
	LargestComponentShare float64         `json:"largest_component_share"`
	DiameterEstimate      int             `json:"diameter_estimate"`
}

// NewGraphPropsJSON returns the JSON shape of p.
func NewGraphPropsJSON(p props.Graph) GraphPropsJSON {
	return GraphPropsJSON{
		Vertices: p.Vertices, Edges: p.Edges, Directed: p.Directed,
		AbsDegree: NewDegreeStatsJSON(p.Abs), InDegree: NewDegreeStatsJSON(p.In), OutDegree: NewDegreeStatsJSON(p.Out),
		Density: p.Density, SelfLoops: p.SelfLoops, Components: p.Components,
		LargestComponent: p.LargestComponent, LargestComponentShare: p.LargestComponentShare,
		DiameterEstimate: p.DiameterEstimate,
	}
}

// NamedGraphProps is one graph of a PropsDocument.
type NamedGraphProps struct {
	Name string `json:"name"`
	GraphPropsJSON
}

// PropsDocument is the properties of every graph of a corpus, in corpus
// order ("bench props").
type PropsDocument struct {
	Corpus       string            `json:"corpus"`
	CorpusSHA256 string            `json:"corpus_sha256"`
	Graphs       []NamedGraphProps `json:"graphs"`
}

// ReadManifest reads a sweep's manifest.json.
func ReadManifest(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// CorpusProps builds every graph of c as a sweep does (BuildGraph) and
// computes its properties, writing one progress line per graph to log.
// When man is not nil, each graph's n and m must be those of its manifest
// records (every algorithm's): the graphs measured are the graphs described.
func CorpusProps(c *Corpus, graphsDir string, man *Manifest, log io.Writer) (*PropsDocument, error) {
	doc := &PropsDocument{Corpus: c.Path, CorpusSHA256: c.SHA256, Graphs: []NamedGraphProps{}}
	for i, g := range c.Graphs {
		t0 := time.Now()
		csr, err := BuildGraph(g, graphsDir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
		n, m := int64(csr.NumVertices()), csr.NumEdges()
		if man != nil {
			found := false
			for _, rec := range man.Graphs {
				if rec.Name != g.Name {
					continue
				}
				found = true
				if rec.N != n || rec.M != m {
					return nil, fmt.Errorf("%s: built n=%d m=%d, the manifest says n=%d m=%d (%s)", g.Name, n, m, rec.N, rec.M, cmpAlg(rec.Algorithm))
				}
			}
			if !found {
				return nil, fmt.Errorf("%s: not in the manifest", g.Name)
			}
		}
		p := props.Compute(csr)
		doc.Graphs = append(doc.Graphs, NamedGraphProps{Name: g.Name, GraphPropsJSON: NewGraphPropsJSON(p)})
		if log != nil {
			fmt.Fprintf(log, "[%d/%d] %s n=%d m=%d %.2fs\n", i+1, len(c.Graphs), g.Name, n, m, time.Since(t0).Seconds())
		}
	}
	return doc, nil
}

func cmpAlg(a string) string {
	if a == "" {
		return AlgorithmBFS
	}
	return a
}

// WritePropsFile writes doc to path as gzipped, indented JSON, atomically:
// path is never left half written.
func WritePropsFile(path string, doc *PropsDocument) error {
	return writeAtomic(path, func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		enc := json.NewEncoder(zw)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
		return zw.Close()
	})
}
