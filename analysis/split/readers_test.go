package split

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/store"
)

// The two readers of a results directory, set side by side: LoadDir, and
// ingesting the directory into an in-memory store and reading it back
// (FromStoreOn). docs/PERFORMANCE.md, "One reader of measurements", gives
// the numbers.

var (
	embeddedDir = filepath.Join("..", "..", "kernels", "measured", "h100")
	wave7Dir    = filepath.Join(embeddedDir, "unseen-wave7")
)

// loadViaStore ingests the runner files of dir (store.Inputs: its
// *.jsonl(.gz) files with its manifest) into a new in-memory store and reads
// the validated BFS runs back with FromStoreOn.
func loadViaStore(dir string) (*Data, error) {
	db, err := ingestMemory(dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	d, _, err := FromStoreOn(db, "", "")
	return d, err
}

// ingestMemory ingests the runner files of dir into a new in-memory store.
func ingestMemory(dir string) (*store.DB, error) {
	db, err := store.OpenMemory()
	if err != nil {
		return nil, err
	}
	ins, err := store.Inputs([]string{dir}, "d", "")
	if err != nil {
		db.Close()
		return nil, err
	}
	mc := store.Manifests{}
	for _, in := range ins {
		if _, err := mc.Ingest(db, in, store.IngestOptions{}); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

func benchmarkReaders(b *testing.B, dir string) {
	b.Run("LoadDir", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := LoadDir(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AggregateLoadDir", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := aggregate.LoadDir(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	// MemoryStoreQuery is the read-back alone, from a store ingested
	// before the timer starts.
	b.Run("MemoryStoreQuery", func(b *testing.B) {
		db, err := ingestMemory(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, _, err := FromStoreOn(db, "", ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MemoryStore", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := loadViaStore(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadersEmbedded reads the embedded H100 dataset (179 graphs,
// 34 MB of gzipped runner output) both ways: LoadDir (and the
// aggregate.LoadDir it calls), and ingesting into an in-memory store then
// FromStoreOn (MemoryStore; MemoryStoreQuery is FromStoreOn alone).
//
//	go test -run '^$' -bench Readers -benchmem -benchtime 3x ./analysis/split/
func BenchmarkReadersEmbedded(b *testing.B) { benchmarkReaders(b, embeddedDir) }

// BenchmarkReadersWave7 reads a small results directory (20 graphs) both
// ways.
func BenchmarkReadersWave7(b *testing.B) { benchmarkReaders(b, wave7Dir) }

// readerDifferences lists how the runs, level times, frontiers and real
// graphs of the two readers differ, and counts, as known, what the store
// does not hold: graph properties (it has a table for them that nothing
// fills; LoadDir reads PropsName), the warnings of LoadDir, and per run the
// reached count, the depth hash and the times over the repetitions (min,
// mean, max, stddev of the total and of each level), which aggregate uses
// for the spread columns.
func readerDifferences(dir, store *Data) (diffs, known []string) {
	type key struct {
		in   aggregate.Input
		impl string
	}
	byKey := func(d *Data) (map[key]aggregate.Run, []key) {
		m := map[key]aggregate.Run{}
		var order []key
		for _, r := range d.Runs {
			k := key{r.Input, r.Impl}
			m[k] = r
			order = append(order, k)
		}
		return m, order
	}
	var reached, times int
	dm, dOrder := byKey(dir)
	sm, sOrder := byKey(store)
	for _, k := range dOrder {
		r, ok := sm[k]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("run %s on %s: only from the directory", k.impl, k.in))
			continue
		}
		d := dm[k]
		if d.TotalNs != r.TotalNs || d.Vertices != r.Vertices || d.Edges != r.Edges {
			diffs = append(diffs, fmt.Sprintf("run %s on %s: total %v/%v, n %d/%d, m %d/%d", k.impl, k.in,
				d.TotalNs, r.TotalNs, d.Vertices, r.Vertices, d.Edges, r.Edges))
		}
		if !reflect.DeepEqual(d.LevelNs, r.LevelNs) {
			diffs = append(diffs, fmt.Sprintf("run %s on %s: level times %v from the directory, %v from the store",
				k.impl, k.in, d.LevelNs, r.LevelNs))
		}
		if d.Reached != r.Reached || d.DepthHash != r.DepthHash {
			reached++
		}
		if d.Total != r.Total || !reflect.DeepEqual(d.Levels, r.Levels) {
			times++
		}
	}
	for _, k := range sOrder {
		if _, ok := dm[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("run %s on %s: only from the store", k.impl, k.in))
		}
	}
	if len(diffs) == 0 && !reflect.DeepEqual(dOrder, sOrder) {
		diffs = append(diffs, "the runs come in another order")
	}
	var ins []aggregate.Input
	for in := range dir.Frontiers {
		ins = append(ins, in)
	}
	for in := range store.Frontiers {
		if _, ok := dir.Frontiers[in]; !ok {
			ins = append(ins, in)
		}
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].String() < ins[j].String() })
	for _, in := range ins {
		if f, g := dir.Frontiers[in], store.Frontiers[in]; !reflect.DeepEqual(f, g) {
			diffs = append(diffs, fmt.Sprintf("frontiers of %s: %v from the directory, %v from the store", in, f, g))
		}
	}
	if !reflect.DeepEqual(dir.Real, store.Real) {
		diffs = append(diffs, fmt.Sprintf("real graphs: %v from the directory, %v from the store", dir.Real, store.Real))
	}
	if len(dir.Props) != len(store.Props) {
		known = append(known, fmt.Sprintf("graph properties of %d graphs from the directory, %d from the store",
			len(dir.Props), len(store.Props)))
	}
	if !reflect.DeepEqual(dir.Warnings, store.Warnings) {
		known = append(known, fmt.Sprintf("warnings: %q from the directory, %q from the store", dir.Warnings, store.Warnings))
	}
	if reached > 0 {
		known = append(known, fmt.Sprintf("reached and depth hash: differ on %d of %d runs", reached, len(dir.Runs)))
	}
	if times > 0 {
		known = append(known, fmt.Sprintf("times over the repetitions (Total, Levels): differ on %d of %d runs", times, len(dir.Runs)))
	}
	return diffs, known
}

// TestReadersAgree loads a small results directory both ways, LoadDir and
// ingesting it into an in-memory store (FromStoreOn), and checks that they
// give the same runs in the same order, with the same total and level
// times, frontiers and real graphs; the differences readerDifferences
// knows of are logged (-v). The two share the manifest reading
// (kernels.ReadManifest), the graph names (kernels.GraphName), the
// reference hash a run is validated against (kernels.GraphRecord.
// ReferenceHash) and the real graphs (realGraphs). With -short it reads
// only the two files of ../store/testdata, else also
// kernels/measured/h100/unseen-wave7 (20 graphs, about 10 s).
func TestReadersAgree(t *testing.T) {
	dirs := []string{filepath.Join("..", "store", "testdata")}
	if !testing.Short() {
		dirs = append(dirs, wave7Dir)
	}
	for _, dir := range dirs {
		fromDir, err := LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		fromStore, err := loadViaStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(fromDir.Runs) == 0 {
			t.Fatalf("%s: no runs", dir)
		}
		diffs, known := readerDifferences(fromDir, fromStore)
		for _, d := range diffs {
			t.Errorf("%s: %s", dir, d)
		}
		for _, d := range known {
			t.Logf("%s (known): %s", dir, d)
		}
	}
}
