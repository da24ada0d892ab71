package kernels

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/props"
)

// BFSLevelJSON is the stable JSON shape of cost.BFSLevel ("bench levels"):
// one level L of a BFS from one root. Vertices and Edges (n and m) are the
// graph's (NamedGraphLevels); FrontierRel and DiscoveredRel are not kept
// (Frontier/n and Discovered/n). The six-element arrays are indexed by k for
// W = 2^k lanes per vertex: W = 1, 2, 4, 8, 16, 32.
type BFSLevelJSON struct {
	Level                int      `json:"level"`
	Frontier             int64    `json:"frontier"`                // n_f, vertices at depth L
	Discovered           int64    `json:"discovered"`              // vertices at depth <= L (cumulative)
	EdgesFrontier        int64    `json:"edges_frontier"`          // m_f
	EdgesUnexplored      int64    `json:"edges_unexplored"`        // m_u
	Next                 int64    `json:"next"`                    // n', vertices at depth L+1
	EdgesNext            int64    `json:"edges_next"`              // m_f'
	InEdgesNext          int64    `json:"in_edges_next"`           // in-degree sum of the next frontier
	InEdgesUnvisited     int64    `json:"in_edges_unvisited"`      // m_u^in
	EdgesToNext          int64    `json:"edges_to_next"`           // e_fn
	PullScan             [6]int64 `json:"pull_scan"`               // S_W
	MaxFrontierDegree    int64    `json:"max_frontier_degree"`     // max out-degree at depth L
	MaxUnvisitedInDegree int64    `json:"max_unvisited_in_degree"` // max in-degree unvisited at the start
	PushRounds           [6]int64 `json:"push_rounds"`             // R^push_W
	PullRounds           [6]int64 `json:"pull_rounds"`             // R^pull_W
}

// NewBFSLevelJSON returns the JSON shape of l.
func NewBFSLevelJSON(l cost.BFSLevel) BFSLevelJSON {
	return BFSLevelJSON{
		Level: l.Level.Level, Frontier: l.Frontier, Discovered: l.Discovered,
		EdgesFrontier: l.EdgesFrontier, EdgesUnexplored: l.EdgesUnexplored,
		Next: l.Next, EdgesNext: l.EdgesNext, InEdgesNext: l.InEdgesNext,
		InEdgesUnvisited: l.InEdgesUnvisited, EdgesToNext: l.EdgesToNext, PullScan: l.PullScan,
		MaxFrontierDegree: l.MaxFrontierDegree, MaxUnvisitedInDegree: l.MaxUnvisitedInDegree,
		PushRounds: l.PushRounds, PullRounds: l.PullRounds,
	}
}

// BFSLevel returns the cost.BFSLevel that j is the shape of, in a graph of
// n vertices and m stored edges; FrontierRel and DiscoveredRel are
// recomputed (0 when n is 0). NewBFSLevelJSON(j.BFSLevel(n, m)) == j.
func (j BFSLevelJSON) BFSLevel(n, m int64) cost.BFSLevel {
	l := cost.BFSLevel{
		Level: props.Level{
			Level: j.Level, Frontier: j.Frontier, Discovered: j.Discovered,
			EdgesFrontier: j.EdgesFrontier, EdgesUnexplored: j.EdgesUnexplored,
		},
		Vertices: n, Edges: m,
		Next: j.Next, EdgesNext: j.EdgesNext, InEdgesNext: j.InEdgesNext,
		InEdgesUnvisited: j.InEdgesUnvisited, EdgesToNext: j.EdgesToNext, PullScan: j.PullScan,
		MaxFrontierDegree: j.MaxFrontierDegree, MaxUnvisitedInDegree: j.MaxUnvisitedInDegree,
		PushRounds: j.PushRounds, PullRounds: j.PullRounds,
	}
	if n > 0 {
		l.FrontierRel = float64(j.Frontier) / float64(n)
		l.DiscoveredRel = float64(j.Discovered) / float64(n)
	}
	return l
}

// RootLevels is every level of the BFS from one root, level 0 to the
// root's eccentricity (the last discovers nothing), as cost.BFSLevels
// gives them.
type RootLevels struct {
	Root   uint32         `json:"root"`
	Levels []BFSLevelJSON `json:"levels"`
}

