package kernels

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// A corpus file is YAML: defaults for every graph, then the graphs in the
// order a sweep measures them.
//
//	defaults: {roots: 5, reps: 10, warmup: 1, impls: [all], seed: 1, algorithms: [bfs]}
//	graphs:
//	  - name: rmat-s12-e8                            # unique, [a-z0-9.-]
//	    gen: {kind: rmat, scale: 12, edge_factor: 8} # a gen.Spec; omitted fields take gen.DefaultSpec's values
//	    seed: 1                                      # any default may be overridden per graph
//	  - name: facebook-combined
//	    file: facebook-combined.txt.gz               # relative to the sweep's graphs directory
//	    load: {undirected: true, drop_self_loops: true, drop_duplicates: true}
//	    edges: 176468                                # estimated stored edge count (file graphs only)
//
// A graph is generated (gen) or read from a file (file, with load options);
// generated graphs drop self-loops and duplicate edges. Unknown fields are
// errors, and so is a gen field that its kind does not read.
//
// algorithms (default [bfs]) says what is measured on each graph: bfs
// (graphperf-bfs, from roots random roots) and pagerank (graphperf-pr,
// iterations PageRank iterations, default 100 as seed 004 §4.4.2); impls
// must name implementations of every algorithm listed ([all] does).

// The algorithms a corpus can ask for.
const (
	AlgorithmBFS      = "bfs"
	AlgorithmPageRank = "pagerank"
)

// Algorithms lists the algorithms a corpus can ask for, in sweep order.
var Algorithms = []string{AlgorithmBFS, AlgorithmPageRank}

// Settings say how each graph of a corpus is measured.
type Settings struct {
	Roots  int      `yaml:"roots" json:"roots"`   // random non-isolated roots (props.RandomRoots); BFS
	Reps   int      `yaml:"reps" json:"reps"`     // timed repetitions per (root, implementation)
	Warmup int      `yaml:"warmup" json:"warmup"` // untimed runs before them
	Impls  []string `yaml:"impls" json:"impls"`   // implementation selectors (SelectImpls)
	Seed   uint64   `yaml:"seed" json:"seed"`     // seed of the generator and of the roots
	// Algorithms are measured in this order, each by its runner: bfs,
	// pagerank.
	Algorithms []string `yaml:"algorithms" json:"algorithms,omitempty"`
	// Iterations is the PageRank iteration count.
	Iterations int `yaml:"iterations" json:"iterations,omitempty"`
}

// DefaultSettings apply where a corpus file's defaults say nothing. 100
// PageRank iterations are seed 004 §4.4.2's.
var DefaultSettings = Settings{Roots: 5, Reps: 10, Warmup: 1, Impls: []string{"all"}, Seed: 1,
	Algorithms: []string{AlgorithmBFS}, Iterations: 100}

// universe returns the implementation names of an algorithm as graphperf
// knows them.
func universe(algorithm string) []string {
	if algorithm == AlgorithmPageRank {
		return PageRankImpls
	}
	return Impls
}

// LoadSpec says how a file graph is read: graph.LoadOptions in YAML.
type LoadSpec struct {
	Format         string `yaml:"format" json:"format,omitempty"` // snap, mtx, konect or gpg; empty: from the name
	Undirected     bool   `yaml:"undirected" json:"undirected"`
	DropSelfLoops  bool   `yaml:"drop_self_loops" json:"drop_self_loops"`
	DropDuplicates bool   `yaml:"drop_duplicates" json:"drop_duplicates"`
	Compact        bool   `yaml:"compact" json:"compact"`
}

// Options returns the graph.LoadOptions l describes.
func (l LoadSpec) Options() (graph.LoadOptions, error) {
	f, err := graph.ParseFormat(l.Format)
	if err != nil {
		return graph.LoadOptions{}, err
	}
	return graph.LoadOptions{
		Format: f,
		BuildOptions: graph.BuildOptions{
			Undirected:     l.Undirected,
			DropSelfLoops:  l.DropSelfLoops,
			DropDuplicates: l.DropDuplicates,
		},
		Compact: l.Compact,
	}, nil
}

