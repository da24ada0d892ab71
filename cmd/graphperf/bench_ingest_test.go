package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIngestTwiceChangesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	args := append([]string{"bench", "ingest", "--db", db}, ingestFiles...)
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	golden(t, "ingest-first.stdout", stdout)
	list1, _, _ := runCLI(t, "data", "list", "--json", "--db", db)
	export := func() string {
		out := filepath.Join(t.TempDir(), "runs.csv")
		if _, stderr, err := runCLI(t, "data", "export", "--db", db, "--table", "levels", "-o", out); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	levels1 := export()
	stdout, stderr, err = runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	golden(t, "ingest-again.stdout", stdout)
	if strings.Count(stdout, "already stored (source ") != 2 {
		t.Errorf("second ingest does not say skipped:\n%s", stdout)
	}
	list2, _, _ := runCLI(t, "data", "list", "--json", "--db", db)
	if list1 != list2 || levels1 != export() {
		t.Error("second ingest changed the store")
	}
}

// TestIngestDirectory ingests a results directory with its manifest.json.
func TestIngestDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "h100")
	os.Mkdir(dir, 0o755)
	for from, to := range map[string]string{
		"testdata/ingest-manifest.json":           "manifest.json",
		"testdata/ingest-ba-s12-m16.jsonl.gz":     "ba-s12-m16.jsonl.gz",
		"testdata/ingest-cfg-normal-s12.jsonl.gz": "cfg-normal-s12.jsonl.gz",
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, to), b, 0o644)
	}
	db := filepath.Join(t.TempDir(), "results.db")
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Count(stdout, "295 runs") != 2 {
		t.Errorf("want two files of 295 runs:\n%s", stdout)
	}
	list, _, _ := runCLI(t, "data", "list", "--db", db, "--csv")
	if !strings.Contains(list, "graph,h100,ba-s12-m16") {
		t.Errorf("dataset is not the directory's name:\n%s", list)
	}
}

// TestIngestBadFile checks that a malformed file is rejected with its
// file:line, that the good file beside it is still stored, and that the
// command fails at the end.
func TestIngestBadFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--manifest", "testdata/ingest-manifest.json",
		"testdata/ingest-bad.jsonl", "testdata/ingest-ba-s12-m16.jsonl.gz")
	if err == nil {
		t.Fatal("no error for a malformed file")
	}
	golden(t, "ingest-bad.stdout", stdout)
	golden(t, "ingest-bad.stderr", stderr)
	if !strings.Contains(stderr, "testdata/ingest-bad.jsonl:2:") {
		t.Errorf("error lacks file:line:\n%s", stderr)
	}
	q, _, err := runCLI(t, "data", "query", "--db", db, "--graph", "ba-s12-m16", "--impl", "topo", "--csv")
	if err != nil || strings.Count(q, "\n") != 6 { // header and 5 roots
		t.Errorf("the good file was not stored (%v):\n%s", err, q)
	}
}

