package plot

import (
	"fmt"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// DegreeFigures draws "graph gen"'s figure (seed 004 figures 5.1-5.3): the
// out-degree distribution of g, a graph of the generator kind, against the
// generator's target distribution, log-log for a power law. Without a
// target (kinds other than config) it draws the degrees alone, log-log.
// Its cost is linear in g's vertices; it fails as DegreeDistribution does.
func DegreeFigures(kind string, g *graph.CSR, target gen.Distribution) ([]Named, error) {
	degs := g.OutDegrees()
	ds := make([]int, len(degs))
	for i, d := range degs {
		ds[i] = int(d)
	}
	var pmf func(int) float64
	name, logLog, file, title := "", true, "degrees-"+kind, fmt.Sprintf("%s graph, %d vertices", kind, g.NumVertices())
	if target != nil {
		pmf = func(k int) float64 { return gen.PMF(target, k) }
		name = "target " + target.String()
		dist := gen.Family(target)
		logLog = dist == "powerlaw"
		file += "-" + table.Slug(dist)
		title = fmt.Sprintf("%s degrees, %d vertices", dist, g.NumVertices())
	}
	p, err := DegreeDistribution(title, ds, pmf, name, logLog)
	if err != nil {
		return nil, err
	}
	return []Named{{Name: file, Title: "Generated out-degree distribution against its target", Figure: p, W: StdW, H: StdH}}, nil
}
