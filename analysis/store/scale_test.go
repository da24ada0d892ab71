package store

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// thesisRows sizes the thesis-scale benchmarks. The target is 1M
// runs and 25M level rows (-thesis-rows 25000000); the default runs in a few
// seconds.
var thesisRows = flag.Int("thesis-rows", 300_000, "level rows the thesis-scale benchmarks generate (the target: 25000000)")

// synthetic describes a synthetic sweep with the real runner schema: one
// file per graph, each with roots × implementations traversals of
// 15-35 levels (25 on average, about the thesis's), in the runner's order
// (per root, per implementation: its level lines, then its total line).
// The device line and the 59 implementations' identities are those of the
// H100 sweep (testdata/ba-s12-m16.jsonl.gz); graphs, roots, level counts,
// frontiers and times come from a PRNG seeded by the graph index, so every
// file is the same on every run.
type synthetic struct {
	Graphs, Roots int
	device        *kernels.Device
	impls         []kernels.Identity
}

// syntheticLevelsMean is the mean level count of a synthetic traversal.
const syntheticLevelsMean = 25

// newSynthetic plans about rows level rows with 5 roots per graph, as the
// H100 sweep has.
func newSynthetic(tb testing.TB, rows int) *synthetic {
	tb.Helper()
	res, err := kernels.ReadFile("testdata/ba-s12-m16.jsonl.gz")
	if err != nil {
		tb.Fatal(err)
	}
	s := &synthetic{Roots: 5, device: res.Device}
	seen := map[string]bool{}
	for _, t := range res.Totals {
		if !seen[t.Impl] {
			seen[t.Impl] = true
			s.impls = append(s.impls, t.Identity)
		}
	}
	perGraph := s.Roots * len(s.impls) * syntheticLevelsMean
	s.Graphs = max(1, (rows+perGraph-1)/perGraph)
	return s
}

func (s *synthetic) graphName(g int) string { return fmt.Sprintf("syn-%05d", g) }

// variant is what every implementation of one (graph, root) shares.
type syntheticVariant struct {
	root     uint32
	levels   int
	frontier []int64
	hash     string
}

func (s *synthetic) variants(g int) (n, m int64, vs []syntheticVariant) {
	r := rand.New(rand.NewPCG(uint64(g), 0x9e3779b97f4a7c15))
	n = int64(1<<12 + r.IntN(1<<22))
	m = n * int64(2+r.IntN(30))
	for range s.Roots {
		v := syntheticVariant{root: uint32(r.Int64N(n)), levels: 15 + r.IntN(21)}
		v.hash = kernels.FormatHash(r.Uint64())
		for range v.levels {
			v.frontier = append(v.frontier, 1+r.Int64N(n/8))
		}
		vs = append(vs, v)
	}
	return n, m, vs
}

// manifest is the sweep manifest of the synthetic graphs: their Go
// reference hashes, so that every run is validated as in the H100 sweep.
func (s *synthetic) manifest() *kernels.Manifest {
	man := &kernels.Manifest{Runs: []kernels.RunRecord{{
		Started:   "2026-11-21T19:16:30Z",
		Graphperf: "v0.0.0-synthetic 29a29594c861",
	}}}
	for g := range s.Graphs {
		n, m, vs := s.variants(g)
		rec := kernels.GraphRecord{Name: s.graphName(g), N: n, M: m, Directed: true,
			GraphHash: fmt.Sprintf("%08x", uint32(g)*2654435761), Seed: uint64(g), Run: 0}
		for _, v := range vs {
			rec.Roots = append(rec.Roots, v.root)
			rec.ReferenceHashes = append(rec.ReferenceHashes, v.hash)
		}
		man.Graphs = append(man.Graphs, rec)
	}
	return man
}

