package store

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// timingsDB is a store holding testdata/timings.csv (fig2 from roots 0
// and 1 by gunrock/lb and topo, 3 levels) in dataset "d".
func timingsDB(t *testing.T) *DB {
	t.Helper()
	db := memory(t)
	res := db.IngestBatch(Batch{Inputs: CSVInputs([]string{"testdata/timings.csv"}, "d"),
		Mapping: mustMapping(t, timingsMapping)}, nil)
	if res.Failed() != 0 {
		t.Fatal(res.Files[0].Err)
	}
	return db
}

func TestQuery(t *testing.T) {
	db := timingsDB(t)
	res, err := db.Query(QueryOptions{Filter: Filter{Graph: "fig2", Implementation: "topo"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Totals) != 2 || len(res.Levels) != 0 {
		t.Fatalf("%d totals, %d levels; want 2 (roots 0 and 1), 0", len(res.Totals), len(res.Levels))
	}
	for _, r := range res.Totals {
		if r.Implementation != "topo" || r.Levels != 3 {
			t.Errorf("total %+v: want topo, 3 levels", r)
		}
	}
	root := int64(1)
	res, err = db.Query(QueryOptions{Filter: Filter{Root: &root}, Levels: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Levels) != 6 || len(res.Totals) != 0 { // 2 implementations x 3 levels
		t.Fatalf("%d levels, %d totals; want 6, 0", len(res.Levels), len(res.Totals))
	}
	res, err = db.Query(QueryOptions{Filter: Filter{Dataset: "d"}, Platform: "unknown"})
	if err != nil || len(res.Totals) != 4 {
		t.Errorf("platform unknown: %v, %d totals; want 4", err, len(res.Totals))
	}
}

func TestQueryErrors(t *testing.T) {
	db := timingsDB(t)
	_, err := db.Query(QueryOptions{Filter: Filter{Implementation: "gunrock/l"}})
	var un *UnknownNameError
	if !errors.As(err, &un) || un.Kind != "implementation" || un.Name != "gunrock/l" {
		t.Fatalf("err = %v, want an UnknownNameError of the implementation", err)
	}
	if got := NearestNames(un.Name, un.Names, 3); !reflect.DeepEqual(got, []string{"gunrock/lb"}) {
		t.Errorf("nearest to gunrock/l: %v, want [gunrock/lb]", got)
	}
	_, err = db.Query(QueryOptions{Platform: "h200"})
	var qp *QueryPlatformError
	var pe *PlatformError
	if !errors.As(err, &qp) || !errors.As(err, &pe) || pe.Name != "h200" {
		t.Errorf("err = %v, want a QueryPlatformError around a PlatformError for h200", err)
	}
}

func TestNearestNamesDedupes(t *testing.T) {
	got := NearestNames("h10", []string{"h100", "h200", "h100", "h100", "x"}, 3)
	if !reflect.DeepEqual(got, []string{"h100", "h200"}) {
		t.Errorf("got %v, want [h100 h200] (no repeats)", got)
	}
	if got := NearestNames("zzzzzzzz", []string{"h100"}, 3); len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
}

func TestExport(t *testing.T) {
	db := timingsDB(t)
	if _, err := db.Export("graphs"); !errors.Is(err, ErrExportTable) {
		t.Errorf("export graphs: err = %v, want ErrExportTable", err)
	}
	for table, want := range map[string]int{"runs": 4, "levels": 12} {
		e, err := db.Export(table)
		if err != nil {
			t.Fatal(err)
		}
		header, _ := ExportColumns(table)
		if len(e.Rows) != want || !reflect.DeepEqual(e.Header, header) {
			t.Fatalf("%s: %d rows, header %v; want %d rows", table, len(e.Rows), e.Header, want)
		}
		var buf bytes.Buffer
		if err := e.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(recs) != want+1 || !reflect.DeepEqual(recs[0], header) {
			t.Fatalf("%s CSV: %v, %d records; want the header and %d rows", table, err, len(recs), want)
		}
		col := map[string]int{}
		for i, h := range header {
			col[h] = i
		}
		for _, r := range recs[1:] {
			lo, _ := strconv.ParseFloat(r[col["min_ns"]], 64)
			med, _ := strconv.ParseFloat(r[col["median_ns"]], 64)
			hi, _ := strconv.ParseFloat(r[col["max_ns"]], 64)
			if !(lo > 0 && lo <= med && med <= hi) || r[col["graph"]] != "fig2" {
				t.Errorf("%s row %v: want fig2 with 0 < min <= median <= max", table, r)
			}
		}
	}
}

func TestOpenExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	var me *MissingStoreError
	if _, err := OpenExisting(path); !errors.As(err, &me) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want a MissingStoreError of a missing file", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenExisting created %s", path)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

func TestPlanBatch(t *testing.T) {
	b, err := PlanBatch(BatchSpec{Paths: []string{"testdata"}, Dataset: "d", CSVFiles: []string{"testdata/timings.csv"},
		Ncu: "testdata/timings.csv", NcuTarget: NcuTarget{Graph: "fig2", Implementation: "topo"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Inputs); n != 3 || !b.Inputs[2].CSV || b.Inputs[0].CSV || b.Inputs[0].Dataset != "d" {
		t.Errorf("inputs %+v: want the 2 runner files of testdata, then the CSV file, in d", b.Inputs)
	}
	if b.NcuTarget.Dataset != "d" || b.NcuTarget.Graph != "fig2" {
		t.Errorf("ncu target %+v, want dataset d", b.NcuTarget)
	}
	b, err = PlanBatch(BatchSpec{Paths: []string{"testdata/ba-s12-m16.jsonl.gz"}, Ncu: "testdata/timings.csv"})
	if err != nil || b.NcuTarget.Dataset != "testdata" {
		t.Errorf("ncu dataset: %v, %q; want the first file's, testdata", err, b.NcuTarget.Dataset)
	}
	var sc *SourceCountError
	if _, err := PlanBatch(BatchSpec{Paths: []string{"testdata"}, Options: IngestOptions{Source: "s"}}); !errors.As(err, &sc) || sc.Files != 2 {
		t.Errorf("source with 2 files: err = %v, want a SourceCountError of 2 files", err)
	}
	if _, err := PlanBatch(BatchSpec{Ncu: "testdata/timings.csv"}); !errors.Is(err, ErrNcuDataset) {
		t.Errorf("ncu alone: err = %v, want ErrNcuDataset", err)
	}
	var me *ManifestError
	if _, err := PlanBatch(BatchSpec{Paths: []string{"testdata/ba-s12-m16.jsonl.gz"}, Manifest: "testdata/none.json"}); !errors.As(err, &me) {
		t.Errorf("missing manifest: err = %v, want a ManifestError", err)
	}
	if _, err := PlanBatch(BatchSpec{Ncu: "testdata/none.csv", Dataset: "d"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing ncu file: err = %v, want not exist", err)
	}
}

func TestNewCSVMapping(t *testing.T) {
	const spec = "graph=GraphName,root=src,implementation=impl,level=lvl,time=ms"
	m, err := NewCSVMapping(spec, "ms", "H100", "bfs")
	if err != nil || m.TimeUnit != "ms" || m.PlatformName != "H100" || m.AlgorithmName != "bfs" {
		t.Fatalf("%+v, %v: want unit ms, platform H100, algorithm bfs", m, err)
	}
	if m, err := NewCSVMapping(timingsMapping, "", "", ""); err != nil || m.TimeUnit != "ms" {
		t.Errorf("time_ms: %+v, %v; want unit ms", m, err)
	}
	if _, err := NewCSVMapping(spec, "fortnight", "", ""); !errors.Is(err, ErrTimeUnit) {
		t.Errorf("bad unit: err = %v, want ErrTimeUnit", err)
	}
	if _, err := NewCSVMapping(spec, "", "", ""); !errors.Is(err, ErrNoTimeUnit) {
		t.Errorf("no unit: err = %v, want ErrNoTimeUnit", err)
	}
	var tc *TimeUnitConflictError
	if _, err := NewCSVMapping(timingsMapping, "us", "", ""); !errors.As(err, &tc) || tc.Unit != "us" || tc.Mapped != "ms" {
		t.Errorf("us against time_ms: err = %v, want a TimeUnitConflictError", err)
	}
	if _, err := NewCSVMapping("graph=GraphName,time_ms=ms", "", "", ""); !errors.Is(err, ErrMapping) {
		t.Errorf("no implementation column: err = %v, want ErrMapping", err)
	}
}
