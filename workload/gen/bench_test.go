package gen

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
)

// benchmarkRMAT generates a Graph500 graph and builds its CSR with default
// options (directed, self-loops and duplicates kept), the cost a user of
// `graphperf graph gen rmat` pays before writing the file.
func benchmarkRMAT(b *testing.B, scale int) {
	r := Graph500
	r.Scale, r.EdgeFactor = scale, 16 // Graph500 specification edgefactor
	var seed uint64
	var generate, build time.Duration
	for b.Loop() {
		seed++
		start := time.Now()
		el, err := r.Generate(seed, nil)
		if err != nil {
			b.Fatal(err)
		}
		built := time.Now()
		g, err := graph.Build(el, graph.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		generate += built.Sub(start)
		build += time.Since(built)
		if g.NumEdges() != r.NumEdges() {
			b.Fatalf("%d edges, want %d", g.NumEdges(), r.NumEdges())
		}
	}
	// The split says how much of the time is this package's.
	b.ReportMetric(generate.Seconds()/float64(b.N), "generate-s/op")
	b.ReportMetric(build.Seconds()/float64(b.N), "build-s/op")
	b.ReportMetric(float64(r.NumEdges())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
	if hwm, ok := peakRSS(); ok {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-RSS-MiB")
	}
}

// BenchmarkRMAT22 is the performance requirement: Graph500 scale 22, edge
// factor 16 (67,108,864 edges), generated and built in at most 15 s with a
// peak resident set of at most 3 GB on 2 cores. Run it alone, so that the
// peak-RSS-MiB metric (the process's high-water mark) is its own:
//
//	go test -run '^$' -bench RMAT22 -benchtime 1x ./workload/gen/
func BenchmarkRMAT22(b *testing.B) { benchmarkRMAT(b, 22) }

// BenchmarkRMAT16 is the small case: scale 16, 1M edges.
func BenchmarkRMAT16(b *testing.B) { benchmarkRMAT(b, 16) }

// BenchmarkRMATGenerate16 times the generator alone, without graph.Build.
func BenchmarkRMATGenerate16(b *testing.B) {
	r := Graph500
	r.Scale, r.EdgeFactor = 16, 16 // Graph500 specification edgefactor
	for b.Loop() {
		if _, err := r.Generate(1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.NumEdges())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
}

// peakRSS returns the process's peak resident set size in bytes, the VmHWM
// line of /proc/self/status (Linux only; ok is false elsewhere).
func peakRSS() (bytesRSS int64, ok bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) == 3 && string(fields[0]) == "VmHWM:" && string(fields[2]) == "kB" {
			kb, err := strconv.ParseInt(string(fields[1]), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// BenchmarkErdosRenyi generates G(n, m) with n = 2^20, m = 2^24 undirected.
func BenchmarkErdosRenyi(b *testing.B) {
	e := ErdosRenyi{N: 1 << 20, M: 1 << 24}
	for b.Loop() {
		if _, err := e.Generate(1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(e.M)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
}

// BenchmarkConfiguration generates the seed 004 figure 5.3 target (normal,
// mu 50, sigma 10) at 10^5 vertices, about 2.5M edges.
func BenchmarkConfiguration(b *testing.B) {
	c := Configuration{N: 100000, Degree: Normal{Mu: 50, Sigma: 10}}
	for b.Loop() {
		if _, err := c.Generate(1, nil); err != nil {
			b.Fatal(err)
		}
	}
}