// write writes graph g's file, gzip-compressed like the sweep's, and
// returns its level rows.
func (s *synthetic) write(path string, g int) (levels int, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	zw, err := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(zw, 1<<16)
	dev := *s.device
	dev.Command = "graphperf-bfs --graph " + s.graphName(g) + ".gpg --impl all --reps 10 --warmup 1"
	if err := writeDeviceLine(w, &dev); err != nil {
		return 0, err
	}
	n, m, vs := s.variants(g)
	r := rand.New(rand.NewPCG(uint64(g), 1))
	hash := fmt.Sprintf("%08x", uint32(g)*2654435761)
	var b []byte
	for _, v := range vs {
		for _, id := range s.impls {
			id.Graph, id.GraphHash, id.N, id.M, id.Root = s.graphName(g)+".gpg", hash, n, m, v.root
			head := identityJSON(id)
			var total float64
			for l := range v.levels {
				med := 2000 + float64(v.frontier[l])*(0.5+r.Float64())
				total += med
				b = append(b[:0], `{"type":"level",`...)
				b = append(b, head...)
				b = append(b, `,"level":`...)
				b = strconv.AppendInt(b, int64(l), 10)
				b = append(b, `,"frontier":`...)
				b = strconv.AppendInt(b, v.frontier[l], 10)
				b = append(b, `,"discovered":`...)
				next := int64(0)
				if l+1 < v.levels {
					next = v.frontier[l+1]
				}
				b = strconv.AppendInt(b, next, 10)
				b = append(b, `,"device_count":1,"direction":"-","convert":"-","grid":16,"block_size":256,"reps":10`...)
				b = appendTimes(b, "", med)
				b = append(b, "}\n"...)
				w.Write(b)
			}
			levels += v.levels
			b = append(b[:0], `{"type":"total",`...)
			b = append(b, head...)
			b = append(b, `,"levels":`...)
			b = strconv.AppendInt(b, int64(v.levels), 10)
			b = append(b, `,"reached":`...)
			b = strconv.AppendInt(b, n, 10)
			b = append(b, `,"depth_hash":"`...)
			b = append(b, v.hash...)
			b = append(b, `","verified":true,"l2_flush":true,"block_size":256,"grid_cap":2112,"reps":10,"warmup":1`...)
			if id.Impl == "dobfs" {
				// Top-down at every level (made up, as the times).
				b = append(b, `,"bottom_up_levels":0,"directions":"`...)
				b = append(b, strings.Repeat("T", v.levels)...)
				b = append(b, '"')
			}
			b = appendTimes(b, "", total)
			b = appendTimes(b, "wall_", total*1.4)
			b = append(b, "}\n"...)
			w.Write(b)
		}
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return levels, zw.Close()
}

// identityJSON writes id's keys as the runner does.
func identityJSON(id kernels.Identity) []byte {
	return fmt.Appendf(nil, `"graph":%q,"graph_hash":%q,"n":%d,"m":%d,"root":%d,"impl":%q,"algorithm":"bfs",`+
		`"aggregation":%q,"warp_width":%d,"chunk":%d,"claim":%q`,
		id.Graph, id.GraphHash, id.N, id.M, id.Root, id.Impl, id.Aggregation, id.WarpWidth, id.Chunk, id.Claim)
}

// appendTimes appends the five summary times around median, with one
// decimal as the runner prints them.
func appendTimes(b []byte, prefix string, median float64) []byte {
	for _, f := range []struct {
		key    string
		factor float64
	}{{"min_ns", 0.95}, {"median_ns", 1}, {"mean_ns", 1.01}, {"max_ns", 1.07}, {"stddev_ns", 0.02}} {
		b = append(b, `,"`...)
		b = append(b, prefix...)
		b = append(b, f.key...)
		b = append(b, `":`...)
		b = strconv.AppendFloat(b, float64(int64(median*f.factor*10))/10, 'f', 1, 64)
	}
	return b
}

// writeDeviceLine writes d as the runner's device line.
func writeDeviceLine(w *bufio.Writer, d *kernels.Device) error {
	js, err := json.Marshal(d)
	if err != nil {
		return err
	}
	w.WriteString(`{"type":"device",`)
	w.Write(js[1:])
	return w.WriteByte('\n')
}

// ingestSynthetic ingests s into db, one file at a time: each file is
// written to dir just before its ingest and removed after it, so the disk
// holds one file, and only the ingests are timed (b's timer runs only
// during them). It returns the runs and level rows stored.
func ingestSynthetic(tb testing.TB, b *testing.B, db *DB, s *synthetic, dir string) (runs, levels int, ingest time.Duration) {
	tb.Helper()
	man := s.manifest()
	for g := range s.Graphs {
		if b != nil {
			b.StopTimer()
		}
		path := filepath.Join(dir, s.graphName(g)+".jsonl.gz")
		if _, err := s.write(path, g); err != nil {
			tb.Fatal(err)
		}
		if b != nil {
			b.StartTimer()
		}
		st, err := db.IngestRunnerJSONL(path, "synthetic", man)
		if err != nil {
			tb.Fatal(err)
		}
		ingest += st.Duration
		runs, levels = runs+st.Runs, levels+st.Levels
		if st.Invalid != 0 || st.DuplicateRuns != 0 {
			tb.Fatalf("%s: %+v, want every run new and validated", path, st)
		}
		if b != nil {
			b.StopTimer()
		}
		os.Remove(path)
		if b != nil {
			b.StartTimer()
		}
	}
	return runs, levels, ingest
}

// BenchmarkIngestThesisScale ingests a synthetic sweep of -thesis-rows level
// rows (about 1 run per 25) into a new file store, one transaction per
// file, and reports level rows and runs stored per second of ingest. The
// issue's target: 25M level rows in 120 s on 2 cores, 208,000 per second:
//
//	go test ./analysis/store -run '^$' -bench IngestThesisScale -benchtime 1x -thesis-rows 25000000 -timeout 1h
func BenchmarkIngestThesisScale(b *testing.B) {
	s := newSynthetic(b, *thesisRows)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		db, err := Open(filepath.Join(dir, "thesis.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		runs, levels, ingest := ingestSynthetic(b, b, db, s, dir)
		b.StopTimer()
		db.Close()
		b.ReportMetric(float64(levels)/ingest.Seconds(), "levels/s")
		b.ReportMetric(float64(runs)/ingest.Seconds(), "runs/s")
		b.ReportMetric(float64(levels), "levels")
		b.StartTimer()
	}
}

// aggregateRuns reads the validated BFS runs of db as the aggregate tables
// take them (aggregate.FromResults does so from a results directory), with
// RunTimes.
func aggregateRuns(db *DB) ([]aggregate.Run, error) {
	stored, err := db.RunTimes(Filter{Algorithm: kernels.AlgorithmBFS, ValidatedOnly: true})
	if err != nil {
		return nil, err
	}
	runs := make([]aggregate.Run, len(stored))
	for i, r := range stored {
		runs[i] = aggregate.Run{Input: aggregate.Input{Graph: r.Graph, Root: uint32(r.Root)}, Impl: r.Implementation,
			TotalNs: r.MedianNs, LevelNs: r.LevelMedianNs}
	}
	return runs, nil
}

// aggregateRunsJoined does what aggregateRuns does with Totals and
// LevelMedians, the queries RunTimes was written to replace at scale: they
// join seven tables per level row and sort.
func aggregateRunsJoined(db *DB) ([]aggregate.Run, error) {
	f := Filter{Algorithm: kernels.AlgorithmBFS, ValidatedOnly: true}
	totals, err := db.Totals(f)
	if err != nil {
		return nil, err
	}
	levels, err := db.LevelMedians(f)
	if err != nil {
		return nil, err
	}
	runs := make([]aggregate.Run, len(totals))
	index := make(map[int64]int, len(totals))
	for i, t := range totals {
		runs[i] = aggregate.Run{Input: aggregate.Input{Graph: t.Graph, Root: uint32(t.Root)}, Impl: t.Implementation,
			TotalNs: t.MedianNs, LevelNs: make([]float64, t.Levels)}
		index[t.RunID] = i
	}
	for _, l := range levels {
		r := &runs[index[l.RunID]]
		if l.Level < 0 || l.Level >= len(r.LevelNs) {
			return nil, fmt.Errorf("run %d: level %d of %d", l.RunID, l.Level, len(r.LevelNs))
		}
		r.LevelNs[l.Level] = l.MedianNs
	}
	return runs, nil
}

// BenchmarkAggregateThesisScale builds the aggregate tables (seed 004
// tables 4.5 and 4.6) from a store of -thesis-rows synthetic level rows:
// the store's query, then aggregate.Summarize against the total and against
// the levels. RunTimes reads with the store's RunTimes, Joined with Totals
// and LevelMedians. The ingest is not timed. The target: the
// tables over 25M level rows in 30 s:
//
//	go test ./analysis/store -run '^$' -bench AggregateThesisScale/RunTimes -benchtime 1x -thesis-rows 25000000 -timeout 1h
func BenchmarkAggregateThesisScale(b *testing.B) {
	s := newSynthetic(b, *thesisRows)
	dir := b.TempDir()
	db, err := Open(filepath.Join(dir, "thesis.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	runs, levels, _ := ingestSynthetic(b, nil, db, s, dir)
	for _, q := range []struct {
		name string
		read func(*DB) ([]aggregate.Run, error)
	}{{"RunTimes", aggregateRuns}, {"Joined", aggregateRunsJoined}} {
		b.Run(q.name, func(b *testing.B) {
			for range b.N {
				start := time.Now()
				got, err := q.read(db)
				if err != nil {
					b.Fatal(err)
				}
				query := time.Since(start)
				if len(got) != runs {
					b.Fatalf("%d runs read, %d stored", len(got), runs)
				}
				for _, a := range []aggregate.Against{aggregate.AgainstTotal, aggregate.AgainstLevels} {
					t, err := aggregate.Summarize(got, a)
					if err != nil {
						b.Fatal(err)
					}
					if len(t.Rows) != len(s.impls) {
						b.Fatalf("%d rows, want %d", len(t.Rows), len(s.impls))
					}
				}
				total := time.Since(start)
				b.ReportMetric(query.Seconds(), "query-s")
				b.ReportMetric((total - query).Seconds(), "summarize-s")
				b.ReportMetric(float64(levels)/total.Seconds(), "levels/s")
			}
		})
	}
}
