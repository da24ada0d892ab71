package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ingestFiles are two files of the H100 sweep (ba-s12-m16 and
// cfg-normal-s12, copied from analysis/store/testdata) and their manifest.
var ingestFiles = []string{"--manifest", "testdata/ingest-manifest.json",
	"testdata/ingest-ba-s12-m16.jsonl.gz", "testdata/ingest-cfg-normal-s12.jsonl.gz"}

// testStore ingests ingestFiles into a new store and returns its path.
func testStore(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "results.db")
	if _, stderr, err := runCLI(t, append([]string{"bench", "ingest", "--db", db}, ingestFiles...)...); err != nil {
		t.Fatalf("ingest: %v\n%s", err, stderr)
	}
	return db
}

func TestDataGolden(t *testing.T) {
	db := testStore(t)
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"data-list", []string{"data", "list", "--db", db}, false},
		{"data-query-root", []string{"data", "query", "--db", db, "--graph", "ba-s12-m16", "--impl", "topo", "--root", "222"}, false},
		{"data-query-levels-csv", []string{"data", "query", "--db", db, "--graph", "ba-s12-m16", "--impl", "topo", "--root", "222", "--levels", "--csv"}, false},
		{"data-query-bad-root", []string{"data", "query", "--db", db, "--root", "x"}, true},
		{"data-export-bad-table", []string{"data", "export", "--db", db, "--table", "graphs", "-o", "x.csv"}, true},
		{"data-help", []string{"data"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v\n%s", err, tt.wantErr, stderr)
			}
			golden(t, tt.name+".stdout", stdout)
			golden(t, tt.name+".stderr", stderr)
		})
	}
}

func TestDataListJSONKeys(t *testing.T) {
	stdout, _, err := runCLI(t, "data", "list", "--json", "--db", testStore(t))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("not one JSON object: %v", err)
	}
	for _, k := range []string{"graphs", "implementations", "platforms"} {
		var a []map[string]any
		if err := json.Unmarshal(m[k], &a); err != nil || len(a) == 0 {
			t.Errorf("%s: want a non-empty array, got %s (%v)", k, m[k], err)
		}
	}
	var graphs []map[string]any
	json.Unmarshal(m["graphs"], &graphs)
	if len(graphs) != 2 || graphs[0]["name"] != "ba-s12-m16" || graphs[1]["name"] != "cfg-normal-s12" {
		t.Errorf("graphs %v, want ba-s12-m16 and cfg-normal-s12", graphs)
	}
}

func TestDataQueryFilters(t *testing.T) {
	db := testStore(t)
	query := func(args ...string) []map[string]any {
		t.Helper()
		stdout, stderr, err := runCLI(t, append([]string{"data", "query", "--db", db, "--json"}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	all := query()
	byGraph := query("--graph", "ba-s12-m16")
	byImpl := query("--graph", "ba-s12-m16", "--impl", "topo")
	// ingest reported 295 runs per file (5 roots x 59 implementations).
	if len(all) != 590 || len(byGraph) != 295 || len(byImpl) != 5 {
		t.Fatalf("%d, %d, %d rows; want 590, 295, 5", len(all), len(byGraph), len(byImpl))
	}
	for _, r := range byImpl {
		if r["graph"] != "ba-s12-m16" || r["impl"] != "topo" {
			t.Errorf("filtered row %v", r)
		}
	}
	one := query("--graph", "ba-s12-m16", "--impl", "topo", "--root", "222")
	if len(one) != 1 || one[0]["root"] != 222.0 {
		t.Errorf("--root 222: %v", one)
	}
	levels := query("--graph", "ba-s12-m16", "--impl", "topo", "--root", "222", "--levels")
	if len(levels) != int(one[0]["levels"].(float64)) {
		t.Errorf("%d level rows, the run has %v levels", len(levels), one[0]["levels"])
	}
	// An unknown name is an error with the nearest names, not an empty
	// table.
	for _, c := range []struct{ flag, value, want string }{
		{"--graph", "ba-s12-m61", `--graph "ba-s12-m61": the store holds no such graph; did you mean ba-s12-m16`},
		{"--impl", "tpoo", `--impl "tpoo": the store holds no such implementation; did you mean topo`},
		{"--columns", "graph,medain_ns", `--columns: no column "medain_ns"; did you mean median_ns`},
	} {
		_, stderr, err := runCLI(t, "data", "query", "--db", db, c.flag, c.value)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: %v\n%s", c.flag, c.value, err, stderr)
		}
	}
}

func TestDataExportHeader(t *testing.T) {
	db := testStore(t)
	for table, want := range map[string]string{
		"runs":   "run_id,dataset,graph,algorithm,impl,root,platform,levels,min_ns,median_ns,mean_ns,max_ns,stddev_ns,validated",
		"levels": "run_id,graph,impl,root,level,frontier,discovered,direction,min_ns,median_ns,mean_ns,max_ns,stddev_ns",
	} {
		out := filepath.Join(t.TempDir(), table+".csv")
		if _, stderr, err := runCLI(t, "data", "export", "--db", db, "--table", table, "-o", out); err != nil {
			t.Fatalf("%s: %v\n%s", table, err, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rows[0], ","); got != want {
			t.Errorf("%s header %s, want %s", table, got, want)
		}
		if len(rows) < 2 {
			t.Errorf("%s: no rows", table)
		}
	}
}

// TestDataNoDBUsesEmbedded runs in an empty working directory: without --db
// the store of the embedded dataset is built once in the cache (TestMain
// points it at a temporary directory), reused the second time, and nothing
// is written into the working directory.
func TestDataNoDBUsesEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests the whole H100 dataset")
	}
	wd := t.TempDir()
	t.Chdir(wd)
	var lists [2]dataListJSON
	for i := range lists {
		stdout, stderr, err := runCLI(t, "data", "list", "--json")
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if built := strings.Contains(stderr, "building the store of the embedded datasets"); built && i > 0 {
			t.Errorf("call %d built the store again: %q", i+1, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &lists[i]); err != nil {
			t.Fatal(err)
		}
	}
	// 179 H100 BFS graphs (the PageRank sweep has 94 of them, the first
	// wave) and 52 H200 ones (47 of h200-bfs.yaml, 5 of 2^23 vertices of
	// h200-bfs-large.yaml): one graph row each, as a graph is stored once
	// per dataset and name.
	per := map[string]int{}
	for _, g := range lists[0].Graphs {
		per[g.Dataset]++
	}
	if per["h100"] != 179 || per["h200"] != 52 || len(per) != 2 {
		t.Errorf("graphs per dataset %v, want h100 179, h200 52", per)
	}
	if len(lists[1].Graphs) != len(lists[0].Graphs) {
		t.Errorf("the cached store lists %d graphs, the new one %d", len(lists[1].Graphs), len(lists[0].Graphs))
	}
	if after, _ := os.ReadDir(wd); len(after) != 0 {
		t.Errorf("the working directory got %d entries", len(after))
	}
}
