package kernels

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
)

// Measured returns the graphs of c that man holds a record of (any
// algorithm's), in corpus order: the graphs a dataset's property files
// must describe. A corpus measured over several sessions (the H200's
// large graphs, kernels/corpus/h200-bfs-large.yaml) has graphs not
// measured yet; building them would cost more than their measurement.
func (c *Corpus) Measured(man *Manifest) []Graph {
	have := map[string]bool{}
	for _, r := range man.Graphs {
		have[r.Name] = true
	}
	var out []Graph
	for _, g := range c.Graphs {
		if have[g.Name] {
			out = append(out, g)
		}
	}
	return out
}

// mergeNamed returns, in the order of c's graphs, the entry of fresh for
// every graph fresh holds, else base's entry (a graph computed by an
// earlier run); base entries of graphs c does not hold are an error
// (a property file describes one corpus list). name gives an entry's
// graph name.
func mergeNamed[T any](c *Corpus, base, fresh []T, name func(T) string) ([]T, error) {
	byName := map[string]T{}
	for _, e := range base {
		if _, ok := c.Graph(name(e)); !ok {
			return nil, fmt.Errorf("the base file has graph %q, which %s does not", name(e), c.Path)
		}
		byName[name(e)] = e
	}
	for _, e := range fresh {
		byName[name(e)] = e
	}
	out := make([]T, 0, len(byName))
	for _, g := range c.Graphs {
		if e, ok := byName[g.Name]; ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// MergeProps puts doc's graphs and base's other graphs (a "bench props"
// file of an earlier run) into one document in c's order, labelled with
// c's path and hash: "bench props --base" adds graphs to a dataset's
// properties without building the earlier ones again.
func MergeProps(c *Corpus, base, doc *PropsDocument) (*PropsDocument, error) {
	graphs, err := mergeNamed(c, base.Graphs, doc.Graphs, func(g NamedGraphProps) string { return g.Name })
	if err != nil {
		return nil, err
	}
	return &PropsDocument{Corpus: c.Path, CorpusSHA256: c.SHA256, Graphs: graphs}, nil
}

// MergeLevels is MergeProps for "bench levels" documents.
func MergeLevels(c *Corpus, base, doc *LevelsDocument) (*LevelsDocument, error) {
	graphs, err := mergeNamed(c, base.Graphs, doc.Graphs, func(g NamedGraphLevels) string { return g.Name })
	if err != nil {
		return nil, err
	}
	return &LevelsDocument{Corpus: c.Path, CorpusSHA256: c.SHA256, Graphs: graphs}, nil
}

// ReadPropsFile reads a "bench props" file (gzipped JSON). Unknown keys
// are an error, so a file of another shape is not taken for one with no
// graphs.
func ReadPropsFile(path string) (*PropsDocument, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("graphperf: read properties: %s: %w", path, err)
	}
	defer zr.Close()
	dec := json.NewDecoder(zr)
	dec.DisallowUnknownFields()
	var doc PropsDocument
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("graphperf: read properties: %s: %w", path, err)
	}
	if doc.Graphs == nil {
		return nil, fmt.Errorf("graphperf: read properties: %s: no \"graphs\" key", path)
	}
	return &doc, nil
}
