package kernels

import (
	"strings"
	"testing"
)

const mergeCorpus = `
defaults: {roots: 1, reps: 1}
graphs:
  - name: a
    gen: {kind: er, n: 64, m: 128}
  - name: b
    gen: {kind: er, n: 64, m: 256}
  - name: c
    gen: {kind: er, n: 64, m: 512}
`

// TestMeasuredAndMerge checks that --measured keeps the corpus graphs the
// manifest holds, in corpus order, and that a merge keeps the base's
// graphs not computed now, takes the fresh ones over the base's, puts
// them in corpus order and refuses a base graph the corpus lacks.
func TestMeasuredAndMerge(t *testing.T) {
	c, err := ParseCorpus([]byte(mergeCorpus), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	man := &Manifest{Graphs: []GraphRecord{{Name: "c"}, {Name: "a"}, {Name: "zzz"}}}
	var names []string
	for _, g := range c.Measured(man) {
		names = append(names, g.Name)
	}
	if strings.Join(names, ",") != "a,c" {
		t.Errorf("Measured: %v, want a,c", names)
	}

	p := func(name string, n int64) NamedGraphProps {
		return NamedGraphProps{Name: name, GraphPropsJSON: GraphPropsJSON{Vertices: n}}
	}
	base := &PropsDocument{Graphs: []NamedGraphProps{p("c", 1), p("a", 1)}}
	fresh := &PropsDocument{Graphs: []NamedGraphProps{p("b", 2), p("a", 2)}}
	got, err := MergeProps(c, base, fresh)
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, g := range got.Graphs {
		desc = append(desc, g.Name+"="+string(rune('0'+g.Vertices)))
	}
	if strings.Join(desc, ",") != "a=2,b=2,c=1" || got.Corpus != "m.yaml" || got.CorpusSHA256 != c.SHA256 {
		t.Errorf("MergeProps: %v (corpus %q), want a=2,b=2,c=1 labelled m.yaml", desc, got.Corpus)
	}
	if _, err := MergeProps(c, &PropsDocument{Graphs: []NamedGraphProps{p("x", 1)}}, fresh); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a base graph outside the corpus: %v", err)
	}

	lb := &LevelsDocument{Graphs: []NamedGraphLevels{{Name: "b", Vertices: 1}}}
	lf := &LevelsDocument{Graphs: []NamedGraphLevels{{Name: "c", Vertices: 2}}}
	lg, err := MergeLevels(c, lb, lf)
	if err != nil || len(lg.Graphs) != 2 || lg.Graphs[0].Name != "b" || lg.Graphs[1].Name != "c" {
		t.Errorf("MergeLevels: %+v, %v", lg, err)
	}
}
