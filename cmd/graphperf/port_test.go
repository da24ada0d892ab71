package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/internal/porttest"
	"github.com/graphperf/graphperf/kernels/measured"
)

// portStore is the two-platform store of porttest and the synthetic
// GPU's machine file, built once (2 s).
var portStore = sync.OnceValues(func() ([2]string, error) {
	dir := filepath.Join(os.Getenv(measured.CacheEnv), "port") // TestMain's cache
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return [2]string{}, err
	}
	db, err := porttest.Build(dir)
	if err != nil {
		return [2]string{}, err
	}
	yaml, err := porttest.Machine(dir)
	return [2]string{db, yaml}, err
})

func portFixture(t *testing.T) (db, yaml string) {
	t.Helper()
	p, err := portStore()
	if err != nil {
		t.Fatal(err)
	}
	return p[0], p[1]
}

// TestPortGolden checks the port verbs' tables on the synthetic store.
func TestPortGolden(t *testing.T) {
	db, yaml := portFixture(t)
	machine := "--machine=h200=" + yaml
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"port-pp", []string{"port", "pp", "--db", db}, false},
		{"port-specialize-csv", []string{"port", "specialize", "--db", db, "--csv"}, false},
		{"port-one-platform", []string{"port", "pp", "--db", db, "--platforms", "h100"}, true},
		// "NVIDIA H200 (synthetic)" names h200: its embedded machine file gives B.
		{"port-speedup-embedded-machine", []string{"port", "speedup", "--db", db}, false},
		{"port-transfer", []string{"port", "transfer", "--db", db, machine, "--trees", "10", "--hold-out", "0.4"}, false},
		// The time model's loader refuses to mix two GPUs.
		{"predict-two-platforms", []string{"predict", "evaluate", "--db", db, "--baseline", "none"}, true},
		{"predict-platform-no-db", []string{"predict", "evaluate", "--platform", "h200", "--baseline", "none"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v\n%s", err, tt.wantErr, stderr)
			}
			stdout = strings.ReplaceAll(stdout, filepath.Dir(db), "DIR")
			stderr = strings.ReplaceAll(stderr, filepath.Dir(db), "DIR")
			golden(t, tt.name+".stdout", stdout)
			if tt.wantErr {
				golden(t, tt.name+".stderr", stderr)
			}
		})
	}
}

// TestPortSpeedupJSON checks the classes "port speedup --json" gives the
// synthetic GPU: the edge-list kinds at the bandwidth ratio, the rest at 1.
func TestPortSpeedupJSON(t *testing.T) {
	db, yaml := portFixture(t)
	stdout, _, err := runCLI(t, "port", "speedup", "--db", db, "--from", "h100", "--to", "synthetic", "--machine", "synthetic="+yaml, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res port.SpeedupResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.From != porttest.First || res.To != porttest.Second || len(res.Rows) != 59 {
		t.Fatalf("from %q to %q, %d rows", res.From, res.To, len(res.Rows))
	}
	for _, r := range res.Rows {
		class := port.OverheadBound
		if porttest.MemoryBound(r.Implementation) {
			class = port.MemoryBound
		}
		if r.Class != class {
			t.Errorf("%s: %s, want %s", r.Implementation, r.Class, class)
		}
	}
}
