package store

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// fig2Lines are the lines of kernels/testdata/fig2.jsonl: line 1 the
// device, lines 2-4 topo's levels 0-2 from root 0, line 5 their total.
func fig2Lines(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(src), "\n")
}

// TestOutOfRangeRejectsFile checks that every value out of its range, in a
// level line or a total line, rejects the file at its line and names the
// field, storing nothing (the bug: negative levels, medians and frontier
// counts and 1e300 times were stored).
func TestOutOfRangeRejectsFile(t *testing.T) {
	lines := fig2Lines(t)
	for _, c := range []struct {
		name      string
		line      int    // 1-based: 2 a level line (level 0), 5 a total line
		old, new  string // replaced in the line
		wantInMsg string
	}{
		{"negative level", 2, `"level":0,`, `"level":-1,`, `"level": -1`},
		{"level gap", 3, `"level":1,`, `"level":2,`, "want level 1"},
		{"level beyond n", 2, `"level":0,`, `"level":6,`, "level 6"},
		{"negative median", 2, `"median_ns":4112.5`, `"median_ns":-4112.5`, "median_ns"},
		{"huge time", 2, `"max_ns":4146.1`, `"max_ns":1e300`, "max_ns"},
		{"huge total", 5, `"max_ns":12270.9`, `"max_ns":1e300`, "max_ns"},
		{"negative stddev", 2, `"stddev_ns":25.4`, `"stddev_ns":-1`, "stddev_ns"},
		{"median above max", 2, `"median_ns":4112.5`, `"median_ns":5000`, "median_ns"},
		{"mean below min", 5, `"mean_ns":12189.8`, `"mean_ns":100`, "mean_ns"},
		{"min above max", 2, `"min_ns":4096.0`, `"min_ns":9000`, "min_ns"},
		{"negative frontier", 2, `"frontier":1,`, `"frontier":-1,`, `"frontier": -1`},
		{"frontier above n", 2, `"frontier":1,`, `"frontier":7,`, "frontier 7"},
		{"negative discovered", 3, `"discovered":3,`, `"discovered":-3,`, "discovered"},
		{"discovered above n", 3, `"discovered":3,`, `"discovered":60,`, "discovered"},
		{"zero reps", 2, `"reps":3,`, `"reps":0,`, "reps"},
		{"negative grid", 2, `"grid":1,`, `"grid":-1,`, "grid"},
		{"zero n", 2, `"n":6,`, `"n":0,`, `"n": 0`},
		{"negative m", 2, `"m":6,`, `"m":-6,`, `"m": -6`},
		{"root outside graph", 5, `"root":0,`, `"root":9,`, "root 9"},
		{"reached above n", 5, `"reached":6,`, `"reached":7,`, "reached"},
		{"negative reached", 5, `"reached":6,`, `"reached":-1,`, "reached"},
		{"no depth hash", 5, `"depth_hash":"b20ac75dffed2c97",`, ``, `"depth_hash" missing`},
		{"negative warmup", 5, `"warmup":1,`, `"warmup":-1,`, "warmup"},
		{"negative wall time", 5, `"wall_min_ns":33121.6`, `"wall_min_ns":-1`, "wall_min_ns"},
		{"negative grid cap", 5, `"grid_cap":2112,`, `"grid_cap":-2112,`, "grid_cap"},
		{"empty graph name", 2, `"graph":"fig2.gpg",`, `"graph":"",`, "graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := memory(t)
			before := counts(t, db)
			mod := append([]string(nil), lines...)
			if !strings.Contains(mod[c.line-1], c.old) {
				t.Fatalf("line %d has no %s", c.line, c.old)
			}
			mod[c.line-1] = strings.Replace(mod[c.line-1], c.old, c.new, 1)
			path := writeFile(t, "bad.jsonl", strings.Join(mod, "\n"))
			_, err := db.IngestRunnerJSONL(path, "d", nil)
			var pe *kernels.ParseError
			if !errors.As(err, &pe) || pe.File != path || pe.Line != c.line || !strings.Contains(pe.Msg, c.wantInMsg) {
				t.Errorf("error %v, want a ParseError at %s:%d about %q", err, path, c.line, c.wantInMsg)
			}
			sameCounts(t, c.name, before, counts(t, db))
		})
	}
}

// TestCSVOutOfRangeRejectsFile checks that the CSV path rejects what the
// runner path rejects: times beyond MaxTimeNs and level numbers with gaps.
func TestCSVOutOfRangeRejectsFile(t *testing.T) {
	src, err := os.ReadFile("testdata/timings.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for _, c := range []struct {
		name      string
		line      int
		text      string
		wantInMsg string
	}{
		{"huge time", 2, "fig2,0,gunrock/lb,0,1,1e300", "longer than a day"},
		{"infinite time", 2, "fig2,0,gunrock/lb,0,1,Inf", "finite"},
		{"NaN time", 2, "fig2,0,gunrock/lb,0,1,NaN", "finite"},
		// Levels 0, 2, 3 after the edit: level 1 is missing.
		{"level gap", 3, "fig2,0,gunrock/lb,3,1,0.020", "level 2: want level 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := memory(t)
			before := counts(t, db)
			mod := append([]string(nil), lines...)
			mod[c.line-1] = c.text
			if c.name == "level gap" {
				// Every repetition times the same levels.
				for i, l := range mod {
					if strings.HasPrefix(l, "fig2,0,gunrock/lb,1,") {
						mod[i] = strings.Replace(l, ",1,", ",3,", 1)
					}
				}
			}
			path := writeFile(t, "bad.csv", strings.Join(mod, "\n")+"\n")
			_, err := db.IngestCSV(path, mustMapping(t, timingsMapping), "d")
			var pe *kernels.ParseError
			if !errors.As(err, &pe) || pe.File != path || !strings.Contains(pe.Msg, c.wantInMsg) {
				t.Errorf("error %v, want a ParseError of %s about %q", err, path, c.wantInMsg)
			}
			sameCounts(t, c.name, before, counts(t, db))
		})
	}
}