// LocalityJSON is the stable JSON shape of cost.Locality: the distinct
// 32-byte sectors per neighbour read of a warp's lockstep gathers, for W =
// 1, 2, 4, 8, 16, 32 lanes per vertex over the out-edges (push) and the
// in-edges (pull), and for chunks of 32 edges of the edge list in CSR and
// in reverse order.
type LocalityJSON struct {
	Push     [6]float64 `json:"push"`
	Pull     [6]float64 `json:"pull"`
	Edges    float64    `json:"edges"`
	RevEdges float64    `json:"rev_edges"`
}

// NamedGraphLevels is one graph of a LevelsDocument: n, m, its direction,
// the locality of its numbering (nil in files written before 2026-11-26)
// and its roots in the sweep's order.
type NamedGraphLevels struct {
	Name     string        `json:"name"`
	Vertices int64         `json:"vertices"`
	Edges    int64         `json:"edges"`
	Directed bool          `json:"directed"`
	Locality *LocalityJSON `json:"locality,omitempty"`
	Roots    []RootLevels  `json:"roots"`
}

// BFSLevels returns the levels from root as cost.BFSLevel values, and
// whether g has that root.
func (g *NamedGraphLevels) BFSLevels(root uint32) ([]cost.BFSLevel, bool) {
	for _, r := range g.Roots {
		if r.Root == root {
			out := make([]cost.BFSLevel, len(r.Levels))
			for i, l := range r.Levels {
				out[i] = l.BFSLevel(g.Vertices, g.Edges)
			}
			return out, true
		}
	}
	return nil, false
}

// LevelsName is the level properties file of a results directory, as
// "graphperf bench levels" writes it.
const LevelsName = "level-properties.json.gz"

// LevelsDocument is the per-level properties (cost.BFSLevels) of every
// measured root of every graph of a corpus, in corpus order ("bench
// levels").
type LevelsDocument struct {
	Corpus       string             `json:"corpus"`
	CorpusSHA256 string             `json:"corpus_sha256"`
	Graphs       []NamedGraphLevels `json:"graphs"`
}

// Graph returns the graph called name, and whether there is one.
func (d *LevelsDocument) Graph(name string) (*NamedGraphLevels, bool) {
	for i := range d.Graphs {
		if d.Graphs[i].Name == name {
			return &d.Graphs[i], true
		}
	}
	return nil, false
}

// Counts is the number of roots and of levels d holds, over all its
// graphs. Cost: O(graphs × roots).
func (d *LevelsDocument) Counts() (roots, levels int) {
	for _, g := range d.Graphs {
		roots += len(g.Roots)
		for _, r := range g.Roots {
			levels += len(r.Levels)
		}
	}
	return roots, levels
}

// CorpusLevels builds every graph of c as a sweep does (BuildGraph), one
// at a time, draws its roots as the sweep does (props.RandomRoots with the
// graph's root count and seed) and computes cost.BFSLevels from each,
// writing one progress line per graph to log. Each graph costs O(roots ·
// (n + m)) time and the graph's memory plus a reverse CSR.
//
// When man is not nil, each graph's BFS record must exist and hold the same
// n, m and roots. When resultsDir is not "", the runner's output for the
// graph (the manifest record's results file, or NAME.jsonl.gz without a
// manifest) must hold the same roots, and every level line the frontier
// (n_f) and discoveries (n') computed for its root and level: the levels
// described are the levels measured. Any mismatch is an error naming the
// graph, root and level.
func CorpusLevels(c *Corpus, graphsDir string, man *Manifest, resultsDir string, log io.Writer) (*LevelsDocument, error) {
	doc := &LevelsDocument{Corpus: c.Path, CorpusSHA256: c.SHA256, Graphs: []NamedGraphLevels{}}
	for i, g := range c.Graphs {
		t0 := time.Now()
		gl, err := graphLevels(g, graphsDir, man, resultsDir)
		if err != nil {
			return nil, fmt.Errorf("graphperf: levels: %s: %w", g.Name, err)
		}
		doc.Graphs = append(doc.Graphs, *gl)
		if log != nil {
			var nl int
			for _, r := range gl.Roots {
				nl += len(r.Levels)
			}
			checked := ""
			if resultsDir != "" {
				checked = ", frontiers match the runner's"
			}
			fmt.Fprintf(log, "[%d/%d] %s n=%d m=%d roots=%d levels=%d%s %.2fs\n",
				i+1, len(c.Graphs), g.Name, gl.Vertices, gl.Edges, len(gl.Roots), nl, checked, time.Since(t0).Seconds())
		}
	}
	return doc, nil
}