func TestIngestNeedsDB(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range [][]string{
		{"bench", "ingest", "x.jsonl"},
		{"bench", "ingest", "--db", "s.db", "missing.jsonl"},
		{"bench", "ingest", "--db", "s.db", "--ncu", "x.csv"},
	} {
		if _, _, err := runCLI(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad invocations wrote %d files", len(entries))
	}
}

// csvTimings is the store's plain CSV test file: fig2 from roots 0 and 1
// by gunrock/lb and topo, 3 levels, 2 repetitions, in ms.
const csvTimings = "../../analysis/store/testdata/timings.csv"

const csvTimingsMap = "graph=GraphName,root=src,implementation=impl,level=lvl,repetition=rep,time=ms"

// TestIngestCSV stores a plain CSV beside a runner file, queries it back,
// and ingests it again.
func TestIngestCSV(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	args := []string{"bench", "ingest", "--db", db, "--dataset", "mixed", "../../kernels/testdata/fig2.jsonl",
		"--csv", csvTimings, "--map", csvTimingsMap, "--time-unit", "ms", "--platform", "H100 (gunrock)"}
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// fig2.jsonl: 8 runs of 3 levels, 1 not validated; the CSV: 4 runs of
	// 3 levels, none validated (no validated or hash column).
	for _, want := range []string{"fig2.jsonl: 8 runs, 24 levels, 1 invalid", "timings.csv: 4 runs, 12 levels, 4 invalid"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	q, stderr, err := runCLI(t, "data", "query", "--db", db, "--graph", "fig2", "--impl", "gunrock/lb", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Root 0's repetitions total 0.060 and 0.066 ms: median 63 µs.
	if strings.Count(q, "\n") != 3 || !strings.Contains(q, "H100 (gunrock)") || !strings.Contains(q, "63000") {
		t.Errorf("query of the CSV runs (want a header and 2 roots on H100 (gunrock), median 63000 ns):\n%s", q)
	}
	list, _, _ := runCLI(t, "data", "list", "--db", db, "--csv")
	if strings.Count(list, "graph,mixed,fig2") != 1 {
		t.Errorf("the CSV's fig2 is not the runner's:\n%s", list)
	}
	stdout, stderr, err = runCLI(t, args...)
	if err != nil || strings.Count(stdout, "already stored (source ") != 2 {
		t.Errorf("second ingest (%v):\n%s%s", err, stdout, stderr)
	}
}

// TestIngestCSVBadRow checks that a malformed CSV row rejects its file
// with file:line, and that the command then fails.
func TestIngestCSVBadRow(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("GraphName,src,impl,lvl,rep,ms\nfig2,0,topo,0,1,0.1\nfig2,0,topo,1,1,zero\n"), 0o644)
	db := filepath.Join(dir, "results.db")
	_, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", "--csv", bad, "--csv", csvTimings,
		"--map", csvTimingsMap, "--time-unit", "ms")
	if err == nil || !strings.Contains(stderr, bad+":3: time \"zero\"") || !strings.Contains(stderr, "1 of 2 files not ingested") {
		t.Fatalf("want file:line of the bad row and 1 of 2 files not ingested, got %v:\n%s", err, stderr)
	}
	q, _, err := runCLI(t, "data", "query", "--db", db, "--impl", "topo", "--csv")
	if err != nil || strings.Count(q, "\n") != 3 { // header and 2 roots, all from timings.csv
		t.Errorf("the good file was not stored alone (%v):\n%s", err, q)
	}
}

func TestIngestCSVBadFlags(t *testing.T) {
	src, err := os.ReadFile(csvTimings)
	if err != nil {
		t.Fatal(err)
	}
	timings := filepath.Join(t.TempDir(), "timings.csv")
	os.WriteFile(timings, src, 0o644)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--csv", timings}, "--csv needs --map"},
		{[]string{"--map", "graph=g", "x.jsonl"}, "go with --csv"},
		{[]string{"--csv", timings, "--map", "graph=GraphName,impl=impl,colour=c,time_ms=ms"}, `--map "graph=GraphName,impl=impl,colour=c,time_ms=ms": bad CSV mapping: unknown key "colour"`},
		{[]string{"--csv", timings, "--map", "graph=GraphName,impl=impl,time=ms"}, "no time unit"},
		{[]string{"--csv", timings, "--map", "graph=GraphName,impl=impl,time=ms", "--time-unit", "min"}, `--time-unit "min"`},
		{[]string{"--csv", timings, "--map", "graph=GraphName,impl=impl,time_us=ms", "--time-unit", "ms"}, "--map says time_us"},
		{[]string{"--csv", timings, "--map", "graph=GraphName,time_ms=ms"}, "no column for implementation"},
		{[]string{"--csv", "missing.csv", "--map", csvTimingsMap, "--time-unit", "ms"}, "missing.csv"},
	} {
		args := append([]string{"bench", "ingest", "--db", "s.db"}, c.args...)
		_, stderr, err := runCLI(t, args...)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: %v, want an error saying %q:\n%s", c.args, err, c.want, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad invocations wrote %d files", len(entries))
	}

	// A column the file lacks: the error names the --map value and the
	// header, and nothing is stored.
	_, stderr, err := runCLI(t, "bench", "ingest", "--db", "s.db", "--dataset", "d", "--csv", timings,
		"--map", "graph=GraphName,root=source,impl=impl,time_ms=ms")
	want := `--map "graph=GraphName,root=source,impl=impl,time_ms=ms": bad CSV mapping: root=source: ` + timings +
		` has no column "source"; its header: GraphName, src, impl, lvl, rep, ms`
	if err == nil || !strings.Contains(stderr, want) {
		t.Errorf("unknown column: %v, want\n%s\ngot\n%s", err, want, stderr)
	}
	list, _, _ := runCLI(t, "data", "list", "--db", "s.db", "--csv")
	if strings.Contains(list, "graph,") {
		t.Errorf("a rejected file stored graphs:\n%s", list)
	}
}

