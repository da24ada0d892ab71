package store

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// timingsMapping maps testdata/timings.csv: fig2 from roots 0 and 1 by
// gunrock/lb and topo, 3 levels, 2 repetitions, in ms; repetition 2 is
// 0.002 ms slower at every level than repetition 1.
const timingsMapping = "graph=GraphName,root=src,implementation=impl,level=lvl,repetition=rep,time_ms=ms"

func mustMapping(t *testing.T, spec string) CSVMapping {
	t.Helper()
	m, err := ParseCSVMapping(spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestIngestCSVRoundTrip(t *testing.T) {
	db := memory(t)
	st, err := db.IngestCSV("testdata/timings.csv", mustMapping(t, timingsMapping), "other-tool")
	if err != nil {
		t.Fatal(err)
	}
	// 2 roots × 2 implementations; no validated or hash column, so none
	// is validated; 25 lines with the header.
	if st.Runs != 4 || st.Levels != 12 || st.Invalid != 4 || st.Lines != 25 || st.Skipped {
		t.Errorf("stats %+v, want 4 runs, 12 levels, 4 invalid, 25 lines", st)
	}
	root := int64(0)
	totals, err := db.Totals(Filter{Dataset: "other-tool", Implementation: "gunrock/lb", Root: &root})
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 1 {
		t.Fatalf("totals %+v, want one", totals)
	}
	// Repetition totals 0.010+0.020+0.030 = 0.060 ms and 0.066 ms.
	tot := totals[0]
	if tot.Graph != "fig2" || tot.Platform != "unknown" || tot.Levels != 3 || tot.Validated ||
		!near(tot.MinNs, 60000) || !near(tot.MedianNs, 63000) || !near(tot.MeanNs, 63000) ||
		!near(tot.MaxNs, 66000) || !near(tot.StddevNs, 3000*math.Sqrt2) {
		t.Errorf("total %+v, want fig2 on unknown, 3 levels, 60-66 µs, median 63 µs, not validated", tot)
	}
	lv, err := db.LevelMedians(Filter{Implementation: "topo", Root: &root})
	if err != nil {
		t.Fatal(err)
	}
	// topo from root 0: level L takes 0.005 + 0.010 L ms, +0.002 in
	// repetition 2.
	if len(lv) != 3 {
		t.Fatalf("level medians %+v, want 3", lv)
	}
	for l, m := range lv {
		if m.Level != l || !near(m.MedianNs, 6000+10000*float64(l)) || m.Frontier != -1 {
			t.Errorf("level %d: %+v, want median %v ns and no frontier (-1)", l, m, 6000+10000*l)
		}
	}
	if train, _ := db.TrainingRuns(Filter{}); len(train) != 0 {
		t.Errorf("%d training runs from a CSV without validation", len(train))
	}
	var reps, warmup int
	if err := db.sql.QueryRow(`SELECT repetitions, warmup FROM run_configs`).Scan(&reps, &warmup); err != nil || reps != 2 || warmup != -1 {
		t.Errorf("run config: %d repetitions, warmup %d, %v; want 2, -1 (unknown)", reps, warmup, err)
	}
}

// TestIngestCSVBesideRunner ingests CSV rows of graphs and implementations
// the runner's files stored, with a validated or a hash column.
func TestIngestCSVBesideRunner(t *testing.T) {
	db := memory(t)
	man := manifest(t)
	if _, err := db.IngestRunnerJSONL("testdata/cfg-normal-s12.jsonl.gz", "h100", man); err != nil {
		t.Fatal(err)
	}
	graphs, _ := db.Graphs("h100")
	impls, _ := db.Implementations()
	// testdata/manifest.json: cfg-normal-s12's first two roots and their
	// reference hashes. The third row's hash is wrong.
	path := writeFile(t, "h.csv", `graph,root,impl,hash,ok,us
cfg-normal-s12.gpg,2817,topo,2de439c87dbbe607,yes,120.5
cfg-normal-s12,1078,topo,b78eee23d3238565,true,130
cfg-normal-s12,1078,tool-x,0000000000000000,1,140
`)
	m := mustMapping(t, "graph=graph,root=root,impl=impl,hash=hash,time=us")
	m.TimeUnit, m.PlatformName = "us", "H100 (other tool)"
	st, err := db.IngestCSV(path, m, "h100")
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != 3 || st.Invalid != 1 || st.Levels != 0 {
		t.Errorf("hash column: %+v, want 3 runs, 1 invalid, no levels", st)
	}
	after, _ := db.Graphs("h100")
	afterImpls, _ := db.Implementations()
	if len(after) != len(graphs) || len(afterImpls) != len(impls)+1 {
		t.Errorf("%d graphs, %d implementations after, %d, %d before: want the same graph, one new implementation",
			len(after), len(afterImpls), len(graphs), len(impls))
	}
	root := int64(2817)
	train, _ := db.TrainingRuns(Filter{Root: &root, Implementation: "topo"})
	var csvRun *Total
	for i := range train {
		if train[i].Platform == "H100 (other tool)" {
			csvRun = &train[i]
		}
	}
	if len(train) != 2 || csvRun == nil || !near(csvRun.MedianNs, 120500) {
		t.Errorf("root 2817 topo training runs %+v: want the runner's and the CSV's (120.5 µs)", train)
	}

	// The tool's own check, trusted as given.
	path = writeFile(t, "v.csv", "graph,root,impl,ok,us\ncfg-normal-s12,2817,tool-y,yes,1\ncfg-normal-s12,2817,tool-z,no,2\n")
	m = mustMapping(t, "graph=graph,root=root,impl=impl,validated=ok,time_us=us")
	if st, err := db.IngestCSV(path, m, "h100"); err != nil || st.Runs != 2 || st.Invalid != 1 {
		t.Errorf("validated column: %+v %v, want 2 runs, 1 invalid", st, err)
	}
}

// TestIngestCSVTotals reads a CSV without levels or repetition column:
// each row is a whole traversal, the k-th row of a run its k-th
// repetition.
func TestIngestCSVTotals(t *testing.T) {
	db := memory(t)
	path := writeFile(t, "t.csv", "g,impl,s\nkron,a,0.003\nkron,a,0.001\nkron,b,1e-3\nkron,a,0.002\n")
	st, err := db.IngestCSV(path, mustMapping(t, "graph=g,implementation=impl,time_s=s"), "d")
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != 2 || st.Levels != 0 {
		t.Errorf("%+v, want 2 runs and no levels", st)
	}
	totals, _ := db.Totals(Filter{Implementation: "a"})
	if len(totals) != 1 || totals[0].Root != -1 || !near(totals[0].MedianNs, 2e6) || !near(totals[0].MinNs, 1e6) ||
		totals[0].Levels != 0 {
		t.Errorf("totals %+v, want root -1, median 2 ms, min 1 ms", totals)
	}
}

func TestIngestCSVMalformedRejectsFile(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestCSV("testdata/timings.csv", mustMapping(t, timingsMapping), "d"); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	src, err := os.ReadFile("testdata/timings.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for _, c := range []struct {
		name      string
		line      int    // 1-based line to replace, 0 to append
		text      string // its new text
		wantLine  int
		wantInMsg string
	}{
		{"bad number", 5, "fig2,0,gunrock/lb,0,2,0.0x2", 5, "time"},
		{"negative time", 9, "fig2,0,topo,2,1,-0.025", 9, "time"},
		{"missing cell", 12, "fig2,0,,1,2,0.017", 12, "no implementation"},
		{"too few fields", 20, "fig2,1,topo,0,1", 20, "fields"},
		{"too many fields", 3, "fig2,0,gunrock/lb,1,1,0.020,x", 3, "fields"},
		{"bad level", 14, "fig2,1,gunrock/lb,-1,1,0.011", 14, "level"},
		{"bad root", 25, "fig2,one,topo,2,2,0.028", 25, "root"},
		{"repeated row", 0, "fig2,0,topo,2,2,0.027", 26, "repeats line 13"},
		// A repetition without one level: reported at the run's first line.
		{"missing level", 0, "fig2,2,topo,0,1,0.005", 26, "level"},
		{"bad quote", 7, `fig2,0,"topo,0,1,0.005`, 7, "quote"},
	} {
		mod := append([]string(nil), lines...)
		if c.line == 0 {
			mod = append(mod, c.text)
			if c.name == "missing level" {
				mod = append(mod, "fig2,2,topo,0,2,0.005", "fig2,2,topo,1,2,0.005")
			}
		} else {
			mod[c.line-1] = c.text
		}
		path := writeFile(t, "bad.csv", strings.Join(mod, "\n")+"\n")
		_, err := db.IngestCSV(path, mustMapping(t, timingsMapping), "d")
		var pe *kernels.ParseError
		if !errors.As(err, &pe) || pe.File != path || pe.Line != c.wantLine || !strings.Contains(pe.Msg, c.wantInMsg) {
			t.Errorf("%s: error %v, want a ParseError at %s:%d about %q", c.name, err, path, c.wantLine, c.wantInMsg)
		}
		sameCounts(t, c.name, before, counts(t, db))
	}
}

func TestIngestCSVTwiceChangesNothing(t *testing.T) {
	db := memory(t)
	m := mustMapping(t, timingsMapping)
	if _, err := db.IngestCSV("testdata/timings.csv", m, "d"); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	st, err := db.IngestCSV("testdata/timings.csv", m, "d")
	if err != nil || !st.Skipped {
		t.Fatalf("re-ingest: %+v %v, want skipped", st, err)
	}
	sameCounts(t, "re-ingest", before, counts(t, db))

	// The same rows in other bytes (CRLF line ends): not skipped, but no
	// run is stored twice.
	src, _ := os.ReadFile("testdata/timings.csv")
	path := writeFile(t, "crlf.csv", strings.ReplaceAll(string(src), "\n", "\r\n"))
	st, err = db.IngestCSV(path, m, "d")
	if err != nil || st.Skipped || st.Runs != 0 || st.DuplicateRuns != 4 {
		t.Fatalf("same rows, other file: %+v %v; want 0 new, 4 duplicates", st, err)
	}
	after := counts(t, db)
	after["sources"]--
	sameCounts(t, "same rows, other file", before, after)
}

func TestCSVMappingErrors(t *testing.T) {
	for _, spec := range []string{
		"graph=g,impl=i,time_ms=t,colour=c",  // unknown key
		"graph=g,impl=i,time_min=t",          // unknown unit
		"graph=g,impl,time_ms=t",             // no column
		"graph=g,impl=i,implementation=j",    // a key twice
		"graph=g,impl=i,time_ms=t,time_us=u", // two times
	} {
		if _, err := ParseCSVMapping(spec); !errors.Is(err, ErrMapping) {
			t.Errorf("%q: %v, want ErrMapping", spec, err)
		}
	}
	const spec = "graph=GraphName,root=src,implementation=impl,level=lvl,repetition=rep,time_ms=ms"
	if m := mustMapping(t, "time_ms=ms,impl=impl,rep=rep,graph=GraphName,level=lvl,root=src"); m.String() != spec {
		t.Errorf("String %q, want %q", m.String(), spec)
	}

	db := memory(t)
	before := counts(t, db)
	for _, c := range []struct {
		spec, unit, want string
	}{
		{"graph=GraphName,root=source,implementation=impl,time_ms=ms", "", `no column "source"; its header: GraphName, src, impl, lvl, rep, ms`},
		{"graph=GraphName,implementation=impl,time=ms", "", "no time unit"},
		{"graph=GraphName,implementation=impl,time=ms", "min", `time unit "min"`},
		{"graph=GraphName,time_ms=ms", "", "no column for implementation"},
	} {
		m := mustMapping(t, c.spec)
		if c.unit != "" {
			m.TimeUnit = c.unit
		}
		_, err := db.IngestCSV("testdata/timings.csv", m, "d")
		if !errors.Is(err, ErrMapping) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrMapping saying %q", c.spec, err, c.want)
		}
	}
	sameCounts(t, "bad mappings", before, counts(t, db))
}

// FuzzReadCSVRuns checks that the CSV reader returns runs or an error,
// never panics, on any input.
func FuzzReadCSVRuns(f *testing.F) {
	src, err := os.ReadFile("testdata/timings.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("GraphName,src,impl,lvl,rep,ms\nfig2,0,a,0,1,1\nfig2,0,a,0,1,1\n"))
	f.Add([]byte("\ufeffGraphName,src,impl,lvl,rep,ms\n\"fig2\",0,a,9,x,1e3\n"))
	m, err := ParseCSVMapping(timingsMapping)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		runs, _, err := readCSVRuns(strings.NewReader(string(b)), "f.csv", m)
		if err != nil {
			return
		}
		for _, r := range runs {
			if len(r.reps) == 0 || len(r.times) == 0 {
				t.Fatalf("empty run %+v", r)
			}
		}
	})
}
