package la

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
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
