package main

import "testing"

// TestSimCPUGolden checks "sim cpu" on the seed 000 figure 2 graph against
// testdata/simcpu-*; run with -update to rewrite them.
func TestSimCPUGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"simcpu-fig2", []string{"sim", "cpu", "testdata/fig2.txt", "--root", "0"}, false},
		{"simcpu-fig2-json", []string{"sim", "cpu", "--json", "--root", "0", "testdata/fig2.txt"}, false},
		{"simcpu-fig2-max", []string{"sim", "cpu", "testdata/fig2.txt"}, false},
		{"simcpu-help", []string{"sim", "cpu", "-h"}, false},
		{"simcpu-fig2-csv", []string{"sim", "cpu", "--csv", "--root", "0", "testdata/fig2.txt"}, false},
		{"simcpu-json-and-csv", []string{"sim", "cpu", "--json", "--csv", "testdata/fig2.txt"}, true},
		{"simcpu-bad-root", []string{"sim", "cpu", "--root", "99", "testdata/fig2.txt"}, true},
		{"simcpu-no-graph", []string{"sim", "cpu"}, true},
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
