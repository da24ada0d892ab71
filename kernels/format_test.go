package kernels

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runnerFiles returns every runner output under the roots: *.jsonl and
// *.jsonl.gz files, those of other tools (dist, microbench) included,
// whose lines are then *Other records.
func runnerFiles(t *testing.T, roots ...string) []string {
	t.Helper()
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".jsonl.gz")) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// allMeasured makes TestDeclarationReadsEmbedded read every measured
// file (a minute and a half on two shared cores):
//
//	go test ./kernels -run DeclarationReadsEmbedded -all-measured -v
var allMeasured = flag.Bool("all-measured", false, "TestDeclarationReadsEmbedded: read every file of kernels/measured")

// notRunnerOutput are the files under testdata that are malformed on
// purpose, with the error each gives.
var notRunnerOutput = map[string]string{
	"../cmd/graphperf/testdata/ingest-bad.jsonl":                 "ingest-bad.jsonl:2: not a JSON object",
	"../cmd/graphperf/testdata/summary-bad/summary-bad.jsonl.gz": `summary-bad.jsonl.gz:3: field "median_ns": the line ends before its value`,
}

// TestDeclarationReadsEmbedded reads runner outputs of the repository by
// the declaration: every testdata folder's and, of the measured datasets
// (kernels/measured), one folder of each runner (graphperf-bfs's switching
// BFS, graphperf-pr, graphperf-la, the distributed BFS's lines, which are
// *Other records here); with -all-measured all of kernels/measured (1018
// files, 3.9 million level lines). Each reads without error: no kind of
// record needs a rule for an older runner.
func TestDeclarationReadsEmbedded(t *testing.T) {
	roots := []string{"testdata", "../analysis/store/testdata", "../cmd/graphperf/testdata",
		"measured/h100/la", "measured/h100/switch/real", "measured/h200/pagerank", "measured/dist",
		"measured/h100/hubwalk"}
	if *allMeasured {
		roots = append(roots, "measured")
	}
	seen := map[string]bool{}
	kinds := map[string]int{}
	for _, path := range runnerFiles(t, roots...) {
		if seen[path] {
			continue
		}
		seen[path] = true
		res, err := ReadFile(path)
		if want, bad := notRunnerOutput[path]; bad {
			if err == nil || !strings.HasSuffix(strings.SplitN(err.Error(), ": ", 2)[0], want[:strings.Index(want, ": ")]) ||
				!strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, tot := range res.Totals {
			switch {
			case tot.Model != "":
				kinds["graphperf-la total"]++
			case tot.Algorithm == AlgorithmPageRank:
				kinds["pagerank total"]++
			default:
				kinds["total"]++
			}
		}
		kinds["level"] += len(res.Levels)
		kinds["error"] += len(res.Errors)
		if res.Device != nil {
			kinds["device"]++
		}
	}
	t.Logf("%d files: %v", len(seen), kinds)
	for _, k := range []string{"device", "level", "total", "pagerank total", "graphperf-la total", "error"} {
		if kinds[k] == 0 {
			t.Errorf("no %s record read", k)
		}
	}
}

// TestReadmeStatesTheExceptions keeps kernels/cuda/README.md's "What the
// readers require" true: every key of a kind is required but the ones it
// names, with the rule it gives.
func TestReadmeStatesTheExceptions(t *testing.T) {
	b, err := os.ReadFile("cuda/README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "**What the readers require**")
	end := strings.Index(text, "**Duplicates.**")
	if start < 0 || end < start {
		t.Fatal(`cuda/README.md has no "What the readers require" before "Duplicates"`)
	}
	section := strings.Join(strings.Fields(text[start:end]), " ")
	want := map[string]map[string]Need{
		"level record": {"switch_impl": ForSwitch, "form": ForSwitch, "convert_min_ns": ForSwitch, "convert_median_ns": ForSwitch,
			"convert_mean_ns": ForSwitch, "convert_max_ns": ForSwitch, "convert_stddev_ns": ForSwitch},
		"total record": {"bottom_up_levels": ForDOBFS, "directions": ForDOBFS, "decisions": ForSwitch, "decisions_hash": ForSwitch,
			"decisions_source": ForSwitch, "switch_impls": ForSwitch, "conversions": ForSwitch,
			"kernel_min_ns": ForSwitch, "kernel_median_ns": ForSwitch, "kernel_mean_ns": ForSwitch, "kernel_max_ns": ForSwitch,
			"kernel_stddev_ns": ForSwitch, "convert_min_ns": ForSwitch, "convert_median_ns": ForSwitch,
			"convert_mean_ns": ForSwitch, "convert_max_ns": ForSwitch, "convert_stddev_ns": ForSwitch},
		"error record":                       {"reference_hash": Optional},
		"pagerank total record":              {"last_delta": UnlessNoDiv},
		"graphperf-la bfs total record":      {"reference_hash": Optional},
		"graphperf-la sssp total record":     {"reference_hash": Optional},
		"graphperf-la pagerank total record": {"root": Optional},
		"graphperf-la error record":          {"root": Optional},
	}
	for _, k := range RecordKinds() {
		for _, fd := range k.Fields {
			need, listed := want[k.Name][fd.Key]
			switch {
			case fd.Need == Required && listed:
				t.Errorf("%s: %q is required; the test lists it as %s", k.Name, fd.Key, need)
			case fd.Need != Required && need != fd.Need:
				t.Errorf("%s: %q is %s, the test says %v", k.Name, fd.Key, fd.Need, need)
			}
			if fd.Need == Required {
				continue
			}
			name := fd.Key
			if i := strings.Index(name, "_"); strings.HasSuffix(name, "_ns") && i > 0 {
				name = name[:i] + "_*_ns" // convert_min_ns ... as convert_*_ns
			}
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("%s: %q (%s) is not in cuda/README.md's exceptions", k.Name, fd.Key, fd.Need)
			}
		}
	}
}