// Graph is one graph of a corpus.
type Graph struct {
	Name string
	// Gen describes a generated graph; nil for a file graph.
	Gen *gen.Spec
	// File is a file graph's path, relative to the graphs directory, and
	// Load how to read it.
	File string
	Load LoadSpec
	// Edges estimates the stored edge count (an undirected edge counts
	// twice): Gen.EstimatedEdges(), or the file entry's edges field (0 when
	// it has none). Sweeps order and budget by it.
	Edges int64
	// Settings are the corpus defaults with the entry's overrides.
	Settings
	// Index is the entry's position in the file and Line its first line.
	Index, Line int
}

// Corpus is a parsed corpus file.
type Corpus struct {
	Path     string // as given to LoadCorpus
	SHA256   string // of the file's bytes, hex
	Defaults Settings
	Graphs   []Graph
}

// Graph returns the graph called name.
func (c *Corpus) Graph(name string) (Graph, bool) {
	for _, g := range c.Graphs {
		if g.Name == name {
			return g, true
		}
	}
	return Graph{}, false
}

// Select returns the graphs named in only, in corpus order, or all of them
// when only is empty; an unknown name is an error.
func (c *Corpus) Select(only []string) ([]Graph, error) {
	if len(only) == 0 {
		return c.Graphs, nil
	}
	for _, name := range only {
		if _, ok := c.Graph(name); !ok {
			return nil, fmt.Errorf("%s has no graph %q", c.Path, name)
		}
	}
	var out []Graph
	for _, g := range c.Graphs {
		if slices.Contains(only, g.Name) {
			out = append(out, g)
		}
	}
	return out, nil
}

// CorpusError is a bad corpus file: it names the file, the line, the graph
// entry (Entry is its index in graphs, -1 for the defaults or the file as a
// whole; Name is empty when the entry has none) and the field.
type CorpusError struct {
	File  string
	Line  int // 0 when unknown
	Entry int
	Name  string
	Field string // "gen.scale", "defaults.reps"; empty when the error is about the whole entry or file
	Msg   string
}

