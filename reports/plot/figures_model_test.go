package plot

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/model/dist"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

func lookupMachine(t *testing.T, name string) *machine.Machine {
	t.Helper()
	m, err := machine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func buildSource(t *testing.T, spec string) (*graph.CSR, gen.Source) {
	t.Helper()
	src, err := gen.ParseSource(spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := src.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	return g, src
}

func TestServiceCurveFigures(t *testing.T) {
	figs, err := ServiceCurveFigures(lookupMachine(t, "h100"))
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "service-curves-h100")
	// A CPU has no service curves: no figure, no error.
	figs, err = ServiceCurveFigures(lookupMachine(t, "westmere"))
	if err != nil || len(figs) != 0 {
		t.Errorf("westmere: %d figures, %v; want none", len(figs), err)
	}
	bad := &machine.Machine{Name: "x", ServiceCurves: []machine.ServiceCurve{{Class: "l2_hit"}}}
	if _, err := ServiceCurveFigures(bad); !errors.Is(err, ErrNoData) {
		t.Errorf("a curve without points: %v, want ErrNoData", err)
	}
}

func TestRooflineFigures(t *testing.T) {
	m := lookupMachine(t, "h100")
	r := roofFor(t, "h100")
	figs, err := RooflineFigures(m, r, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "roofline-h100")
	var analyses []roofline.Analysis
	for _, k := range roofLevelKernels(t) {
		a, err := r.Analyze(k)
		if err != nil {
			t.Fatal(err)
		}
		analyses = append(analyses, a)
	}
	figs, err = RooflineFigures(m, r, analyses, "rmat-s18-e8")
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "roofline-h100-rmat-s18-e8")
	if _, err := RooflineFigures(m, nil, nil, ""); err == nil {
		t.Error("no roofline drew a figure")
	}
}

func TestDistFigures(t *testing.T) {
	g, _ := buildSource(t, "kronecker:scale=9")
	_, v, err := dist.Predict(g, 0, 4, dist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := DistFigures(v, 4)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "dist-bytes")
	// One process sends nothing: no figure.
	_, v1, err := dist.Predict(g, 0, 1, dist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if figs, err := DistFigures(v1, 4); err != nil || len(figs) != 0 {
		t.Errorf("one process: %d figures, %v; want none", len(figs), err)
	}
}

func TestDegreeFigures(t *testing.T) {
	g, src := buildSource(t, "config:n=2000,dist=powerlaw,alpha=2.1,min=2,max=100")
	figs, err := DegreeFigures("config", g, src.Spec.Target())
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "degrees-config-powerlaw")
	g, src = buildSource(t, "rmat:scale=8")
	if src.Spec.Target() != nil {
		t.Fatal("rmat has a target")
	}
	figs, err = DegreeFigures("rmat", g, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "degrees-rmat")
	if _, err := DegreeFigures("er", &graph.CSR{}, nil); !errors.Is(err, ErrNoData) {
		t.Errorf("no vertices: %v, want ErrNoData", err)
	}
}
