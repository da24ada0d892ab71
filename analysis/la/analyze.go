package la

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

// Embedded names the embedded graphperf-la measurements
// (kernels/measured/h100/la) as a source: "embedded:la".
const Embedded = measured.Prefix + "la"

// ParseSources turns source names into results directories: each name one
// or more comma-separated directories, "embedded:la" (or "embedded:PATH"
// of the H100 dataset) the embedded ones, no name at all the embedded
// measurements (Embedded).
func ParseSources(args []string) ([]Source, error) {
	var names []string
	for _, a := range args {
		for _, s := range strings.Split(a, ",") {
			if s = strings.TrimSpace(s); s != "" {
				names = append(names, s)
			}
		}
	}
	if len(names) == 0 {
		names = []string{Embedded}
	}
	var out []Source
	for _, n := range names {
		rel, ok := strings.CutPrefix(n, measured.Prefix)
		if !ok {
			out = append(out, DirSource(n))
			continue
		}
		rel = strings.TrimPrefix(rel, measured.Name+"/")
		sub, err := fs.Sub(measured.FS(), rel)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if _, err := fs.Stat(sub, "."); err != nil {
			return nil, fmt.Errorf("%s: %w", n, measured.ErrNotEmbedded)
		}
		out = append(out, Source{Name: n, FS: sub})
	}
	return out, nil
}

// VertexCentricFS is the graphperf-bfs results directory name names: the
// embedded H100 BFS dataset for "embedded" (or "embedded:h100"), nil for
// "none" or "", else the directory on disk.
func VertexCentricFS(name string) (fs.FS, error) {
	switch name {
	case "none", "":
		return nil, nil
	case "embedded", measured.Prefix + measured.Name:
		return measured.FS(), nil
	}
	if _, err := os.Stat(name); err != nil {
		return nil, err
	}
	return os.DirFS(name), nil
}

// Analyze is "la analyze": LoadSources of srcs against m's measured
// roofline ceilings (roofline.ForMachine, Measured) and m's SM count,
// then, with vertexCentric (graphperf-bfs results, VertexCentricFS; nil
// for none), LinAlg BFS compared with the vertex-centric BFS on the same
// graphs (CompareVertexCentric).
func Analyze(srcs []Source, m *machine.Machine, vertexCentric fs.FS) (*Result, error) {
	roof, err := roofline.ForMachine(m, &roofline.Options{Measured: true})
	if err != nil {
		return nil, err
	}
	res, err := LoadSources(srcs, roof, m.SMs)
	if err != nil {
		return nil, err
	}
	if vertexCentric != nil {
		vc, err := ReadVertexCentric(vertexCentric, res.TimedGraphs())
		if err != nil {
			return nil, err
		}
		res.CompareVertexCentric(vc)
	}
	return res, nil
}

// Note is the validation count as one line: the pairs verified, the
// mismatches, the pairs not timed and the verified ncu passes.
func (v Validation) Note() string {
	s := fmt.Sprintf("validation: %d of %d (implementation, dataset) pairs verified against the CPU references (%d datasets x %d implementations; %d of %d timed runs)",
		v.PairsVerified, v.Pairs, v.Datasets, len(v.Implementations), v.RunsVerified, v.Runs)
	if len(v.Failed) > 0 {
		s += "; mismatches: " + strings.Join(v.Failed, ", ")
	}
	if len(v.Missing) > 0 {
		s += fmt.Sprintf("; %d pairs not timed", len(v.Missing))
	}
	if v.ProfiledRuns > 0 {
		s += fmt.Sprintf("; ncu passes: %d of %d runs verified", v.ProfiledVerified, v.ProfiledRuns)
	}
	return s
}
