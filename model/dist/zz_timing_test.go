package dist

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/props"
)

func TestZZTiming(t *testing.T) {
	s := os.Getenv("DIST_SCALE")
	if s == "" {
		t.Skip()
	}
	scale, _ := strconv.Atoi(s)
	r := gen.Graph500
	r.Scale, r.EdgeFactor = scale, 16
	t0 := time.Now()
	g, err := r.BuildCSR(1, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	root := props.MaxDegreeRoot(g)
	vols, err := Traverse(g, root, []int{1, 2, 4, 8, 16, 32, 64})
	if err != nil {
		t.Fatal(err)
	}
	t2 := time.Now()
	t.Logf("scale %d: edges %d build %v traverse %v levels %d", scale, g.NumEdges(), t1.Sub(t0), t2.Sub(t1), len(vols[0].Levels))
	for _, v := range vols {
		l := v.Levels[2]
		t.Logf("P=%d level3 proc0 NLFS %d SU %d", v.Procs, l.Procs[0].EdgesScanned, l.Procs[0].NLFSUnique)
	}
}