// graphLevels is CorpusLevels for one graph.
func graphLevels(g Graph, graphsDir string, man *Manifest, resultsDir string) (*NamedGraphLevels, error) {
	csr, err := BuildGraph(g, graphsDir)
	if err != nil {
		return nil, err
	}
	n, m := int64(csr.NumVertices()), csr.NumEdges()
	roots, err := props.RandomRoots(csr, g.Roots, g.Seed)
	if err != nil {
		return nil, err
	}
	results := g.Name + ".jsonl.gz"
	if man != nil {
		var rec *GraphRecord
		for i := range man.Graphs {
			if man.Graphs[i].Name == g.Name && cmpAlg(man.Graphs[i].Algorithm) == AlgorithmBFS {
				rec = &man.Graphs[i]
			}
		}
		switch {
		case rec == nil:
			return nil, fmt.Errorf("no BFS record in the manifest")
		case rec.N != n || rec.M != m:
			return nil, fmt.Errorf("built n=%d m=%d, the manifest says n=%d m=%d", n, m, rec.N, rec.M)
		case !slices.Equal(rec.Roots, roots):
			return nil, fmt.Errorf("roots %v drawn as the sweep draws them, the manifest says %v", roots, rec.Roots)
		}
		if rec.Results != "" {
			results = rec.Results
		}
	}
	loc := LocalityJSON(cost.NumberingLocality(csr, csr.Reverse()))
	gl := &NamedGraphLevels{Name: g.Name, Vertices: n, Edges: m, Directed: csr.Directed, Locality: &loc, Roots: make([]RootLevels, len(roots))}
	for i, root := range roots {
		levels := cost.BFSLevels(csr, root)
		rl := RootLevels{Root: root, Levels: make([]BFSLevelJSON, len(levels))}
		for L, l := range levels {
			rl.Levels[L] = NewBFSLevelJSON(l)
		}
		gl.Roots[i] = rl
	}
	if resultsDir != "" {
		if err := checkLevelsFile(filepath.Join(resultsDir, results), gl); err != nil {
			return nil, err
		}
	}
	return gl, nil
}

// checkLevelsFile is checkLevels on the results file at path.
func checkLevelsFile(path string, gl *NamedGraphLevels) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return checkLevels(f, fi.Size(), path, gl)
}

// checkLevels checks the runner's level lines in r, of size bytes
// (gzipped or not; path names it in errors), against gl: every level line
// of every implementation is from a root of gl, with n, m, the frontier
// and the discovered count (n') of that root and level, and every level of
// every root of gl has a line.
func checkLevels(r io.Reader, size int64, path string, gl *NamedGraphLevels) error {
	rd, err := NewFileReader(r, size, path)
	if err != nil {
		return err
	}
	byRoot := map[uint32]*RootLevels{}
	for i := range gl.Roots {
		byRoot[gl.Roots[i].Root] = &gl.Roots[i]
	}
	seen := map[uint32][]bool{}
	for rd.Next() {
		lv, ok := rd.Record().(*Level)
		if !ok || (lv.Algorithm != "" && lv.Algorithm != AlgorithmBFS) {
			continue
		}
		where := fmt.Sprintf("%s:%d: root %d level %d (%s)", path, rd.Line(), lv.Root, lv.Level, lv.Impl)
		if lv.N != gl.Vertices || lv.M != gl.Edges {
			return fmt.Errorf("%s: the runner's graph has n=%d m=%d, built n=%d m=%d", where, lv.N, lv.M, gl.Vertices, gl.Edges)
		}
		rl, ok := byRoot[lv.Root]
		switch {
		case !ok:
			return fmt.Errorf("%s: not a root of the sweep's (%v)", where, rootsOf(gl))
		case lv.Level < 0 || lv.Level >= len(rl.Levels):
			return fmt.Errorf("%s: the BFS from that root has levels 0 to %d", where, len(rl.Levels)-1)
		}
		want := &rl.Levels[lv.Level]
		if lv.Frontier != want.Frontier || lv.Discovered != want.Next {
			return fmt.Errorf("%s: the runner measured frontier %d discovering %d, computed %d discovering %d",
				where, lv.Frontier, lv.Discovered, want.Frontier, want.Next)
		}
		if seen[lv.Root] == nil {
			seen[lv.Root] = make([]bool, len(rl.Levels))
		}
		seen[lv.Root][lv.Level] = true
	}
	if err := rd.Err(); err != nil {
		return err
	}
	for _, rl := range gl.Roots {
		s := seen[rl.Root]
		if s == nil {
			return fmt.Errorf("%s: no level line from root %d", path, rl.Root)
		}
		if L := slices.Index(s, false); L >= 0 {
			return fmt.Errorf("%s: root %d level %d: no level line", path, rl.Root, L)
		}
	}
	return nil
}

