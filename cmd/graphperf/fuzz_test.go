package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// fuzzCommands are the verbs FuzzCommandLine drives: those of graph, sim
// and model om that read a graph (graph gen and the store commands are
// left out: a fuzzed --scale 31 is a legitimate 2^31-vertex job).
var fuzzCommands = [][]string{
	{"graph", "stats"}, {"graph", "levels"}, {"graph", "roots"}, {"graph", "convert"}, {"graph", "reorder"},
	{"sim", "bfs"}, {"sim", "cpu"}, {"model", "om"},
}

// FuzzCommandLine runs a verb with fuzzed arguments on a fuzzed graph
// file: whatever the input, the command returns (an error is fine) and
// never panics. In args, G stands for the graph file and O for an output
// file in a temporary directory.
func FuzzCommandLine(f *testing.F) {
	fig2, err := os.ReadFile("testdata/fig2.txt")
	if err != nil {
		f.Fatal(err)
	}
	for i, seed := range []struct {
		args, graph string
	}{
		{"G", string(fig2)}, {"G --root max", ""}, {"G --root 0 --json", "# c\n"}, {"--max G", "0 0\n"},
		{"G -o O", "0 1\n1 2\n"}, {"G --order degree -o O", string(fig2)}, {"G --kernel vertex-push --root 1", string(fig2)},
		{"G --root random --seed 3", "0 1\n"}, {"--simulate G --root max", string(fig2)},
		{"--abstract G --round 2 --root 0", string(fig2)}, {"G --undirected --root 5", "5 6\n6 7\n"},
		{"G --compact --root 0", "7 1000000\n"}, {"G --format mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"},
		{"G --root 4294967295", "0 1\n"}, {"G -k 0", string(fig2)},
	} {
		f.Add(uint8(i), seed.args, seed.graph)
	}
	f.Fuzz(func(t *testing.T, which uint8, argLine, graphText string) {
		// Vertex ids of more than 6 digits are legitimate but slow (up to
		// 2^24 vertices load); they are not what this target is after.
		for _, w := range strings.FieldsFunc(graphText, func(r rune) bool { return !unicode.IsDigit(r) }) {
			if len(w) > 6 {
				t.Skip()
			}
		}
		if len(graphText) > 1<<12 || len(argLine) > 256 {
			t.Skip()
		}
		dir := t.TempDir()
		g := filepath.Join(dir, "g.txt")
		if err := os.WriteFile(g, []byte(graphText), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string(nil), fuzzCommands[int(which)%len(fuzzCommands)]...)
		for _, a := range strings.Fields(argLine) {
			// Numbers in flags stay small enough to run quickly.
			if len(a) > 12 {
				t.Skip()
			}
			switch a {
			case "G":
				a = g
			case "O":
				a = filepath.Join(dir, "out.gpg")
			}
			args = append(args, a)
		}
		var stdout, stderr bytes.Buffer
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("graphperf %s: panic: %v", strings.Join(args, " "), p)
			}
		}()
		run(&stdout, &stderr, args)
	})
}
