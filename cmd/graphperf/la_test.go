package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLaAnalyzeEmbedded runs la analyze on the H100 measurements in the
// repository (kernels/measured/h100/la, embedded): every one of the 51
// datasets x 9 implementations verified (kernels/measured/h100/la/README.md),
// 18 graphs profiled, 7 of them with SSSP counters.
func TestLaAnalyzeEmbedded(t *testing.T) {
	stdout, stderr, err := runCLI(t, "la", "analyze", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var res struct {
		Validation struct {
			Datasets, Pairs, Runs int
			PairsVerified         int `json:"pairs_verified"`
			RunsVerified          int `json:"runs_verified"`
			Implementations       []string
		} `json:"validation"`
		Points   []struct{ Graph, Impl string } `json:"points"`
		Variants []struct{ Graph string }       `json:"sssp_variants"`
		Timing   []struct {
			Graph         string
			VertexCentric *struct{ Best string } `json:"vertex_centric_bfs"`
		} `json:"timing"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	v := res.Validation
	if v.Datasets != 51 || len(v.Implementations) != 9 || v.Pairs != 459 || v.PairsVerified != 459 || v.Runs != 699 || v.RunsVerified != 699 {
		t.Errorf("validation: %+v", v)
	}
	graphs := map[string]bool{}
	for _, p := range res.Points {
		graphs[p.Graph] = true
	}
	// kernels/measured/h100/la/README.md: BFS and PageRank counters on all
	// 51 graphs, SSSP on all but la-b1-ws-d4-p0.01 (its pass timed out).
	if len(graphs) != 51 || len(res.Variants) != 50 || len(res.Timing) != 51 {
		t.Errorf("%d profiled graphs, %d with SSSP variants, %d timed; want 51, 50, 51", len(graphs), len(res.Variants), len(res.Timing))
	}
	for _, v := range res.Variants {
		if v.Graph == "la-b1-ws-d4-p0.01" {
			t.Error("la-b1-ws-d4-p0.01 has SSSP variants, but its SSSP pass was cut")
		}
	}
	compared := 0
	for _, r := range res.Timing {
		if r.VertexCentric != nil {
			compared++
		}
	}
	// The embedded BFS dataset holds 10 of the graphs by name; er-s18-e16
	// and road-256x256 there are other graphs (other hashes).
	if compared != 8 || !strings.Contains(stderr, "road-256x256: the vertex-centric BFS dataset's graph of that name is another graph") {
		t.Errorf("%d graphs compared with the vertex-centric BFS, want 8\n%s", compared, stderr)
	}

	// The timing table, and its notes.
	stdout, stderr, err = runCLI(t, "la", "analyze", "--table", "timing", "--vertex-centric", "none")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"validation: 459 of 459 (implementation, dataset) pairs verified", "road-256x256", "faster than sssp-worklist on"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("timing table: no %q\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "LinAlg BFS (faster of push and pull) against") {
		t.Error("--vertex-centric none still compared")
	}
}

// TestLaAnalyzeDirs combines two directories, the timed runs of one call
// and the profile of another, as DIR arguments, and rejects the same
// profile twice.
func TestLaAnalyzeDirs(t *testing.T) {
	src := "../../kernels/measured/h100/la"
	timed, prof := t.TempDir(), t.TempDir()
	g := "la-t10-ws-d10-p1"
	for dst, files := range map[string][]string{
		timed: {"timed/" + g + ".la.jsonl.gz"},
		prof:  {"ncu/" + g + ".ncu.jsonl.gz", "ncu/" + g + ".csv.gz"},
	} {
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(dst, filepath.Dir(f)), 0o755)
			if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	stdout, stderr, err := runCLI(t, "la", "analyze", "--table", "variants", timed, prof)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// The variants' speedups need the timed runs, their IPC the profile.
	lines := strings.Split(stdout, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], g) || strings.Contains(lines[1], " - ") {
		t.Errorf("variants table:\n%s", stdout)
	}
	if _, stderr, err := runCLI(t, "la", "analyze", prof+","+prof); err == nil || !strings.Contains(stderr, "profiled twice") {
		t.Errorf("the same profile twice: %v\n%s", err, stderr)
	}
}