func rootsOf(gl *NamedGraphLevels) []uint32 {
	out := make([]uint32, len(gl.Roots))
	for i, r := range gl.Roots {
		out[i] = r.Root
	}
	return out
}

// WriteLevelsFile writes doc to path as gzipped JSON (best compression),
// atomically: path is never left half written. Each level is one line, so
// the file reads and diffs line by line.
func WriteLevelsFile(path string, doc *LevelsDocument) error {
	return writeAtomic(path, func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
		if err != nil {
			return err
		}
		if err := encodeLevels(zw, doc); err != nil {
			return err
		}
		return zw.Close()
	})
}

// encodeLevels writes doc as JSON with one level per line.
func encodeLevels(w io.Writer, doc *LevelsDocument) error {
	bw := bufio.NewWriter(w)
	head, err := json.Marshal(struct {
		Corpus       string `json:"corpus"`
		CorpusSHA256 string `json:"corpus_sha256"`
	}{doc.Corpus, doc.CorpusSHA256})
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-1])
	bw.WriteString(",\n\"graphs\": [")
	for i, g := range doc.Graphs {
		if i > 0 {
			bw.WriteString(",")
		}
		gh, err := json.Marshal(struct {
			Name     string        `json:"name"`
			Vertices int64         `json:"vertices"`
			Edges    int64         `json:"edges"`
			Directed bool          `json:"directed"`
			Locality *LocalityJSON `json:"locality,omitempty"`
		}{g.Name, g.Vertices, g.Edges, g.Directed, g.Locality})
		if err != nil {
			return err
		}
		bw.WriteString("\n")
		bw.Write(gh[:len(gh)-1])
		bw.WriteString(", \"roots\": [")
		for j, r := range g.Roots {
			if j > 0 {
				bw.WriteString(",")
			}
			fmt.Fprintf(bw, "\n {\"root\": %d, \"levels\": [", r.Root)
			for k, l := range r.Levels {
				if k > 0 {
					bw.WriteString(",")
				}
				b, err := json.Marshal(l)
				if err != nil {
					return err
				}
				bw.WriteString("\n  ")
				bw.Write(b)
			}
			bw.WriteString("]}")
		}
		bw.WriteString("]}")
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// ReadLevelsFile reads a "bench levels" file (gzipped JSON, or plain JSON).
// Unknown keys are an error, so a file of another shape is not taken for
// one with zero levels.
func ReadLevelsFile(path string) (*LevelsDocument, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLevels(f, path)
}

// ReadLevels reads a "bench levels" document from r (gzipped or not); name
// is what errors call it.
func ReadLevels(r io.Reader, name string) (*LevelsDocument, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("graphperf: read levels: %s: %w", name, err)
		}
		defer zr.Close()
		in = zr
	}
	dec := json.NewDecoder(in)
	dec.DisallowUnknownFields()
	var doc LevelsDocument
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("graphperf: read levels: %s: %w", name, err)
	}
	if doc.Graphs == nil {
		return nil, fmt.Errorf("graphperf: read levels: %s: %w", name, errors.New("no \"graphs\" key"))
	}
	return &doc, nil
}