func (e *CorpusError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Entry >= 0 {
		fmt.Fprintf(&b, "graphs[%d]", e.Entry)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", e.Name)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// corpusFile, settingsFile and graphFile are the file's shape, decoded
// with KnownFields so that unknown fields are errors; pointers tell an
// absent field from a zero one.
type corpusFile struct {
	Defaults *settingsFile `yaml:"defaults"`
	Graphs   []graphFile   `yaml:"graphs"`
}

type settingsFile struct {
	Roots      *int     `yaml:"roots"`
	Reps       *int     `yaml:"reps"`
	Warmup     *int     `yaml:"warmup"`
	Impls      []string `yaml:"impls"`
	Seed       *uint64  `yaml:"seed"`
	Algorithms []string `yaml:"algorithms"`
	Iterations *int     `yaml:"iterations"`
}

type graphFile struct {
	Name         string    `yaml:"name"`
	Gen          *gen.Spec `yaml:"gen"`
	File         string    `yaml:"file"`
	Load         *LoadSpec `yaml:"load"`
	Edges        *int64    `yaml:"edges"`
	settingsFile `yaml:",inline"`
}

// apply overrides s with the fields f sets.
func (f *settingsFile) apply(s Settings) Settings {
	if f == nil {
		return s
	}
	if f.Roots != nil {
		s.Roots = *f.Roots
	}
	if f.Reps != nil {
		s.Reps = *f.Reps
	}
	if f.Warmup != nil {
		s.Warmup = *f.Warmup
	}
	if f.Impls != nil {
		s.Impls = f.Impls
	}
	if f.Seed != nil {
		s.Seed = *f.Seed
	}
	if f.Algorithms != nil {
		s.Algorithms = f.Algorithms
	}
	if f.Iterations != nil {
		s.Iterations = *f.Iterations
	}
	return s
}

// LoadCorpus reads and validates a corpus file.
func LoadCorpus(path string) (*Corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCorpus(data, path)
}

// LoadCorpora reads a comma-separated list of corpus files as one corpus:
// their graphs in order (a name may appear once in all of them), Path and
// SHA256 the files' own, joined by commas. A dataset measured in waves
// (kernels/corpus/h100-bfs.yaml, then h100-bfs-2.yaml into the same
// results directory) is described by the list. Defaults are the first
// file's; every graph already carries its own settings.
func LoadCorpora(list string) (*Corpus, error) {
	var out *Corpus
	seen := map[string]string{}
	for _, path := range strings.Split(list, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		c, err := LoadCorpus(path)
		if err != nil {
			return nil, err
		}
		for _, g := range c.Graphs {
			if first, dup := seen[g.Name]; dup {
				return nil, fmt.Errorf("%s: graph %s is also in %s", path, g.Name, first)
			}
			seen[g.Name] = path
		}
		if out == nil {
			out = c
			continue
		}
		out.Path += "," + c.Path
		out.SHA256 += "," + c.SHA256
		out.Graphs = append(out.Graphs, c.Graphs...)
	}
	if out == nil {
		return nil, fmt.Errorf("no corpus file named")
	}
	return out, nil
}

// namePattern is what a graph name may look like: it names files.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// ParseCorpus parses and validates a corpus file's contents; name is the
// file name errors give. Errors are *CorpusError.
func ParseCorpus(data []byte, name string) (*Corpus, error) {
	p := &corpusParser{file: name}
	// The tree, for line numbers and for the gen fields an entry sets.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	p.index(&doc)
	var raw corpusFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, &CorpusError{File: name, Entry: -1, Msg: "empty file: want defaults and graphs"}
		}
		return nil, p.yamlError(err)
	}
	sum := sha256.Sum256(data)
	c := &Corpus{Path: name, SHA256: hex.EncodeToString(sum[:])}
	c.Defaults = raw.Defaults.apply(DefaultSettings)
	if err := p.checkSettings(-1, "", "defaults.", c.Defaults); err != nil {
		return nil, err
	}
	if len(raw.Graphs) == 0 {
		return nil, p.errorAt(-1, "graphs", "the corpus lists no graphs")
	}
	seen := map[string]int{}
	for i, rg := range raw.Graphs {
		g := Graph{Name: rg.Name, File: rg.File, Index: i, Line: p.entryLine(i)}
		g.Settings = rg.settingsFile.apply(c.Defaults)
		switch {
		case rg.Name == "":
			return nil, p.errorAt(i, "name", "every graph needs a name")
		case !namePattern.MatchString(rg.Name):
			return nil, p.errorAt(i, "name", "%q: use lower-case letters, digits, '.' and '-', starting with a letter or digit", rg.Name)
		}
		if j, dup := seen[rg.Name]; dup {
			return nil, p.errorAt(i, "name", "%q is also the name of graphs[%d]", rg.Name, j)
		}
		seen[rg.Name] = i
		if err := p.checkSettings(i, rg.Name, "", g.Settings); err != nil {
			return nil, err
		}
		switch {
		case rg.Gen != nil && rg.File != "":
			return nil, p.errorAt(i, "file", "give gen or file, not both")
		case rg.Gen == nil && rg.File == "":
			return nil, p.errorAt(i, "", "give gen (a generated graph) or file (a graph file)")
		case rg.Gen != nil:
			if rg.Load != nil {
				return nil, p.errorAt(i, "load", "applies to file graphs only")
			}
			if rg.Edges != nil {
				return nil, p.errorAt(i, "edges", "applies to file graphs only (a generated graph's is estimated from gen)")
			}
			spec, err := p.spec(i)
			if err != nil {
				return nil, err
			}
			g.Gen = &spec
			g.Edges = spec.EstimatedEdges()
		default:
			if filepath.IsAbs(rg.File) || slices.Contains(strings.Split(filepath.ToSlash(rg.File), "/"), "..") {
				return nil, p.errorAt(i, "file", "%q: give a path inside the graphs directory", rg.File)
			}
			if rg.Load != nil {
				g.Load = *rg.Load
			}
			if _, err := g.Load.Options(); err != nil {
				return nil, p.errorAt(i, "load.format", "%v", err)
			}
			if rg.Edges != nil {
				if *rg.Edges < 0 {
					return nil, p.errorAt(i, "edges", "%d: must not be negative", *rg.Edges)
				}
				g.Edges = *rg.Edges
			}
		}
		c.Graphs = append(c.Graphs, g)
	}
	return c, nil
}

// corpusParser keeps the YAML tree's positions for error messages.
type corpusParser struct {
	file     string
	defaults *yaml.Node    // the defaults mapping
	graphs   *yaml.Node    // the graphs sequence
	keys     []keyPosition // every key of the file
}

// keyPosition is a key of the file: its path ("gen.scale"), the graph
// entry it belongs to (-1: none) and its nodes.
type keyPosition struct {
	path       string
	entry      int
	key, value *yaml.Node
}

