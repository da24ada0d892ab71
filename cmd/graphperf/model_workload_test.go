package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/cost"
)

// TestModelWorkloadGolden checks "model workload" against
// testdata/model_workload-*.stdout and *.stderr; run with -update to
// rewrite them. testdata/fig2.txt is seed 000's figure 2 graph; root 0 is A,
// whose levels are {A}, {B, E}, {C, D, F} (seed 000 §3.2).
func TestModelWorkloadGolden(t *testing.T) {
	const fig2 = "testdata/fig2.txt"
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"help", []string{"-h"}, false},
		{"bfs-fig2", []string{"--algo", "bfs", "--root", "0", fig2}, false},
		{"bfs-fig2-max-root", []string{"--algo", "bfs", "--kernel", "vertex-push", fig2}, false},
		{"bfs-fig2-abstract", []string{"--algo", "bfs", "--root", "0", "--model", "abstract", fig2}, false},
		{"bfs-fig2-push-json", []string{"--algo", "bfs", "--root", "0", "--kernel", "vertex-push", "--json", fig2}, false},
		{"bfs-fig2-dobfs-terms", []string{"--algo", "bfs", "--root", "0", "--kernel", "dobfs", "--terms", fig2}, false},
		{"bfs-fig2-undirected-queue-csv", []string{"--algo", "bfs", "--root", "0", "--undirected", "--kernel", "queue", "--csv", fig2}, false},
		{"bfs-fig2-plain", []string{"--algo", "bfs", "--root", "0", "--kernel", "edge-list/bulk", "--claim", "plain", fig2}, false},
		{"pagerank-fig2", []string{"--algo", "pagerank", fig2}, false},
		{"pagerank-fig2-abstract-json", []string{"--algo", "pagerank", "--model", "abstract", "--kernel", "vertex-pull", "--json", fig2}, false},
		{"pagerank-fig2-terms", []string{"--algo", "pagerank", "--kernel", "edge-list", "--terms", fig2}, false},
		{"no-algo", []string{fig2}, true},
		{"unknown-algo", []string{"--algo", "sssp", fig2}, true},
		{"bfs-unknown-kernel", []string{"--algo", "bfs", "--kernel", "vertex-push-warp3", fig2}, true},
		{"bfs-unknown-aggregation", []string{"--algo", "bfs", "--kernel", "queue/bulk", fig2}, true},
		{"pagerank-unknown-kernel", []string{"--algo", "pagerank", "--kernel", "topo", fig2}, true},
		{"unknown-model", []string{"--algo", "bfs", "--model", "ptx", fig2}, true},
		{"pagerank-root", []string{"--algo", "pagerank", "--root", "0", fig2}, true},
		{"terms-all", []string{"--algo", "bfs", "--terms", fig2}, true},
		{"bad-claim", []string{"--algo", "bfs", "--claim", "cax", fig2}, true},
		{"bad-root", []string{"--algo", "bfs", "--root", "6", fig2}, true},
		{"missing-graph", []string{"--algo", "bfs", "testdata/nonexistent.txt"}, true},
		{"no-graph", []string{"--algo", "bfs"}, true},
		{"json-and-csv", []string{"--algo", "pagerank", "--json", "--csv", fig2}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, append([]string{"model", "workload"}, tt.args...)...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
			golden(t, "model_workload-"+tt.name+".stdout", stdout)
			golden(t, "model_workload-"+tt.name+".stderr", stderr)
		})
	}
}

// TestModelWorkloadBFSJSON checks the JSON lines of every kernel on figure
// 2: one object per level and one total per kernel, the total the sum of
// the levels, low <= value <= high; and the abstract topo level 1 against
// seed 000 §3.2 (C_NF1 + C_ERL + C_EDL + C_NF2 = 6 + 2 + 4 + 4 reads, C_OP =
// 3 writes).
func TestModelWorkloadBFSJSON(t *testing.T) {
	for _, model := range []string{"concrete", "abstract"} {
		stdout, _, err := runCLI(t, "model", "workload", "--algo", "bfs", "--root", "0", "--kernel", "all", "--model", model, "--json", "testdata/fig2.txt")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if len(lines) != 59*4 { // 3 levels and a total per kernel
			t.Fatalf("%s: %d lines, want %d", model, len(lines), 59*4)
		}
		var sum cost.CostRow
		for i, l := range lines {
			var r cost.BFSRow
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			var keys map[string]any
			json.Unmarshal([]byte(l), &keys)
			for _, k := range []string{"algo", "kernel", "scope", "level", "reads", "writes", "atomics", "bytes", "low", "high", "warnings"} {
				if _, ok := keys[k]; !ok {
					t.Errorf("line %d: key %q missing", i+1, k)
				}
			}
			if r.Low.Reads > r.Reads || r.Reads > r.High.Reads || r.Low.Atomics > r.Atomics || r.Atomics > r.High.Atomics {
				t.Errorf("line %d: value outside [low, high]: %s", i+1, l)
			}
			if r.Scope == "level" {
				sum.Reads, sum.Writes, sum.Atomics, sum.Bytes = sum.Reads+r.Reads, sum.Writes+r.Writes, sum.Atomics+r.Atomics, sum.Bytes+r.Bytes
				if model == "abstract" && r.Kernel == "topo" && *r.Level == 1 && (r.Reads != 16 || r.Writes != 3) {
					t.Errorf("abstract topo level 1: %d reads, %d writes, want 16 and 3 (seed 000 §3.2)", r.Reads, r.Writes)
				}
				continue
			}
			if r.Level != nil || r.Reads != sum.Reads || r.Writes != sum.Writes || r.Atomics != sum.Atomics || r.Bytes != sum.Bytes {
				t.Errorf("%s %s total %+v, levels sum to %+v", model, r.Kernel, r.CostRow, sum)
			}
			sum = cost.CostRow{}
		}
	}
}

// TestModelWorkloadPageRankIteration checks that the iteration row is the
// launch rows of the update kernel and its consolidation added (seed 004
// §6.1.2.7): vertex pull on figure 2 is 48 + 12 reads, 6 + 12 writes, 0 +
// 1 atomics (⌈6/32⌉ warps).
func TestModelWorkloadPageRankIteration(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "workload", "--algo", "pagerank", "--kernel", "vertex-pull", "--json", "testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []cost.PageRankRow
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r cost.PageRankRow
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if len(rows) != 3 || rows[0].Kernel != "vertex-pull" || rows[1].Kernel != "consolidate" || rows[2].Scope != "iteration" {
		t.Fatalf("rows %+v, want vertex-pull and consolidate launches and an iteration", rows)
	}
	it := rows[2]
	if it.Reads != 60 || it.Writes != 18 || it.Atomics != 1 || it.Reads != rows[0].Reads+rows[1].Reads {
		t.Errorf("iteration %+v, want 60 reads, 18 writes, 1 atomic", it.CostRow)
	}
}
