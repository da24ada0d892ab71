package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runCLI runs the command as main would and returns stdout and stderr, with
// main's "graphperf: " error line appended to stderr.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(&stdout, &stderr, args)
	if err != nil {
		stderr.WriteString("graphperf: " + err.Error() + "\n")
	}
	return stdout.String(), stderr.String(), err
}

// TestGolden checks the output of the graph commands against testdata/*.stdout
// and *.stderr; run with -update to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"stats", []string{"graph", "stats", "testdata/fig2.txt"}, false},
		{"stats-json", []string{"graph", "stats", "--json", "testdata/fig2.txt"}, false},
		{"stats-csv-flag-after", []string{"graph", "stats", "testdata/fig2.txt", "--csv"}, false},
		{"stats-undirected", []string{"graph", "stats", "--undirected", "testdata/fig2.txt"}, false},
		{"levels", []string{"graph", "levels", "testdata/fig2.txt", "--root", "0"}, false},
		{"levels-json", []string{"graph", "levels", "--root", "0", "--json", "testdata/fig2.txt"}, false},
		{"roots-max", []string{"graph", "roots", "--max", "testdata/fig2.txt"}, false},
		{"bad-line", []string{"graph", "stats", "testdata/bad.txt"}, true},
		{"missing-file", []string{"graph", "stats", "testdata/nonexistent.txt"}, true},
		{"bad-flag", []string{"graph", "stats", "--bogus", "testdata/fig2.txt"}, true},
		{"bad-root", []string{"graph", "levels", "--root", "99", "testdata/fig2.txt"}, true},
		{"json-and-csv", []string{"graph", "stats", "--json", "--csv", "testdata/fig2.txt"}, true},
		{"gen-wrong-flag", []string{"graph", "gen", "ws", "--scale", "3", "-o", "x.gpg"}, true},
		{"gen-unknown-kind", []string{"graph", "gen", "lattice", "-o", "x.gpg"}, true},
		{"gen-holmekim-negative-n", []string{"graph", "gen", "holmekim", "--n", "-5", "-o", "x.gpg"}, true},
		{"gen-holmekim-bad-triad", []string{"graph", "gen", "holmekim", "--triad", "1.5", "-o", "x.gpg"}, true},
		{"gen-forestfire-bad-fwd", []string{"graph", "gen", "forestfire", "--fwd", "1", "-o", "x.gpg"}, true},
		{"gen-sbm-bad-mix", []string{"graph", "gen", "sbm", "--mix", "-0.1", "-o", "x.gpg"}, true},
		{"unknown-group", []string{"grpah", "stats"}, true},
		// Issue 33 item 5: a mistyped flag or verb names the nearest ones,
		// on stderr, with no help text on stdout.
		{"mistyped-flag", []string{"graph", "stats", "--jsn", "testdata/fig2.txt"}, true},
		{"mistyped-verb", []string{"graph", "stat", "testdata/fig2.txt"}, true},
		{"bad-flag-value", []string{"graph", "levels", "--root", "x", "testdata/fig2.txt"}, true},
		{"help", []string{"help"}, false},
		{"graph-help", []string{"graph"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
			golden(t, tt.name+".stdout", stdout)
			golden(t, tt.name+".stderr", stderr)
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestStatsJSONKeys checks the keys the issue promises in "graph stats --json".
func TestStatsJSONKeys(t *testing.T) {
	stdout, _, err := runCLI(t, "graph", "stats", "--json", "testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("not one JSON object: %v", err)
	}
	for _, k := range []string{"vertices", "edges", "directed", "abs_degree", "in_degree", "out_degree"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	// seed 000 figure 2 has 6 vertices and 6 edges.
	if m["vertices"] != 6.0 || m["edges"] != 6.0 || m["directed"] != true {
		t.Errorf("vertices, edges, directed = %v, %v, %v; want 6, 6, true", m["vertices"], m["edges"], m["directed"])
	}
}

// TestLevelsJSONLines checks one JSON object per level with the promised keys.
func TestLevelsJSONLines(t *testing.T) {
	stdout, _, err := runCLI(t, "graph", "levels", "--json", "--root", "0", "testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	// From A: {A}, {B, E}, {C, D, F} (seed 000 §3.2).
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 levels:\n%s", len(lines), stdout)
	}
	wantFrontier := []float64{1, 2, 3}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		for _, k := range []string{"level", "frontier", "discovered", "discovered_total", "edges_frontier", "edges_unexplored"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d: key %q missing", i+1, k)
			}
		}
		if m["level"] != float64(i) || m["frontier"] != wantFrontier[i] {
			t.Errorf("line %d: level %v frontier %v, want %d %v", i+1, m["level"], m["frontier"], i, wantFrontier[i])
		}
	}
}

// TestGenConvertRoundTrip generates each family small, converts to text and
// back, and checks the graph survives and bad output names are refused
// without leaving files behind.
func TestGenConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"rmat", "--scale", "10", "--edge-factor", "8"},
		{"kronecker", "--scale", "10", "--edge-factor", "8"},
		{"er", "--n", "1000", "--m", "5000"},
		{"ws", "--n", "1000", "--k", "6", "--p", "0.2"},
		{"ba", "--n", "1000", "--attach", "3"},
		{"road", "--rows", "30", "--cols", "30"},
		{"config", "--n", "2000", "--dist", "uniform", "--min", "1", "--max", "20"},
	}
	for _, c := range cases {
		gpg := filepath.Join(dir, c[0]+".gpg")
		args := append([]string{"graph", "gen"}, c...)
		if _, stderr, err := runCLI(t, append(args, "--seed", "3", "-o", gpg)...); err != nil {
			t.Fatalf("%v: %v\n%s", c, err, stderr)
		}
		g1, _, err := graph.LoadGPG(gpg)
		if err != nil {
			t.Fatal(err)
		}
		txt := filepath.Join(dir, c[0]+".txt.gz")
		if _, stderr, err := runCLI(t, "graph", "convert", gpg, "-o", txt); err != nil {
			t.Fatalf("convert %v: %v\n%s", c, err, stderr)
		}
		back := filepath.Join(dir, c[0]+"-back.gpg")
		args = []string{"graph", "convert", txt, "-o", back}
		if !g1.Directed {
			args = append(args, "--undirected")
		}
		if _, stderr, err := runCLI(t, args...); err != nil {
			t.Fatalf("convert back %v: %v\n%s", c, err, stderr)
		}
		g2, _, err := graph.LoadGPG(back)
		if err != nil {
			t.Fatal(err)
		}
		if g1.NumVertices() != g2.NumVertices() || g1.NumEdges() != g2.NumEdges() || g1.Directed != g2.Directed {
			t.Errorf("%s: round trip %d/%d/%v -> %d/%d/%v", c[0], g1.NumVertices(), g1.NumEdges(), g1.Directed,
				g2.NumVertices(), g2.NumEdges(), g2.Directed)
		}
	}
	if _, _, err := runCLI(t, "graph", "convert", "testdata/fig2.txt", "-o", filepath.Join(dir, "x.bin")); err == nil {
		t.Error("unknown output extension accepted")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