// index records the positions of the top-level nodes and of every key.
func (p *corpusParser) index(doc *yaml.Node) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		p.keys = append(p.keys, keyPosition{k.Value, -1, k, v})
		switch k.Value {
		case "defaults":
			p.defaults = v
			p.indexMapping(v, "defaults.", -1)
		case "graphs":
			p.graphs = v
			if v.Kind == yaml.SequenceNode {
				for e, item := range v.Content {
					p.indexMapping(item, "", e)
				}
			}
		}
	}
}

func (p *corpusParser) indexMapping(m *yaml.Node, prefix string, entry int) {
	if m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		path := prefix + k.Value
		p.keys = append(p.keys, keyPosition{path, entry, k, v})
		switch v.Kind {
		case yaml.MappingNode:
			p.indexMapping(v, path+".", entry)
		case yaml.SequenceNode:
			for j, item := range v.Content {
				p.keys = append(p.keys, keyPosition{fmt.Sprintf("%s[%d]", path, j), entry, k, item})
			}
		}
	}
}

// entryNode returns the mapping of graphs[i], or nil.
func (p *corpusParser) entryNode(i int) *yaml.Node {
	if p.graphs == nil || p.graphs.Kind != yaml.SequenceNode || i < 0 || i >= len(p.graphs.Content) {
		return nil
	}
	return p.graphs.Content[i]
}

func (p *corpusParser) entryLine(i int) int {
	if n := p.entryNode(i); n != nil {
		return n.Line
	}
	return 0
}

// entryName returns the name graphs[i] gives, or "".
func (p *corpusParser) entryName(i int) string {
	for _, k := range p.keys {
		if k.entry == i && k.path == "name" && k.value.Kind == yaml.ScalarNode {
			return k.value.Value
		}
	}
	return ""
}

