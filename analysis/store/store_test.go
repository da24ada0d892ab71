package store

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphperf/graphperf/kernels"
)

// tables are the tables whose row counts tell whether an ingest wrote.
var tables = []string{"platforms", "datasets", "graphs", "algorithms", "implementations", "variants",
	"run_configs", "sources", "runs", "level_timings", "level_properties"}

func counts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	c := map[string]int{}
	for _, tb := range tables {
		var n int
		if err := db.sql.QueryRow(`SELECT count(*) FROM ` + tb).Scan(&n); err != nil {
			t.Fatal(err)
		}
		c[tb] = n
	}
	return c
}

func sameCounts(t *testing.T, what string, before, after map[string]int) {
	t.Helper()
	for _, tb := range tables {
		if before[tb] != after[tb] {
			t.Errorf("%s: %s has %d rows, had %d", what, tb, after[tb], before[tb])
		}
	}
}

func memory(t *testing.T) *DB {
	t.Helper()
	db, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func manifest(t *testing.T) *kernels.Manifest {
	t.Helper()
	m, err := LoadManifest("testdata/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpenCreatesAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.Version(); err != nil || v != SchemaVersion {
		t.Fatalf("version %d, %v; want %d", v, err, SchemaVersion)
	}
	if _, err := db.IngestRunnerJSONL("testdata/cfg-normal-s12.jsonl.gz", "h100-2026-11-21", manifest(t)); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	db.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sameCounts(t, "reopen", before, counts(t, db))
}

// testMigrations is the real history plus a test-only v2, so the migration
// from every earlier version (0, 1) to the latest is exercised.
var testMigrations = append(append([]migration(nil), migrations...), func(tx *sql.Tx) error {
	_, err := tx.Exec(`ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT 'v2'`)
	return err
})

func TestMigrateFromEveryVersion(t *testing.T) {
	for from := 0; from < len(testMigrations); from++ {
		path := filepath.Join(t.TempDir(), "s.db")
		db, err := open(path, testMigrations[:from])
		if err != nil {
			t.Fatalf("create at version %d: %v", from, err)
		}
		hasRuns := from >= 1
		if hasRuns {
			seedV1(t, db)
		}
		db.Close()
		db, err = open(path, testMigrations)
		if err != nil {
			t.Fatalf("migrate from %d: %v", from, err)
		}
		if v, _ := db.Version(); v != len(testMigrations) {
			t.Errorf("from %d: version %d, want %d", from, v, len(testMigrations))
		}
		var runs, noted int
		if err := db.sql.QueryRow(`SELECT count(*), count(note) FROM runs`).Scan(&runs, &noted); err != nil {
			t.Fatalf("from %d: %v", from, err)
		}
		if hasRuns && (runs == 0 || noted != runs) {
			t.Errorf("from %d: %d runs, %d with the test-only column", from, runs, noted)
		}
		if from == 1 {
			// Version 2 names the sources by their path's base name.
			var name string
			if err := db.sql.QueryRow(`SELECT name FROM sources`).Scan(&name); err != nil || name != "fig2.jsonl" {
				t.Errorf("from %d: source name %q, %v; want fig2.jsonl", from, name, err)
			}
		}
		db.Close()
		// A program that only knows older versions refuses the database.
		if _, err := open(path, testMigrations[:1]); !errors.Is(err, ErrNewerSchema) {
			t.Errorf("from %d: opening with an older program: %v, want ErrNewerSchema", from, err)
		}
	}
}

// seedV1 stores one run of fig2 with the statements of schema version 1
// (ingest writes the latest schema), from the file results/fig2.jsonl.
func seedV1(t *testing.T, db *DB) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO datasets (id, name) VALUES (1, 'test')`,
		`INSERT INTO graphs (id, dataset_id, name, n, m, graph_hash) VALUES (1, 1, 'fig2', 6, 6, '5f3c2a1b')`,
		`INSERT INTO algorithms (id, name) VALUES (1, 'bfs')`,
		`INSERT INTO implementations (id, algorithm_id, name, family, aggregation, warp_width, chunk, claim)
			VALUES (1, 1, 'topo', 'topo', '-', 1, 1, 'plain')`,
		`INSERT INTO variants (id, graph_id, algorithm_id, root, levels) VALUES (1, 1, 1, 0, 3)`,
		`INSERT INTO run_configs (id, dataset_id, algorithm_id, commit_hash, graphperf_version, repetitions, warmup,
			l2_flush, block_size, grid_cap, nvcc_version, nvcc_flags) VALUES (1, 1, 1, '', '', 3, 1, 0, 256, 0, '', '')`,
		`INSERT INTO platforms (id, name, compute_capability, sm_count, l2_bytes, clock_khz, mem_clock_khz, mem_bus_bits,
			ecc, driver_version, runtime_version) VALUES (1, 'H100', '9.0', 132, 1, 1, 1, 1, 1, 1, 1)`,
		`INSERT INTO sources (id, sha256, path, dataset_id, ingested_at, lines) VALUES (1, 'ab', 'results/fig2.jsonl', 1, 'now', 16)`,
		`INSERT INTO runs (variant_id, implementation_id, config_id, platform_id, source_id, levels, reached, result_hash,
			verified, validated, min_ns, median_ns, mean_ns, max_ns, stddev_ns) VALUES (1, 1, 1, 1, 1, 3, 6, 'x', 1, 1, 1, 1, 1, 1, 0)`,
	} {
		if _, err := db.sql.Exec(q); err != nil {
			t.Fatalf("%v in %.50s", err, q)
		}
	}
}

func TestMigrationFailureRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	bad := append(append([]migration(nil), migrations...), func(tx *sql.Tx) error {
		if _, err := tx.Exec(`CREATE TABLE half (x)`); err != nil {
			return err
		}
		return errors.New("boom")
	})
	if _, err := open(path, bad); err == nil {
		t.Fatal("no error from a failing migration")
	}
	db, err := open(path, migrations)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != len(migrations) {
		t.Errorf("version %d after a failed migration, want %d", v, len(migrations))
	}
	var n int
	db.sql.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'half'`).Scan(&n)
	if n != 0 {
		t.Error("the failed migration's table survived")
	}
}