// TestIngestReplaceAndDelete: a corrected file under a known source is an
// error naming the file, --replace swaps its runs, data delete removes
// them and nothing else.
func TestIngestReplaceAndDelete(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	const orig = "../../kernels/testdata/fig2.jsonl"
	if _, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", orig,
		"--csv", csvTimings, "--map", csvTimingsMap, "--time-unit", "ms"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	src, _ := os.ReadFile(orig)
	fixed := filepath.Join(dir, "fig2.jsonl")
	os.WriteFile(fixed, []byte(strings.Replace(string(src), `"median_ns":4112.5`, `"median_ns":4100.5`, 1)), 0o644)
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", orig)
	if err != nil || !strings.Contains(stdout, "already stored (source fig2.jsonl)") {
		t.Errorf("unchanged (%v): %s%s", err, stdout, stderr)
	}
	_, stderr, err = runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", fixed)
	if err == nil || !strings.Contains(stderr, fixed+": the store holds source \"fig2.jsonl\"") || !strings.Contains(stderr, "--replace") {
		t.Errorf("changed without --replace (%v):\n%s", err, stderr)
	}
	stdout, stderr, err = runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", "--replace", fixed)
	if err != nil || !strings.Contains(stdout, "8 runs, 24 levels, 1 invalid; replaced source fig2.jsonl (8 runs, 24 levels)") {
		t.Errorf("--replace (%v): %s%s", err, stdout, stderr)
	}
	stdout, stderr, err = runCLI(t, "data", "delete", "--db", db, "--source", "fig2.jsonl")
	if err != nil || stdout != "deleted source fig2.jsonl of dataset d: 8 runs, 24 level timings, 0 counters\n" {
		t.Errorf("delete (%v): %q%s", err, stdout, stderr)
	}
	q, _, err := runCLI(t, "data", "query", "--db", db, "--csv")
	if err != nil || strings.Count(q, "\n") != 5 { // header and the CSV's 4 runs
		t.Errorf("after delete (%v):\n%s", err, q)
	}
	_, stderr, err = runCLI(t, "data", "delete", "--db", db, "--source", "timings.cvs")
	if err == nil || !strings.Contains(stderr, `no source "timings.cvs"; did you mean timings.csv?`) {
		t.Errorf("misspelt source (%v): %s", err, stderr)
	}
}

// TestIngestSaysWhatItDid reproduces issue 31's three silent cases
// through the command: a level line without "frontier", a traversal the
// file holds twice, an empty file and a truncated gzip file are each
// refused naming file, line and field (exit status 1, nothing of them
// stored); a results directory whose manifest names a graph without its
// file is ingested with a warning naming it; --json says the same.
func TestIngestSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	fig2, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(fig2), "\n"), "\n")
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	noFrontier := append([]string(nil), lines...)
	noFrontier[2] = strings.Replace(noFrontier[2], `"frontier":2,`, ``, 1)
	twice := append(append([]string(nil), lines...), lines[1:5]...) // topo from root 0 again
	gz, err := os.ReadFile("testdata/ingest-ba-s12-m16.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"no-frontier.jsonl", []byte(strings.Join(noFrontier, "\n")), `no-frontier.jsonl:3: level record: field "frontier" missing`},
		{"twice.jsonl", []byte(strings.Join(twice, "\n")),
			`twice.jsonl:36: level record: a traversal of topo of fig2.gpg from root 0 again: its total is at line 5 (a duplicated traversal)`},
		{"empty.jsonl.gz", nil, "empty.jsonl.gz: empty file"},
		{"cut.jsonl.gz", gz[:len(gz)/2], fmt.Sprintf("cut.jsonl.gz: truncated gzip stream (after %d bytes)", len(gz)/2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			path := write(c.name, c.content)
			stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--dataset", "d", path)
			if err == nil || !strings.Contains(stderr, c.want) {
				t.Errorf("%v\n%s, want an error %q", err, stderr, c.want)
			}
			if !strings.Contains(stdout, "1 files: 0 stored, 0 stored before, 1 refused") {
				t.Errorf("stdout %q: the totals do not say 1 refused", stdout)
			}
			list, _, _ := runCLI(t, "data", "list", "--db", db, "--csv")
			if strings.Contains(list, "fig2") || strings.Contains(list, "ba-s12") {
				t.Errorf("a refused file was stored:\n%s", list)
			}
		})
	}

	// A results directory whose manifest names a graph without its file.
	results := filepath.Join(dir, "h100")
	os.Mkdir(results, 0o755)
	man, err := os.ReadFile("testdata/ingest-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(results, "manifest.json"), man, 0o644)
	os.WriteFile(filepath.Join(results, "ba-s12-m16.jsonl.gz"), gz, 0o644)
	db := filepath.Join(t.TempDir(), "s.db")
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, results)
	if err != nil || !strings.Contains(stderr, "warning: "+filepath.Join(results, "manifest.json")+
		": graph cfg-normal-s12: its results file cfg-normal-s12.jsonl.gz is not in "+results) {
		t.Errorf("%v\nstdout %s\nstderr %s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "1 files: 1 stored, 0 stored before, 0 refused; 295 traversals: 295 runs and 1298 levels stored, 0 invalid, 0 duplicates") {
		t.Errorf("totals: %s", stdout)
	}
	stdout, _, err = runCLI(t, "bench", "ingest", "--db", db, "--json", results)
	var res struct {
		Files []struct {
			Path, Status string
			Traversals   int
		}
		Total struct {
			Files         int `json:"files"`
			AlreadyStored int `json:"already_stored"`
			Refused       int
		}
		Warnings []string
	}
	if err != nil || json.Unmarshal([]byte(stdout), &res) != nil || len(res.Files) != 1 || res.Files[0].Status != "already stored" ||
		res.Total.Files != 1 || res.Total.AlreadyStored != 1 || len(res.Warnings) != 1 {
		t.Errorf("--json (%v):\n%s", err, stdout)
	}
}
