package store

import "testing"

func TestIngestNcuCSV(t *testing.T) {
	db := memory(t)
	const dir = "../../kernels/measured/h100/"
	man, err := LoadManifest(dir + "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.IngestRunnerJSONL(dir+"rmat-s18-e8.jsonl.gz", "h100", man); err != nil {
		t.Fatal(err)
	}
	// ncu/rmat-s18-e8.log: k_topo profiled from root 148956, the graph's
	// first sweep root.
	target := NcuTarget{Dataset: "h100", Graph: "rmat-s18-e8", Implementation: "topo", Root: 148956}
	st, err := db.IngestNcuCSV(dir+"ncu/rmat-s18-e8.csv.gz", target)
	if err != nil {
		t.Fatal(err)
	}
	// The CSV holds 9 k_topo launches (rows 3-11).
	if st.Levels != 9 || st.Counters == 0 {
		t.Fatalf("%+v, want 9 levels with counters", st)
	}
	again, err := db.IngestNcuCSV(dir+"ncu/rmat-s18-e8.csv.gz", target)
	if err != nil || again != st {
		t.Fatalf("re-ingest: %+v %v", again, err)
	}
	cs, err := db.VariantCounters(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != st.Counters {
		t.Errorf("%d counters stored, %d ingested: re-ingest added rows", len(cs), st.Counters)
	}
	found := false
	for _, c := range cs {
		if c.Level == 0 && c.Metric == "gpu__time_duration.sum" && c.Value > 0 {
			found = true
		}
	}
	if !found {
		t.Error("no gpu__time_duration.sum of level 0")
	}
	target.Root = 1
	if _, err := db.IngestNcuCSV(dir+"ncu/rmat-s18-e8.csv.gz", target); err == nil {
		t.Error("no error for a variant that is not stored")
	}
}
