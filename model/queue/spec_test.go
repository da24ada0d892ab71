package queue

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestParseSpecErrors checks that bad specs give errors naming the file,
// line and field.
func TestParseSpecErrors(t *testing.T) {
	tests := []struct {
		spec, want string
	}{
		{"centers:\n  - {name: a, demand: 1}\n", "s.yaml: population: missing"},
		{"population: 0\ncenters:\n  - {name: a, demand: 1}\n", `s.yaml:1: population: want a positive integer, got "0"`},
		{"population: 2.5\ncenters:\n  - {name: a, demand: 1}\n", `s.yaml:1: population: want a positive integer, got "2.5"`},
		{"population: 200000\ncenters:\n  - {name: a, demand: 1}\n", "s.yaml:1: population: 200000 is too many jobs for exact MVA (at most 100000); use method: schweitzer"},
		{"population: 2\n", "s.yaml: centers: missing: want a list of centers, each {name, demand} or {name, visits, service_time}"},
		{"population: 2\ncenters: 5\n", "s.yaml:2: centers: want a list, got a scalar"},
		{"population: 2\nmethod: approximate\ncenters:\n  - {name: a, demand: 1}\n", `s.yaml:2: method: want exact or schweitzer, got "approximate"`},
		{"population: 2\ncenters:\n  - {name: a, demand: -1}\n", `s.yaml:3: centers[0].demand: want a non-negative number, got "-1"`},
		{"population: 2\ncenters:\n  - {demand: 1}\n", "s.yaml:3: centers[0].name: missing: every center needs a name"},
		{"population: 2\ncenters:\n  - {name: a, demand: 1}\n  - {name: a, demand: 2}\n", `s.yaml:4: centers[1].name: "a" is also the name of centers[0]`},
		{"population: 2\ncenters:\n  - {name: a, kind: fcfs, demand: 1}\n", `s.yaml:3: centers[0].kind: want queueing or delay, got "fcfs"`},
		{"population: 2\ncenters:\n  - {name: a, visits: 3}\n", "s.yaml:3: centers[0].service_time: missing: visits needs a service_time"},
		{"population: 2\ncenters:\n  - {name: a}\n", "s.yaml:3: centers[0].demand: missing: give demand, or visits and service_time"},
		{"population: 2\ncenters:\n  - a\n", `s.yaml:3: centers[0]: want a mapping {name, demand} or {name, visits, service_time}, got "a"`},
		{"population: [2\n", "s.yaml:1: did not find expected ',' or ']'"},
		{"", "s.yaml: empty file: want population and centers"},
		{"0 1\n", "s.yaml:1: want a mapping of population, think_time, method, centers, got a scalar"},
	}
	for _, tt := range tests {
		_, err := ParseSpec([]byte(tt.spec), "s.yaml")
		if err == nil || err.Error() != tt.want {
			t.Errorf("spec %q:\n  error %v\n  want  %s", tt.spec, err, tt.want)
		}
	}
	// Visits without demand default to 1 with a service time.
	s, err := ParseSpec([]byte("population: 1\ncenters:\n  - {name: a, service_time: 2}\n"), "s.yaml")
	if err != nil || s.Network.Centers[0].Visits != 1 || s.Network.Centers[0].Demand() != 2 {
		t.Errorf("service_time alone: %+v, %v", s, err)
	}
}

// FuzzParseSpec checks that ParseSpec never panics and that a spec it
// accepts has a population and centers.
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte("population: 3\nthink_time: 15\ncenters:\n  - {name: cpu, demand: 0.605}\n  - {name: d, visits: 10, service_time: 0.21}\n"))
	f.Add([]byte("population: 2\nmethod: schweitzer\ncenters:\n  - {name: net, kind: delay, demand: 1}\n"))
	f.Add([]byte("population: [2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpec(data, "f.yaml")
		if err == nil && (s.Population < 1 || len(s.Network.Centers) == 0) {
			t.Errorf("accepted %q as %+v", data, s)
		}
	})
}

// TestSolveFile checks ReadSpec's errors, SolveFile, MethodTitle and
// SampledPopulations.
func TestSolveFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.yaml")
	if _, err := SolveFile(missing); !errors.Is(err, fs.ErrNotExist) || err.Error() != "open "+missing+": no such file or directory" {
		t.Errorf("missing file: %v, want os.ReadFile's error", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("population: 2\ncenters:\n  - {name: a, demand: -1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSpec(bad); err == nil || err.Error() != bad+`:3: centers[0].demand: want a non-negative number, got "-1"` {
		t.Errorf("bad file: %v, want the file, line and field", err)
	}
	// 70 jobs: a table shows 1..25, 32, 64 and 70.
	spec := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(spec, []byte("population: 70\ncenters:\n  - {name: a, demand: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := SolveFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, p := range r.SampledPopulations() {
		got = append(got, p.Population)
	}
	want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 32, 64, 70}
	if !slices.Equal(got, want) || r.File != spec || r.MethodTitle() != "exact MVA" || len(r.Populations) != 70 {
		t.Errorf("sampled populations %v (want %v), file %q, method %q, %d populations", got, want, r.File, r.MethodTitle(), len(r.Populations))
	}
	r = &SpecResult{Method: MethodSchweitzer, Population: 70}
	if r.MethodTitle() != "Schweitzer's approximate MVA" || r.SampledPopulations() != nil {
		t.Errorf("Schweitzer: %q, %v", r.MethodTitle(), r.SampledPopulations())
	}
}
