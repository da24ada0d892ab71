package la

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// TestKernelsMatchCUDA keeps kernelPrefixes true to the CUDA sources: the
// kernels it names are exactly the __global__ functions of la_kernels.cuh,
// and its implementations exactly la_host.h's table, so a profile split by
// kernel names cannot silently drift from the runner.
func TestKernelsMatchCUDA(t *testing.T) {
	src, err := os.ReadFile("../../kernels/cuda/la_kernels.cuh")
	if err != nil {
		t.Fatal(err)
	}
	var cuda []string
	for _, m := range regexp.MustCompile(`__global__ void (k_la_\w+)\(`).FindAllSubmatch(src, -1) {
		cuda = append(cuda, string(m[1]))
	}
	var goNames []string
	for _, ks := range kernelPrefixes {
		for _, k := range ks {
			if !slices.Contains(goNames, k) {
				goNames = append(goNames, k)
			}
		}
	}
	sort.Strings(cuda)
	sort.Strings(goNames)
	if !slices.Equal(cuda, goNames) {
		t.Errorf("la_kernels.cuh defines %v, kernelPrefixes names %v", cuda, goNames)
	}
	host, err := os.ReadFile("../../kernels/cuda/la_host.h")
	if err != nil {
		t.Fatal(err)
	}
	var impls []string
	for _, m := range regexp.MustCompile(`\{"([a-z0-9-]+)", "(bfs|pagerank|sssp)"`).FindAllSubmatch(host, -1) {
		impls = append(impls, string(m[1]))
	}
	var keys []string
	for k := range kernelPrefixes {
		keys = append(keys, k)
	}
	sort.Strings(impls)
	sort.Strings(keys)
	if !slices.Equal(impls, keys) {
		t.Errorf("la_host.h has implementations %v, kernelPrefixes %v", impls, keys)
	}
}

// TestScriptUsesMetrics: kernels/measure-la.sh takes its metric list from
// "graphperf la metrics --list" (Metrics), not a copy.
func TestScriptUsesMetrics(t *testing.T) {
	b, err := os.ReadFile("../../kernels/measure-la.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `la metrics --list`) {
		t.Error("measure-la.sh does not read its metrics from graphperf la metrics --list")
	}
}

// TestCorpus: kernels/corpus/h100-la.yaml parses, holds at least the 40
// datasets issue 19 asks for, and its sweep graphs carry coordinates that
// ParseSweepName reads: 18 of tables 10-11 and 18 of appendix B.1.
func TestCorpus(t *testing.T) {
	c, err := kernels.LoadCorpus("../../kernels/corpus/h100-la.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Graphs) < 40 {
		t.Errorf("%d graphs, want at least 40", len(c.Graphs))
	}
	count := map[string]int{}
	files := 0
	for _, g := range c.Graphs {
		if g.File != "" {
			files++
		}
		if !strings.HasPrefix(g.Name, "la-") {
			continue
		}
		sw, fam, d, _, _, ok := ParseSweepName(g.Name)
		if !ok {
			t.Errorf("%s: not a sweep name", g.Name)
			continue
		}
		count[sw+"-"+fam]++
		if fam == "ws" && g.Gen != nil && float64(g.Gen.K) != d {
			t.Errorf("%s: lattice degree %d, density %v in the name", g.Name, g.Gen.K, d)
		}
	}
	if count["t10-ws"] != 18 || count["b1-ws"] != 9 || count["b1-rmat"] != 9 || files != 5 {
		t.Errorf("sweep graphs %v, file graphs %d", count, files)
	}
}
