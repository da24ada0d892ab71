package dist

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// PredictionsFormat tags the predictions file (WritePredictions).
const PredictionsFormat = "graphperf-dist-predictions/1"

// predictionsHeader is the CSV header of a predictions file.
var predictionsHeader = []string{"scale", "procs", "level", "src", "dst", "raw", "unique", "bytes_su"}

// PredictedGraph is one graph of a predictions file: a "# graph" comment.
type PredictedGraph struct {
	Scale     int
	Graph     string // the gen.Source
	Vertices  int64
	Edges     int64
	Root      uint32
	DepthHash string
	Levels    int
}

// PredictedPair is one row: at level (seed numbering), src sends dst raw
// vertices without sort-unique, unique with it, bytes_su = IDBytes·unique.
type PredictedPair struct {
	Scale, Procs, Level, Src, Dst int
	Raw, Unique, BytesSU          int64
}

// WritePredictions writes the exchange the CUDA BFS will make on each run's
// graph, for each process count, as CSV with '#' comment lines: first the
// format, the id size and the rules, then one "# graph" line per run, then
// one row per (scale, procs, level, src ≠ dst). Rows are in that order,
// so the file is the same for the same runs.
func WritePredictions(w io.Writer, runs []*Run, idBytes int) error {
	fmt.Fprintf(w, "# %s\n", PredictionsFormat)
	fmt.Fprintf(w, "# 1D-partitioned BFS of seed 003: owner(v) = v mod procs; level 1 expands the root; raw = NLFS entries of src owned by dst,\n")
	fmt.Fprintf(w, "# unique = after sort-unique; bytes_su = %d bytes per vertex id x unique (kernels/cuda/dist_bfs.cu sends uint32).\n", idBytes)
	fmt.Fprintf(w, "# Graphs: graphperf graph gen kronecker --scale S --seed 1 (self-loops and repeated edges dropped); root: first of\n")
	fmt.Fprintf(w, "# props.RandomRoots(g, 1, seed 1) unless the graph line says otherwise. Written by graphperf model dist predict (or table --predictions).\n")
	for _, r := range runs {
		v := r.Volumes[0]
		fmt.Fprintf(w, "# graph scale=%d source=%s vertices=%d edges=%d root=%d depth_hash=%016x levels=%d\n",
			r.Scale, r.Graph, r.Vertices, r.Edges, r.Root, v.DepthHash, len(v.Levels))
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(predictionsHeader); err != nil {
		return err
	}
	for _, r := range runs {
		for _, v := range r.Volumes {
			for _, l := range v.Levels {
				for p := range v.Procs {
					for q := range v.Procs {
						if p == q {
							continue
						}
						rec := []string{itoa(r.Scale), itoa(v.Procs), itoa(l.Level), itoa(p), itoa(q),
							table.Int(l.Raw[p][q]), table.Int(l.Unique[p][q]), table.Int(int64(idBytes) * l.Unique[p][q])}
						if err := cw.Write(rec); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func itoa(x int) string { return strconv.Itoa(x) }

// ReadPredictions reads a predictions file. Errors name the line.
func ReadPredictions(r io.Reader) ([]PredictedGraph, []PredictedPair, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	var graphs []PredictedGraph
	var body strings.Builder
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "# "+PredictionsFormat {
		return nil, nil, fmt.Errorf("line 1: want %q", "# "+PredictionsFormat)
	}
	for i, line := range lines {
		if rest, ok := strings.CutPrefix(line, "# graph "); ok {
			g, err := parseGraphLine(rest)
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			graphs = append(graphs, g)
		}
		if strings.HasPrefix(line, "#") {
			body.WriteString("\n") // keep the line numbers
			continue
		}
		body.WriteString(line + "\n")
	}
	cr := csv.NewReader(strings.NewReader(body.String()))
	cr.FieldsPerRecord = len(predictionsHeader)
	var pairs []PredictedPair
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		line, _ := cr.FieldPos(0)
		if first {
			if strings.Join(rec, ",") != strings.Join(predictionsHeader, ",") {
				return nil, nil, fmt.Errorf("line %d: header %q, want %q", line, strings.Join(rec, ","), strings.Join(predictionsHeader, ","))
			}
			continue
		}
		var x [8]int64
		for j, f := range rec {
			if x[j], err = strconv.ParseInt(f, 10, 64); err != nil || x[j] < 0 {
				return nil, nil, fmt.Errorf("line %d: %s = %q: want a non-negative integer", line, predictionsHeader[j], f)
			}
		}
		p := PredictedPair{int(x[0]), int(x[1]), int(x[2]), int(x[3]), int(x[4]), x[5], x[6], x[7]}
		if p.Src == p.Dst || p.Src >= p.Procs || p.Dst >= p.Procs || p.Unique > p.Raw || p.Level < 1 {
			return nil, nil, fmt.Errorf("line %d: %v is not a message of a %d-process BFS (src ≠ dst < procs, unique <= raw, level >= 1)", line, rec, p.Procs)
		}
		pairs = append(pairs, p)
	}
	return graphs, pairs, nil
}

func parseGraphLine(s string) (PredictedGraph, error) {
	var g PredictedGraph
	seen := map[string]bool{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return g, fmt.Errorf("graph line: %q is not key=value", f)
		}
		var err error
		switch k {
		case "scale":
			g.Scale, err = strconv.Atoi(v)
		case "source":
			g.Graph = v
		case "vertices":
			g.Vertices, err = strconv.ParseInt(v, 10, 64)
		case "edges":
			g.Edges, err = strconv.ParseInt(v, 10, 64)
		case "root":
			var r uint64
			r, err = strconv.ParseUint(v, 10, 32)
			g.Root = uint32(r)
		case "depth_hash":
			g.DepthHash = v
		case "levels":
			g.Levels, err = strconv.Atoi(v)
		default:
			return g, fmt.Errorf("graph line: unknown key %q", k)
		}
		if err != nil {
			return g, fmt.Errorf("graph line: %s = %q: %w", k, v, err)
		}
		seen[k] = true
	}
	for _, k := range []string{"scale", "source", "vertices", "edges", "root", "depth_hash", "levels"} {
		if !seen[k] {
			return g, fmt.Errorf("graph line: %s is missing", k)
		}
	}
	return g, nil
}