func TestIngestFig2(t *testing.T) {
	db := memory(t)
	st, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	// fig2.jsonl: 2 roots × 4 implementations, 3 levels each; root 1's
	// vertex-push/atomic reports a wrong depth hash, verified false, and
	// two error lines.
	if st.Runs != 8 || st.Levels != 24 || st.Invalid != 1 || st.RunnerErrors != 2 {
		t.Errorf("stats %+v, want 8 runs, 24 levels, 1 invalid, 2 runner errors", st)
	}
	all, err := db.Totals(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	train, err := db.TrainingRuns(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 8 || len(train) != 7 {
		t.Errorf("%d totals, %d training runs; want 8, 7", len(all), len(train))
	}
	for _, r := range train {
		if r.Root == 1 && r.Implementation == "vertex-push/atomic" {
			t.Error("the wrong run is a training run")
		}
	}
	var view int
	db.sql.QueryRow(`SELECT count(*) FROM training_runs`).Scan(&view)
	if view != 7 {
		t.Errorf("training_runs view: %d rows, want 7", view)
	}
	root := int64(0)
	lv, err := db.LevelMedians(Filter{Graph: "fig2", Implementation: "queue", Root: &root})
	if err != nil {
		t.Fatal(err)
	}
	if len(lv) != 3 || lv[0].Level != 0 || lv[0].Frontier != 1 || lv[1].Frontier != 2 || lv[2].Frontier != 3 {
		t.Errorf("level medians %+v, want levels 0-2 with frontiers 1, 2, 3 (fig2.jsonl)", lv)
	}
	impls, _ := db.Implementations()
	plats, _ := db.Platforms()
	graphs, _ := db.Graphs("test")
	if len(impls) != 4 || len(plats) != 1 || len(graphs) != 1 || graphs[0].Name != "fig2" || graphs[0].N != 6 {
		t.Errorf("%d implementations, %d platforms, graphs %+v", len(impls), len(plats), graphs)
	}
	for _, i := range impls {
		if i.Name == "vertex-push/atomic" && (i.Family != "vertex-push" || i.Aggregation != "atomic") {
			t.Errorf("implementation %+v", i)
		}
	}
}

func TestIngestWithManifest(t *testing.T) {
	db := memory(t)
	man := manifest(t)
	for _, f := range []string{"testdata/cfg-normal-s12.jsonl.gz", "testdata/ba-s12-m16.jsonl.gz"} {
		st, err := db.IngestRunnerJSONL(f, "h100-2026-11-21", man)
		if err != nil {
			t.Fatal(err)
		}
		// 5 roots × 59 implementations (kernels/measured/h100/README.md).
		if st.Runs != 295 || st.Invalid != 0 || st.DuplicateRuns != 0 {
			t.Errorf("%s: %+v, want 295 valid runs", f, st)
		}
	}
	var commit, date string
	var reps, warmup int
	if err := db.sql.QueryRow(`SELECT commit_hash, repetitions, warmup, date FROM run_configs`).Scan(&commit, &reps, &warmup, &date); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(commit, "29a29594c861") || reps != 10 || warmup != 1 || date != "2026-11-21T19:16:30Z" {
		t.Errorf("run config %s %d %d %s", commit, reps, warmup, date)
	}
	graphs, _ := db.Graphs("")
	if len(graphs) != 2 || graphs[0].Generator == "" || !graphs[0].Directed.Valid {
		t.Errorf("graphs %+v: want 2 with generator spec and direction", graphs)
	}
	var refs int
	db.sql.QueryRow(`SELECT count(*) FROM variants WHERE reference_hash IS NOT NULL`).Scan(&refs)
	if refs != 10 {
		t.Errorf("%d variants with a reference hash, want 10", refs)
	}
}

func TestReingestChangesNothing(t *testing.T) {
	db := memory(t)
	man := manifest(t)
	const f = "testdata/cfg-normal-s12.jsonl.gz"
	if _, err := db.IngestRunnerJSONL(f, "d", man); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	st, err := db.IngestRunnerJSONL(f, "d", man)
	if err != nil || !st.Skipped {
		t.Fatalf("re-ingest: %+v %v, want skipped", st, err)
	}
	sameCounts(t, "re-ingest", before, counts(t, db))

	// The same runs in a file with other bytes: not skipped, but no run
	// is added twice.
	copyPath := filepath.Join(t.TempDir(), "plain.jsonl")
	res, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	writeGunzipped(t, res, copyPath)
	st, err = db.IngestRunnerJSONL(copyPath, "d", man)
	if err != nil || st.Skipped || st.Runs != 0 || st.DuplicateRuns != 295 {
		t.Fatalf("same runs, other file: %+v %v; want 0 new, 295 duplicates", st, err)
	}
	after := counts(t, db)
	after["sources"]--
	sameCounts(t, "same runs, other file", before, after)
}

func TestMalformedLineRejectsFile(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestRunnerJSONL("testdata/ba-s12-m16.jsonl.gz", "d", manifest(t)); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	src, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, c := range []struct {
		name string
		line int // 1-based line to replace
		text string
	}{
		{"not json", 20, `{"type":"level",`},
		{"level without total", len(lines), `{"type":"level","graph":"fig2.gpg","graph_hash":"5f3c2a1b","n":6,"m":6,"root":3,"impl":"topo","algorithm":"bfs","level":0}`},
		{"bad depth hash", 5, strings.Replace(lines[4], `"depth_hash":"b20ac75dffed2c97"`, `"depth_hash":"zz"`, 1)},
	} {
		mod := append([]string(nil), lines...)
		mod[c.line-1] = c.text
		path := filepath.Join(t.TempDir(), "bad.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(mod, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := db.IngestRunnerJSONL(path, "d", nil)
		var pe *kernels.ParseError
		if !errors.As(err, &pe) || pe.File != path || pe.Line != c.line {
			t.Errorf("%s: error %v, want a ParseError at %s:%d", c.name, err, path, c.line)
		}
		sameCounts(t, c.name, before, counts(t, db))
	}
}

func TestWrongHashNotValidated(t *testing.T) {
	db := memory(t)
	man := manifest(t)
	for i := range man.Graphs {
		if man.Graphs[i].Name == "cfg-normal-s12" {
			man.Graphs[i].ReferenceHashes[2] = "0123456789abcdef"
		}
	}
	st, err := db.IngestRunnerJSONL("testdata/cfg-normal-s12.jsonl.gz", "d", man)
	if err != nil {
		t.Fatal(err)
	}
	// Every implementation of the third root disagrees with the altered
	// reference: 59 runs stored, none validated.
	if st.Runs != 295 || st.Invalid != 59 {
		t.Errorf("%+v, want 295 runs, 59 invalid", st)
	}
	root := int64(man.Graphs[1].Roots[2])
	if man.Graphs[1].Name != "cfg-normal-s12" {
		t.Fatal("manifest order changed")
	}
	all, _ := db.Totals(Filter{Root: &root})
	train, _ := db.TrainingRuns(Filter{Root: &root})
	if len(all) != 59 || len(train) != 0 {
		t.Errorf("root %d: %d runs, %d training runs; want 59, 0", root, len(all), len(train))
	}
}

// TestIngestFullDataset ingests the whole measured H100 BFS dataset into a
// file store and reports the time.
func TestIngestFullDataset(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 644k level records")
	}
	const dir = "../../kernels/measured/h100"
	man, err := LoadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl.gz"))
	path := filepath.Join(t.TempDir(), "h100.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	var runs, levels, invalid int
	for _, f := range files {
		st, err := db.IngestRunnerJSONL(f, "h100-2026-11-21", man)
		if err != nil {
			t.Fatal(err)
		}
		runs, levels, invalid = runs+st.Runs, levels+st.Levels, invalid+st.Invalid
	}
	elapsed := time.Since(start)
	if _, err := db.sql.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("%d files, %d runs, %d levels, %d invalid in %v; database %.1f MiB",
		len(files), runs, levels, invalid, elapsed, float64(fi.Size())/(1<<20))
	// kernels/measured/h100/README.md: 179 graphs (four waves), 52,805
	// totals, 1,184,779 level records, every one validated.
	if len(files) != 179 || runs != 52805 || levels != 1184779 || invalid != 0 {
		t.Errorf("want 179 files, 52805 runs, 1184779 levels, 0 invalid")
	}
	for _, f := range files[:5] {
		if st, err := db.IngestRunnerJSONL(f, "h100-2026-11-21", man); err != nil || !st.Skipped {
			t.Errorf("re-ingest %s: %+v %v", f, st, err)
		}
	}
}

func writeGunzipped(t *testing.T, gz []byte, path string) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRepeatedLevelRejectsFile checks that a traversal with two lines of
// one level rejects the file at the second one.
func TestRepeatedLevelRejectsFile(t *testing.T) {
	db := memory(t)
	src, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	// fig2.jsonl lines 2-4: topo's levels 0-2 from root 0; line 5 its total.
	lines[3] = strings.Replace(lines[3], `"level":2,`, `"level":1,`, 1)
	path := filepath.Join(t.TempDir(), "twice.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	_, err = db.IngestRunnerJSONL(path, "d", nil)
	var pe *kernels.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "level 1") {
		t.Errorf("error %v, want a ParseError at line 4 about level 1", err)
	}
	sameCounts(t, "repeated level", before, counts(t, db))
}

func TestMatchPlatform(t *testing.T) {
	names := []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA H100 PCIe"}
	tests := []struct {
		name, want, err string
	}{
		{"NVIDIA H200", "NVIDIA H200", ""},
		{"nvidia h200", "NVIDIA H200", ""},
		{"h200", "NVIDIA H200", ""},
		{"hbm3", "NVIDIA H100 80GB HBM3", ""},
		{"h100", "", `platform "h100" matches "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe": give more of the name`},
		{"a100", "", `platform "a100": the store holds no such platform (it holds "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA H100 PCIe")`},
		{"", "", `the store holds runs of 3 platforms ("NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA H100 PCIe"): choose one with --platform`},
	}
	for _, tt := range tests {
		got, err := matchPlatform(tt.name, names)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && (err.Error() != tt.err || !errors.Is(err, ErrPlatform))) {
			t.Errorf("%q: %q, %v; want %q, %s", tt.name, got, err, tt.want, tt.err)
		}
	}
	if got, err := matchPlatform("", names[:1]); got != names[0] || err != nil {
		t.Errorf("one platform: %q, %v", got, err)
	}
	if got, err := matchPlatform("", nil); got != "" || err != nil {
		t.Errorf("no platform: %q, %v", got, err)
	}
}
