package main

import "testing"

// TestSimGolden checks "sim bfs" on the seed 000 figure 2 graph against
// testdata/sim-*; run with -update to rewrite them.
func TestSimGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"sim-fig2", []string{"sim", "bfs", "testdata/fig2.txt", "--root", "0"}, false},
		{"sim-fig2-json", []string{"sim", "bfs", "--json", "--root", "0", "testdata/fig2.txt"}, false},
		{"sim-fig2-sectored-banked", []string{"sim", "bfs", "--l2", "sectored", "--dram", "banked", "--root", "0", "testdata/fig2.txt"}, false},
		{"sim-fig2-k40c", []string{"sim", "bfs", "--machine", "k40c", "--kernel", "vertex-push", "testdata/fig2.txt"}, false},
		{"sim-help", []string{"sim", "bfs", "-h"}, false},
		{"sim-bad-kernel", []string{"sim", "bfs", "--kernel", "bogus", "testdata/fig2.txt"}, true},
		{"sim-bad-l2", []string{"sim", "bfs", "--l2", "direct", "testdata/fig2.txt"}, true},
		{"sim-bad-dram", []string{"sim", "bfs", "--dram", "ddr", "testdata/fig2.txt"}, true},
		{"sim-bad-machine", []string{"sim", "bfs", "--machine", "a100", "testdata/fig2.txt"}, true},
		{"sim-k40c-sectored", []string{"sim", "bfs", "--machine", "k40c", "--l2", "sectored", "testdata/fig2.txt"}, true},
		{"sim-bad-root", []string{"sim", "bfs", "--root", "99", "testdata/fig2.txt"}, true},
		{"sim-fig2-csv", []string{"sim", "bfs", "--csv", "--root", "0", "testdata/fig2.txt"}, false},
		{"sim-fig2-cold-csv", []string{"sim", "bfs", "--cold", "--csv", "--root", "0", "testdata/fig2.txt"}, false},
		{"sim-fig2-warp4-unroll", []string{"sim", "bfs", "--kernel", "vertex-push-warp4", "--chunk", "2", "--unroll", "4", "--root", "0", "testdata/fig2.txt"}, false},
		{"sim-json-and-csv", []string{"sim", "bfs", "--json", "--csv", "testdata/fig2.txt"}, true},
		{"sim-bad-unroll", []string{"sim", "bfs", "--unroll", "0", "testdata/fig2.txt"}, true},
		{"sim-bad-chunk", []string{"sim", "bfs", "--kernel", "vertex-push-warp8", "--chunk", "-1", "testdata/fig2.txt"}, true},
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
