package plot

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/model/dist"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

// ServiceCurveFigures draws "model machine show"'s figure (seed 000
// figure 6): m's service-time curves S(m) against memory-level
// parallelism. A machine without service curves (a CPU) has no figure: it
// returns none. Its cost is a few points per curve; it fails as
// ServiceCurves does.
func ServiceCurveFigures(m *machine.Machine) ([]Named, error) {
	if len(m.ServiceCurves) == 0 {
		return nil, nil
	}
	p, err := ServiceCurves(m)
	if err != nil {
		return nil, err
	}
	return []Named{{Name: "service-curves-" + table.Slug(m.Name), Title: m.Name + ": service time S(m) against memory-level parallelism",
		Figure: p, W: StdW, H: StdH}}, nil
}

// RooflineFigures draws "model roofline"'s figure (seed 001 figures 1 and
// 9-12): r, the instruction roofline of m, with each launch of analyses
// (the profiled launches; none without a profile) at every memory level
// (RooflinePoints, labelled tag). tag names the profile ("" without one)
// in the title and the file stem. Its cost is linear in the launches; it
// fails as InstructionRoofline does.
func RooflineFigures(m *machine.Machine, r *roofline.Instruction, analyses []roofline.Analysis, tag string) ([]Named, error) {
	var points []RooflinePoint
	for _, a := range analyses {
		points = append(points, RooflinePoints(tag, a)...)
	}
	title := m.Name + ": instruction roofline"
	if tag != "" {
		title += ", " + tag + " per level"
	}
	p, err := InstructionRoofline(title, r, points)
	if err != nil {
		return nil, err
	}
	return []Named{{Name: "roofline-" + table.Slug(m.Name+"-"+tag), Title: "Instruction roofline (warp instructions per 32-byte transaction); points are the profiled launches",
		Figure: p, W: 6 * vg.Inch, H: 4.5 * vg.Inch}}, nil
}

// DistFigures draws "model dist"'s figure (seed 003): the bytes sent per
// BFS level by the processes of v, each ID idBytes bytes, without
// (raw NLFS) and with sort-unique, as grouped bars, log scale. With one
// process, or when nothing crosses between processes, there is no figure:
// it returns none. Its cost is linear in v's levels; it fails as
// GroupedBars does.
func DistFigures(v *dist.Volumes, idBytes int) ([]Named, error) {
	levels, raw, unique, ok := dist.BytesSeries(v, idBytes)
	if !ok {
		return nil, nil
	}
	groups := make([]string, len(levels))
	for i, l := range levels {
		groups[i] = strconv.Itoa(l)
	}
	p, err := GroupedBars(fmt.Sprintf("bytes sent per level, %d processes", v.Procs), "bytes", groups,
		[]string{"raw NLFS", "sort-unique"}, [][]float64{raw, unique}, true)
	if err != nil {
		return nil, err
	}
	p.X.Label.Text = "level"
	return []Named{{Name: "dist-bytes", Title: "Bytes sent per BFS level", Figure: p, W: StdW, H: 3 * vg.Inch}}, nil
}