// errorAt makes the error for a field of graphs[entry] (entry -1: the
// defaults or the file), at the line of the field's key, else of the entry.
func (p *corpusParser) errorAt(entry int, field, format string, args ...any) error {
	e := &CorpusError{File: p.file, Entry: entry, Field: field, Msg: fmt.Sprintf(format, args...)}
	if entry >= 0 {
		e.Name = p.entryName(entry)
		e.Line = p.entryLine(entry)
	}
	// The field's key, else its parent's ("gen" for an omitted gen.dist).
	for path := field; path != ""; {
		for _, k := range p.keys {
			if k.entry == entry && k.path == path {
				e.Line = k.key.Line
				return e
			}
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return e
}

// yamlLine matches the position yaml errors begin with.
var yamlLine = regexp.MustCompile(`line (\d+): (.*)$`)

// yamlFieldNotFound matches KnownFields' complaint.
var yamlFieldNotFound = regexp.MustCompile(`^field (\S+) not found in type`)

// yamlError turns the yaml package's error (syntax, type or unknown field,
// each carrying a line) into CorpusErrors naming the entry and the field.
func (p *corpusParser) yamlError(err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var errs []error
	for _, msg := range msgs {
		msg = strings.TrimPrefix(msg, "yaml: ")
		e := &CorpusError{File: p.file, Entry: -1, Msg: msg}
		m := yamlLine.FindStringSubmatch(msg)
		if m == nil {
			errs = append(errs, e)
			continue
		}
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
		field := ""
		if f := yamlFieldNotFound.FindStringSubmatch(e.Msg); f != nil {
			field = f[1]
			e.Msg = "unknown field"
		}
		if k, ok := p.keyAt(e.Line, field, e.Msg); ok {
			e.Entry, e.Field = k.entry, k.path
		} else {
			e.Entry = p.entryAtLine(e.Line)
		}
		if e.Entry >= 0 {
			e.Name = p.entryName(e.Entry)
		}
		errs = append(errs, e)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// keyAt finds the key a yaml error at line is about: the key called field
// when the error names one, else a key or value on that line, preferring a
// value that the message quotes.
func (p *corpusParser) keyAt(line int, field, msg string) (keyPosition, bool) {
	var found []keyPosition
	for _, k := range p.keys {
		if field != "" {
			if k.key.Line == line && k.key.Value == field && !strings.HasSuffix(k.path, "]") {
				return k, true
			}
			continue
		}
		if k.value.Line == line && k.value.Kind == yaml.ScalarNode {
			found = append(found, k)
		}
	}
	for _, k := range found {
		v := k.value.Value
		if len(v) > 10 {
			v = v[:7]
		}
		if strings.Contains(msg, "`"+v) {
			return k, true
		}
	}
	if len(found) > 0 {
		return found[0], true
	}
	return keyPosition{}, false
}

// entryAtLine returns the graph entry whose text holds line, or -1.
func (p *corpusParser) entryAtLine(line int) int {
	entry := -1
	if p.graphs != nil && p.graphs.Kind == yaml.SequenceNode {
		for i, item := range p.graphs.Content {
			if item.Line <= line {
				entry = i
			}
		}
	}
	return entry
}

// checkSettings validates the settings of graphs[entry] (-1: the defaults).
func (p *corpusParser) checkSettings(entry int, name, prefix string, s Settings) error {
	switch {
	case s.Roots < 1:
		return p.errorAt(entry, prefix+"roots", "%d: want at least 1 root", s.Roots)
	case s.Reps < 1:
		return p.errorAt(entry, prefix+"reps", "%d: want at least 1 repetition", s.Reps)
	case s.Warmup < 0:
		return p.errorAt(entry, prefix+"warmup", "%d: must not be negative", s.Warmup)
	case len(s.Impls) == 0:
		return p.errorAt(entry, prefix+"impls", "no implementation listed (all selects every one)")
	case len(s.Algorithms) == 0:
		return p.errorAt(entry, prefix+"algorithms", "no algorithm listed (want %s)", strings.Join(Algorithms, ", "))
	case s.Iterations < 1:
		return p.errorAt(entry, prefix+"iterations", "%d: want at least 1 PageRank iteration", s.Iterations)
	}
	for i, a := range s.Algorithms {
		if !slices.Contains(Algorithms, a) {
			return p.errorAt(entry, fmt.Sprintf("%salgorithms[%d]", prefix, i), "%q: want one of %s", a, strings.Join(Algorithms, ", "))
		}
		if slices.Contains(s.Algorithms[:i], a) {
			return p.errorAt(entry, fmt.Sprintf("%salgorithms[%d]", prefix, i), "%q is listed twice", a)
		}
		if _, err := SelectImpls(s.Impls, universe(a)); err != nil {
			if len(s.Algorithms) > 1 || a != AlgorithmBFS {
				err = fmt.Errorf("%s: %w", a, err)
			}
			return p.errorAt(entry, prefix+"impls", "%v", err)
		}
	}
	return nil
}

// spec decodes graphs[i].gen on top of gen.DefaultSpec, checks that every
// field it sets is one its kind reads, and validates it.
func (p *corpusParser) spec(i int) (gen.Spec, error) {
	var node *yaml.Node
	for _, k := range p.keys {
		if k.entry == i && k.path == "gen" {
			node = k.value
		}
	}
	spec := gen.DefaultSpec
	if node == nil || node.Kind != yaml.MappingNode {
		return spec, p.errorAt(i, "gen", "want a mapping such as {kind: rmat, scale: 12}")
	}
	if err := node.Decode(&spec); err != nil {
		return spec, p.yamlError(err)
	}
	if spec.Kind == "" {
		return spec, p.errorAt(i, "gen", "kind: a kind is required (one of %s)", strings.Join(gen.Kinds(), ", "))
	}
	if _, err := spec.Generator(); err != nil {
		var se *gen.SpecError
		if errors.As(err, &se) {
			field := "gen." + se.Field
			if se.Field == "a+b+c" || se.Field == "rows·cols" {
				field = "gen"
				se.Err = fmt.Errorf("%s: %w", se.Field, se.Err)
			}
			return spec, p.errorAt(i, field, "%v", se.Err)
		}
		return spec, p.errorAt(i, "gen", "%v", err)
	}
	reads := spec.Fields()
	for j := 0; j+1 < len(node.Content); j += 2 {
		key := node.Content[j].Value
		if key != "kind" && !slices.Contains(reads, key) {
			what := spec.Kind
			if spec.Kind == "config" {
				what = "config with dist " + spec.Dist
			}
			return spec, p.errorAt(i, "gen."+key, "does not apply to %s (its fields: %s)", what, strings.Join(reads, ", "))
		}
	}
	return spec, nil
}
