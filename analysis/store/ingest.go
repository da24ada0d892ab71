package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/kernels"
)

// Stats says what one ingest did.
type Stats struct {
	File   string
	SHA256 string // of the file's bytes as stored (compressed or not)
	// Source is the name the file is stored under (IngestOptions).
	Source string
	// Skipped is true when a file with the same content was ingested
	// before; nothing was read or written. StoredAs is then the source
	// name it is stored under (and " of dataset D" for another dataset).
	Skipped  bool
	StoredAs string
	// Replaced is what IngestOptions.Replace deleted first.
	Replaced DeleteStats
	Lines    int
	// Traversals counts the file's traversals (its total lines; a
	// traversal comes once in a file, kernels.Traversals). Each is a run
	// stored (Runs) or a duplicate of a run stored before from another
	// file (DuplicateRuns: the same variant, implementation, config and
	// platform), which is kept as first stored and not replaced.
	Traversals          int
	Runs, DuplicateRuns int
	Levels              int // level timings stored
	Invalid             int // runs stored with validated = false
	// NotResults is set for a file without a traversal whose device line
	// names another tool than the runners whose traversals the store
	// holds (a results directory's microbench.jsonl): the tool. Nothing
	// of it is stored, and that is no error.
	NotResults   string
	RunnerErrors int // the runner's "error" lines (their totals are not validated)
	Duration     time.Duration
}

// LoadManifest reads a sweep's manifest.json (kernels.Manifest) with
// kernels.ReadManifest, as a results directory's reader
// (aggregate.LoadDir) reads it.
func LoadManifest(path string) (*kernels.Manifest, error) { return kernels.ReadManifest(path) }

// IngestRunnerJSONL stores the runner's JSON lines (kernels/jsonl.go) in
// the file at path, gzip-compressed or not, as measurements of dataset.
//
// man, when not nil, is the sweep manifest the file belongs to: it gives
// the graphs' generator spec or source file, direction and seed, the Go
// reference hash of every root (validation), and the code version and date
// of the sweep call that measured the graph. Without it the runner's own
// check (the total's "verified") decides validation and the code version is
// unknown (”).
//
// The file is read with kernels.Reader, by the format's declaration
// (kernels.RecordKinds), and ingested in one transaction: a malformed or
// inconsistent line (a required key missing, a value of the wrong type or
// out of range, a traversal the file holds twice) rejects the whole file
// with a *kernels.ParseError naming file, line and field, and nothing is
// stored. So does a file that cannot be read whole (empty, a gzip stream
// cut short: a *kernels.FileError) or that holds no traversal (a
// *NoTraversalError): nothing is stored for it, not even its source. Deduplication works at two levels: a file whose
// SHA-256 was ingested before is skipped (Stats.Skipped), and a run whose
// (variant, implementation, run config, platform) is already stored is
// left as it is and counted in Stats.DuplicateRuns, so re-measuring under
// the same configuration never adds twins; a re-measurement meant to be
// kept needs a different run configuration (commit, repetitions, ...).
//
// A run whose result hash differs from its variant's reference hash is
// stored with validated = false; TrainingRuns and the training_runs view
// leave it out.
//
// The file is stored as a source of the name its base name or opt.Source
// gives (sources.go): a file whose content is stored is skipped, one whose
// name the dataset holds with other content is refused with a
// *SourceChangedError unless opt.Replace, which deletes the old source's
// runs in the same transaction.
func (db *DB) IngestRunnerJSONL(path, dataset string, man *kernels.Manifest) (Stats, error) {
	return db.IngestRunnerJSONLWith(path, dataset, man, IngestOptions{})
}

// IngestRunnerJSONLWith is IngestRunnerJSONL with options.
func (db *DB) IngestRunnerJSONLWith(path, dataset string, man *kernels.Manifest, opt IngestOptions) (st Stats, err error) {
	start := time.Now()
	st.File = path
	st.Source = opt.sourceName(path)
	defer func() { st.Duration = time.Since(start) }()
	raw, err := os.ReadFile(path)
	if err != nil {
		return st, fmt.Errorf("ingest: %w", err)
	}
	sum := sha256.Sum256(raw)
	st.SHA256 = hex.EncodeToString(sum[:])
	rd, err := kernels.NewFileReader(bytes.NewReader(raw), int64(len(raw)), path)
	if err != nil {
		return st, err
	}
	// A connection of its own, so that the level rows can go to the driver
	// directly (flushLevels).
	ctx := context.Background()
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	defer conn.Close()
	tx, release, err := db.beginWrite(ctx, conn)
	if err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	defer release()
	faultpoint.Hit("ingest: begin")
	defer func() {
		if err != nil || st.NotResults != "" {
			tx.Rollback()
			return
		}
		faultpoint.Hit("ingest: commit")
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("ingest %s: commit: %w", path, err)
		}
		faultpoint.Hit("ingest: committed")
	}()
	if done, err := st.claim(tx, dataset, opt); err != nil || done {
		return st, err
	}
	in, err := newIngester(tx, conn, path, dataset, man)
	if err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	defer in.close()
	in.st = &st
	if err := in.source(st.SHA256); err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	faultpoint.Hit("ingest: source")
	// Reading and decoding (one goroutine) overlap with storing (this
	// one): on two cores that nearly halves the time.
	recs := decodeAsync(rd)
	defer recs.stop()
	for batch := range recs.batches {
		for _, lr := range batch.recs {
			if err := in.record(lr.rec, lr.line); err != nil {
				return st, lineError(path, lr.line, lr.rec, err)
			}
			st.Lines = lr.line
		}
		if batch.err != nil {
			return st, batch.err
		}
		faultpoint.Hit("ingest: records")
	}
	if err := in.finish(); err != nil {
		return st, err
	}
	if st.Traversals == 0 {
		if d := in.device; d != nil && !runnerTools[d.Tool] {
			st.NotResults = d.Tool
			return st, nil
		}
		return st, &NoTraversalError{File: path}
	}
	if err := in.flushLevels(true); err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	if _, err := tx.Exec(`UPDATE sources SET lines = ? WHERE id = ?`, st.Lines, in.sourceID); err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	return st, nil
}

// runnerTools are the runners whose outputs the store holds.
var runnerTools = map[string]bool{"graphperf-bfs": true, "graphperf-pr": true, "graphperf-la": true, "": true}

// NoTraversalError is a runner output without a total line: nothing to
// store (a runner stopped before its first traversal ended, or not a
// runner's file). Storing it would keep an empty source that the real
// file's ingest then collides with.
type NoTraversalError struct{ File string }

func (e *NoTraversalError) Error() string {
	return e.File + ": no traversal (no total line): nothing stored"
}

// lineError is err, what rejected rec at line of file, as a
// *kernels.ParseError naming the record and, for a value out of its range
// (a *FieldError), the field.
func lineError(file string, line int, rec kernels.Record, err error) error {
	var pe *kernels.ParseError
	if errors.As(err, &pe) {
		return err
	}
	e := &kernels.ParseError{File: file, Line: line, Msg: err.Error()}
	if k := kernels.KindOf(rec); k != nil {
		e.Record = k.Name
		e.Msg = k.Name + ": " + e.Msg
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		e.Field = fe.Field
	}
	return e
}

// traversal identifies the level lines that wait for their total line.
type traversal struct {
	algorithm, graph, impl string
	root                   uint32
}

type pending struct {
	firstLine int
	levels    []kernels.Level
}

// ingester holds one file's transaction, prepared statements and caches of
// the ids it has resolved.
type ingester struct {
	tx        *sql.Tx
	conn      *sql.Conn // tx's
	path      string
	man       *kernels.Manifest
	manGraphs map[manifestKey]int // (name, algorithm) → index in man.Graphs of its first record
	st        *Stats
	datasetID int64
	sourceID  int64
	device    *kernels.Device
	platform  int64

	algorithms map[string]int64
	platforms  map[string]int64 // of CSV files, by name
	impls      map[implKey]storedImpl
	graphs     map[string]storedGraph
	variants   map[variantKey]int64
	configs    map[configKey]int64
	refs       map[int64]string // variant id → reference hash ('' when none)
	propLevels map[int64]int    // variant id → levels whose properties this file stored
	waiting    map[traversal]*pending
	traversals kernels.Traversals // each once in a file
	line       int                // of the record being stored

	// levelRows wait for rawLevels, which stores levelBatch of them in
	// one statement, prepared on conn's driver connection.
	levelRows []levelRow
	levelArgs []any
	rawLevels driver.Stmt
	rawArgs   []driver.NamedValue

	insRun, insLevel, insLevelProp *sql.Stmt
}

type manifestKey struct{ name, algorithm string }

type implKey struct {
	algorithm int64
	name      string
}

type variantKey struct{ graph, algorithm, root int64 }

type configKey struct {
	algorithm              int64
	commit, version        string
	reps, warmup           int
	l2Flush                bool
	blockSize              int
	gridCap                int64
	nvccVersion, nvccFlags string
	date                   any
}

// levelRow is a level timing waiting to be stored.
type levelRow struct {
	run   int64
	level *kernels.Level
}

// levelBatch is the level rows of one INSERT: multi-row statements cost
// less per row than one statement per row (15 parameters a row, far below
// SQLite's 32766).
const levelBatch = 64

const levelColumns = `INSERT INTO level_timings (run_id, level, frontier, discovered,
		device_count, direction, convert, grid, block_size, reps,
		min_ns, median_ns, mean_ns, max_ns, stddev_ns) VALUES `

const levelValues = `(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

var levelBatchSQL = levelColumns + strings.Repeat(levelValues+",", levelBatch-1) + levelValues

func newIngester(tx *sql.Tx, conn *sql.Conn, path, dataset string, man *kernels.Manifest) (*ingester, error) {
	if dataset == "" {
		return nil, errors.New("no dataset name")
	}
	in := &ingester{
		tx: tx, conn: conn, path: path, man: man, manGraphs: map[manifestKey]int{},
		algorithms: map[string]int64{}, platforms: map[string]int64{}, impls: map[implKey]storedImpl{}, graphs: map[string]storedGraph{},
		variants: map[variantKey]int64{}, configs: map[configKey]int64{}, refs: map[int64]string{},
		propLevels: map[int64]int{}, waiting: map[traversal]*pending{},
	}
	if man != nil {
		for i, g := range man.Graphs {
			alg := g.Algorithm
			if alg == "" {
				alg = kernels.AlgorithmBFS
			}
			if _, ok := in.manGraphs[manifestKey{g.Name, alg}]; !ok {
				in.manGraphs[manifestKey{g.Name, alg}] = i
			}
		}
	}
	var err error
	if in.datasetID, err = in.upsert(`INSERT INTO datasets (name) VALUES (?) ON CONFLICT DO NOTHING`,
		`SELECT id FROM datasets WHERE name = ?`, []any{dataset}, []any{dataset}); err != nil {
		return nil, err
	}
	if in.insRun, err = tx.Prepare(`INSERT INTO runs (variant_id, implementation_id, config_id, platform_id,
		source_id, levels, reached, result_hash, verified, validated,
		min_ns, median_ns, mean_ns, max_ns, stddev_ns,
		wall_min_ns, wall_median_ns, wall_mean_ns, wall_max_ns, wall_stddev_ns, directions, details_json)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`); err != nil {
		return nil, err
	}
	if in.insLevel, err = tx.Prepare(levelColumns + levelValues); err != nil {
		return nil, err
	}
	if in.insLevelProp, err = tx.Prepare(`INSERT INTO level_properties (variant_id, level, frontier, discovered)
		VALUES (?,?,?,?) ON CONFLICT DO NOTHING`); err != nil {
		return nil, err
	}
	return in, nil
}

func (in *ingester) close() {
	if in.rawLevels != nil {
		in.conn.Raw(func(any) error { return in.rawLevels.Close() })
	}
	for _, s := range []*sql.Stmt{in.insRun, in.insLevel, in.insLevelProp} {
		if s != nil {
			s.Close()
		}
	}
}

// upsert inserts a row unless its key exists and returns its id.
func (in *ingester) upsert(insert, query string, insArgs, keyArgs []any) (int64, error) {
	if _, err := in.tx.Exec(insert, insArgs...); err != nil {
		return 0, err
	}
	var id int64
	if err := in.tx.QueryRow(query, keyArgs...).Scan(&id); err != nil {
		return 0, err
	}
	return id, nil
}

func (in *ingester) source(sha string) error {
	res, err := in.tx.Exec(`INSERT INTO sources (sha256, path, name, dataset_id, ingested_at, lines) VALUES (?,?,?,?,?,0)`,
		sha, in.path, in.st.Source, in.datasetID, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return err
	}
	in.sourceID, err = res.LastInsertId()
	return err
}

func (in *ingester) record(rec kernels.Record, line int) error {
	in.line = line
	if err := in.traversals.Add(rec, in.path, line); err != nil {
		return err
	}
	switch r := rec.(type) {
	case *kernels.Device:
		if in.device == nil {
			in.device = r
			return in.setPlatform()
		}
	case *kernels.Level:
		if err := checkLevel(r); err != nil {
			return err
		}
		k := traversal{r.Algorithm, r.Graph, r.Impl, r.Root}
		p := in.waiting[k]
		if p == nil {
			p = &pending{firstLine: line}
			in.waiting[k] = p
		}
		if err := checkNextLevel(r.Level, len(p.levels)); err != nil {
			return err
		}
		if len(p.levels) > 0 {
			if err := sameTraversal(&p.levels[0].Identity, &r.Identity, fmt.Sprintf("the traversal's first level line, line %d, says", p.firstLine)); err != nil {
				return err
			}
		}
		p.levels = append(p.levels, *r)
	case *kernels.Total:
		in.st.Traversals++
		if err := checkTotal(r); err != nil {
			return err
		}
		k := traversal{r.Algorithm, r.Graph, r.Impl, r.Root}
		p := in.waiting[k]
		delete(in.waiting, k)
		var levels []kernels.Level
		if p != nil {
			levels = p.levels
			if err := sameTraversal(&p.levels[0].Identity, &r.Identity, fmt.Sprintf("the traversal's level lines, from line %d, say", p.firstLine)); err != nil {
				return err
			}
		}
		return in.total(r, levels)
	case *kernels.Error:
		in.st.RunnerErrors++
	}
	return nil
}

// sameTraversal checks that a line of a traversal says of the graph and
// the implementation what its first level line says (where names that
// line): the store keeps one graph and one implementation row for them.
func sameTraversal(first, id *kernels.Identity, where string) error {
	for _, d := range []struct {
		key  string
		a, b any
	}{{"graph_hash", first.GraphHash, id.GraphHash}, {"n", first.N, id.N}, {"m", first.M, id.M},
		{"aggregation", first.Aggregation, id.Aggregation}, {"warp_width", first.WarpWidth, id.WarpWidth},
		{"chunk", first.Chunk, id.Chunk}, {"claim", first.Claim, id.Claim}} {
		if d.a != d.b {
			return fieldErr(d.key, "%s %v: %s %v", d.key, d.b, where, d.a)
		}
	}
	return nil
}

// finish rejects level lines left without their total line.
func (in *ingester) finish() error {
	first := 0
	for _, p := range in.waiting {
		if first == 0 || p.firstLine < first {
			first = p.firstLine
		}
	}
	if first > 0 {
		return &kernels.ParseError{File: in.path, Line: first, Msg: "level line without a total line"}
	}
	return nil
}

func (in *ingester) setPlatform() error {
	d := in.device
	js, err := json.Marshal(d)
	if err != nil {
		return err
	}
	in.platform, err = in.upsert(`INSERT INTO platforms (name, compute_capability, sm_count, l2_bytes,
		clock_khz, mem_clock_khz, mem_bus_bits, ecc, driver_version, runtime_version, global_mem_bytes, device_json)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		`SELECT id FROM platforms WHERE name = ? AND compute_capability = ? AND sm_count = ? AND l2_bytes = ?
		AND clock_khz = ? AND mem_clock_khz = ? AND mem_bus_bits = ? AND ecc = ? AND driver_version = ? AND runtime_version = ?`,
		[]any{d.Name, d.ComputeCapability, d.SMCount, d.L2Bytes, d.ClockKHz, d.MemClockKHz, d.MemBusBits,
			d.ECC, d.DriverVersion, d.RuntimeVersion, int64(d.GlobalMemBytes), string(js)},
		[]any{d.Name, d.ComputeCapability, d.SMCount, d.L2Bytes, d.ClockKHz, d.MemClockKHz, d.MemBusBits,
			d.ECC, d.DriverVersion, d.RuntimeVersion})
	if err != nil {
		return err
	}
	// The platform's other properties are the GPU's: a device line that
	// says otherwise of a stored platform is an error, not a value
	// dropped. (Its provenance, tool, device, command and module loading,
	// is the first file's; nvcc's version and flags are the run
	// configuration's.)
	var stored kernels.Device
	var mem sql.NullInt64
	if err := in.tx.QueryRow(`SELECT global_mem_bytes, device_json FROM platforms WHERE id = ?`, in.platform).Scan(
		&mem, &jsonColumn{&stored}); err != nil {
		return err
	}
	for _, p := range []struct {
		key  string
		a, b any
	}{{"global_mem_bytes", mem.Int64, int64(d.GlobalMemBytes)}, {"persisting_l2_max_bytes", stored.PersistingL2MaxBytes, d.PersistingL2MaxBytes},
		{"max_threads_per_sm", stored.MaxThreadsPerSM, d.MaxThreadsPerSM}, {"max_blocks_per_sm", stored.MaxBlocksPerSM, d.MaxBlocksPerSM},
		{"regs_per_sm", stored.RegsPerSM, d.RegsPerSM}, {"smem_per_sm_bytes", stored.SmemPerSMBytes, d.SmemPerSMBytes},
		{"warp_size", stored.WarpSize, d.WarpSize}} {
		if p.a != p.b {
			return fieldErr(p.key, "%s %v: the store holds platform %s with %s %v", p.key, p.b, d.Name, p.key, p.a)
		}
	}
	return nil
}

// jsonColumn scans a JSON text column into v.
type jsonColumn struct{ v any }

func (c *jsonColumn) Scan(src any) error {
	switch s := src.(type) {
	case string:
		return json.Unmarshal([]byte(s), c.v)
	case []byte:
		return json.Unmarshal(s, c.v)
	case nil:
		return nil
	}
	return fmt.Errorf("a JSON column of %T", src)
}

func (in *ingester) algorithm(name string) (int64, error) {
	if id, ok := in.algorithms[name]; ok {
		return id, nil
	}
	id, err := in.upsert(`INSERT INTO algorithms (name) VALUES (?) ON CONFLICT DO NOTHING`,
		`SELECT id FROM algorithms WHERE name = ?`, []any{name}, []any{name})
	in.algorithms[name] = id
	return id, err
}

// storedImpl is an implementation row: its id and what it says.
type storedImpl struct {
	id       int64
	identity kernels.Identity // Aggregation, WarpWidth, Chunk, Claim
	line     int              // of the file, that first read it
}

// check returns an error when id says otherwise of the implementation
// than its row: the store holds an implementation once, so a line that
// disagrees is an error, not a value dropped. A CSV file's identity
// (WarpWidth < 0) says nothing but the name.
func (s storedImpl) check(id *kernels.Identity) error {
	if id.WarpWidth < 0 {
		return nil
	}
	for _, d := range []struct {
		key  string
		a, b any
	}{{"aggregation", s.identity.Aggregation, id.Aggregation}, {"warp_width", s.identity.WarpWidth, id.WarpWidth},
		{"chunk", s.identity.Chunk, id.Chunk}, {"claim", s.identity.Claim, id.Claim}} {
		if d.a != d.b {
			return fieldErr(d.key, "%s %v: the store holds implementation %s (read at line %d) with %s %v", d.key, d.b, id.Impl, s.line, d.key, d.a)
		}
	}
	return nil
}

func (in *ingester) implementation(algID int64, id kernels.Identity) (int64, error) {
	key := implKey{algID, id.Impl}
	if s, ok := in.impls[key]; ok {
		return s.id, s.check(&id)
	}
	family, _, _ := strings.Cut(id.Impl, "/")
	if _, err := in.tx.Exec(`INSERT INTO implementations (algorithm_id, name, family, aggregation, warp_width, chunk, claim)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		algID, id.Impl, family, id.Aggregation, id.WarpWidth, id.Chunk, id.Claim); err != nil {
		return 0, err
	}
	s := storedImpl{line: in.line}
	if err := in.tx.QueryRow(`SELECT id, aggregation, warp_width, chunk, claim FROM implementations
		WHERE algorithm_id = ? AND name = ?`, algID, id.Impl).Scan(&s.id, &s.identity.Aggregation, &s.identity.WarpWidth,
		&s.identity.Chunk, &s.identity.Claim); err != nil {
		return 0, err
	}
	if s.identity.WarpWidth < 0 && id.WarpWidth >= 0 {
		// First stored from a CSV file: it learns what the runner says.
		if _, err := in.tx.Exec(`UPDATE implementations SET aggregation = ?, warp_width = ?, chunk = ?, claim = ?
			WHERE id = ?`, id.Aggregation, id.WarpWidth, id.Chunk, id.Claim, s.id); err != nil {
			return 0, err
		}
		s.identity = id
	}
	if err := s.check(&id); err != nil {
		return 0, err
	}
	in.impls[key] = s
	return s.id, nil
}

// manifestGraph returns the manifest's record of graph (by name, and by
// algorithm: BFS records have none) and its sweep call, or nils.
func (in *ingester) manifestGraph(name, algorithm string) (*kernels.GraphRecord, *kernels.RunRecord) {
	i, ok := in.manGraphs[manifestKey{name, algorithm}]
	if !ok {
		return nil, nil
	}
	g := &in.man.Graphs[i]
	if g.Run >= 0 && g.Run < len(in.man.Runs) {
		return g, &in.man.Runs[g.Run]
	}
	return g, nil
}

func (in *ingester) graph(id kernels.Identity) (int64, error) {
	name := kernels.GraphName(id.Graph)
	if g, ok := in.graphs[name]; ok {
		return g.id, g.check(name, &id)
	}
	var directed, seed any
	var gen, file, fileSHA, load any
	if g, _ := in.manifestGraph(name, id.Algorithm); g != nil {
		if g.GraphHash != "" && g.GraphHash != id.GraphHash {
			return 0, fieldErr("graph_hash", "graph %s: hash %s, the manifest says %s", name, id.GraphHash, g.GraphHash)
		}
		directed, seed = g.Directed, int64(g.Seed)
		if g.Gen != nil {
			b, err := json.Marshal(g.Gen)
			if err != nil {
				return 0, err
			}
			gen = string(b)
		}
		if g.File != "" {
			file, fileSHA = g.File, g.FileSHA256
		}
		if g.Load != nil {
			b, err := json.Marshal(g.Load)
			if err != nil {
				return 0, err
			}
			load = string(b)
		}
	}
	if _, err := in.tx.Exec(`INSERT INTO graphs (dataset_id, name, n, m, directed, generator_json, seed,
		source_file, source_sha256, load_json, graph_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		in.datasetID, name, id.N, id.M, directed, gen, seed, file, fileSHA, load, id.GraphHash); err != nil {
		return 0, err
	}
	var v, n, m int64
	var hash string
	if err := in.tx.QueryRow(`SELECT id, graph_hash, n, m FROM graphs WHERE dataset_id = ? AND name = ?`,
		in.datasetID, name).Scan(&v, &hash, &n, &m); err != nil {
		return 0, err
	}
	if hash == "" && id.GraphHash != "" {
		// A graph first stored from a CSV file (IngestCSV) learns its
		// hash and size.
		if _, err := in.tx.Exec(`UPDATE graphs SET graph_hash = ?, n = ?, m = ? WHERE id = ?`,
			id.GraphHash, id.N, id.M, v); err != nil {
			return 0, err
		}
		hash, n, m = id.GraphHash, id.N, id.M
	}
	g := storedGraph{id: v, hash: hash, n: n, m: m, line: in.line}
	if err := g.check(name, &id); err != nil {
		return 0, err
	}
	if directed != nil {
		// A graph first seen without a manifest learns what it gives.
		if _, err := in.tx.Exec(`UPDATE graphs SET directed = ?, generator_json = ?, seed = ?, source_file = ?,
			source_sha256 = ?, load_json = ? WHERE id = ? AND directed IS NULL`,
			directed, gen, seed, file, fileSHA, load, v); err != nil {
			return 0, err
		}
	}
	in.graphs[name] = g
	return v, nil
}

// storedGraph is a graph row of the dataset: its id, hash and size, and
// the line of the file that first read it.
type storedGraph struct {
	id, n, m int64
	hash     string
	line     int
}

// check returns an error when id says otherwise of the graph name than
// its row.
func (g storedGraph) check(name string, id *kernels.Identity) error {
	holds := fmt.Sprintf("the dataset holds graph %s (read at line %d) with", name, g.line)
	switch {
	case g.hash != id.GraphHash:
		return fieldErr("graph_hash", "graph_hash %s: %s graph_hash %s", id.GraphHash, holds, g.hash)
	case id.N != g.n:
		return fieldErr("n", "n %d: %s n %d", id.N, holds, g.n)
	case id.M != g.m:
		return fieldErr("m", "m %d: %s m %d", id.M, holds, g.m)
	}
	return nil
}

// variant returns the variant of (graph, algorithm, root) and its reference
// hash, ” when none is known.
func (in *ingester) variant(graphID, algID int64, t *kernels.Total) (int64, string, error) {
	root := int64(-1)
	if t.Algorithm != kernels.AlgorithmPageRank {
		root = int64(t.Root)
	}
	key := variantKey{graphID, algID, root}
	if v, ok := in.variants[key]; ok {
		return v, in.refs[v], nil
	}
	var ref any
	if g, _ := in.manifestGraph(kernels.GraphName(t.Graph), t.Algorithm); g != nil && root >= 0 {
		// The hash aggregate.LoadDir checks a run of a results directory
		// against.
		if h, ok := g.ReferenceHash(uint32(root)); ok {
			ref = h
		}
	}
	var levels any
	if root >= 0 && kernels.KindOf(t).RequiredFor("levels", t.Impl) {
		// graphperf-la's totals count no levels: NULL, not 0.
		levels = t.Levels
	}
	if _, err := in.tx.Exec(`INSERT INTO variants (graph_id, algorithm_id, root, reference_hash, levels)
		VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`, graphID, algID, root, ref, levels); err != nil {
		return 0, "", err
	}
	if ref != nil {
		if _, err := in.tx.Exec(`UPDATE variants SET reference_hash = ? WHERE graph_id = ? AND algorithm_id = ?
			AND root = ? AND reference_hash IS NULL`, ref, graphID, algID, root); err != nil {
			return 0, "", err
		}
	}
	var v int64
	var stored sql.NullString
	if err := in.tx.QueryRow(`SELECT id, reference_hash FROM variants WHERE graph_id = ? AND algorithm_id = ? AND root = ?`,
		graphID, algID, root).Scan(&v, &stored); err != nil {
		return 0, "", err
	}
	if ref != nil && stored.String != ref {
		return 0, "", fmt.Errorf("root %d of %s: reference hash %s, but the store holds %s", root, t.Graph, ref, stored.String)
	}
	in.variants[key] = v
	in.refs[v] = stored.String
	return v, stored.String, nil
}

func (in *ingester) config(algID int64, t *kernels.Total) (int64, error) {
	var commit, version string
	var date any
	if _, run := in.manifestGraph(kernels.GraphName(t.Graph), t.Algorithm); run != nil {
		// "v0.0.0-...-29a29594c861+dirty 29a29594...+dirty": module version, revision.
		f := strings.Fields(run.Graphperf)
		if len(f) > 0 {
			version, commit = f[0], f[len(f)-1]
		}
		if run.Started != "" {
			date = run.Started
		}
	}
	d := in.device
	key := configKey{algID, commit, version, t.Reps, t.Warmup, t.L2Flush, t.BlockSize, t.GridCap, d.NvccVersion, d.NvccFlags, date}
	if v, ok := in.configs[key]; ok {
		return v, nil
	}
	args := []any{in.datasetID, algID, commit, version, t.Reps, t.Warmup, t.L2Flush, t.BlockSize, t.GridCap, d.NvccVersion, d.NvccFlags}
	v, err := in.upsert(`INSERT INTO run_configs (dataset_id, algorithm_id, commit_hash, graphperf_version,
		repetitions, warmup, l2_flush, block_size, grid_cap, nvcc_version, nvcc_flags, date)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		`SELECT id FROM run_configs WHERE dataset_id = ? AND algorithm_id = ? AND commit_hash = ?
		AND graphperf_version = ? AND repetitions = ? AND warmup = ? AND l2_flush = ? AND block_size = ?
		AND grid_cap = ? AND nvcc_version = ? AND nvcc_flags = ?`,
		append(args, date), args)
	if err != nil {
		return 0, err
	}
	if date != nil {
		// The configuration's date is the earliest sweep call seen.
		if _, err := in.tx.Exec(`UPDATE run_configs SET date = ? WHERE id = ? AND (date IS NULL OR date > ?)`,
			date, v, date); err != nil {
			return 0, err
		}
	}
	in.configs[key] = v
	return v, nil
}

func (in *ingester) total(t *kernels.Total, levels []kernels.Level) error {
	if in.device == nil {
		return errors.New("total line before the device line")
	}
	if t.Algorithm == "" {
		t.Algorithm = kernels.AlgorithmBFS
	}
	if t.Algorithm != kernels.AlgorithmPageRank && len(levels) != t.Levels {
		return fieldErr("levels", "levels %d: the total of %s root %d %s, after %d level lines",
			t.Levels, t.Graph, t.Root, t.Impl, len(levels))
	}
	algID, err := in.algorithm(t.Algorithm)
	if err != nil {
		return err
	}
	implID, err := in.implementation(algID, t.Identity)
	if err != nil {
		return err
	}
	graphID, err := in.graph(t.Identity)
	if err != nil {
		return err
	}
	variantID, ref, err := in.variant(graphID, algID, t)
	if err != nil {
		return err
	}
	configID, err := in.config(algID, t)
	if err != nil {
		return err
	}
	validated := t.Verified
	if ref != "" {
		validated = t.ResultHash() == ref
	}
	var details any
	if t.Algorithm == kernels.AlgorithmPageRank {
		b, err := json.Marshal(t.PageRank)
		if err != nil {
			return err
		}
		details = string(b)
	}
	// Wall times are NULL where the runner prints none (graphperf-pr):
	// never a 0 the file does not say.
	var wall [5]any
	if kernels.KindOf(t).RequiredFor("wall_median_ns", t.Impl) {
		wall = [5]any{t.WallMinNs, t.WallMedianNs, t.WallMeanNs, t.WallMaxNs, t.WallStddevNs}
	}
	res, err := in.insRun.Exec(variantID, implID, configID, in.platform, in.sourceID, int64(t.Levels), t.Reached,
		t.ResultHash(), t.Verified, validated, t.MinNs, t.MedianNs, t.MeanNs, t.MaxNs, t.StddevNs,
		wall[0], wall[1], wall[2], wall[3], wall[4], t.Directions, details)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		in.st.DuplicateRuns++
		return nil
	}
	runID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	in.st.Runs++
	if !validated {
		in.st.Invalid++
	}
	for i := range levels {
		in.levelRows = append(in.levelRows, levelRow{runID, &levels[i]})
	}
	if len(in.levelRows) >= levelBatch {
		if err := in.flushLevels(false); err != nil {
			return err
		}
	}
	if validated && len(levels) > in.propLevels[variantID] {
		// The levels' properties are the variant's: the first validated
		// run of a file stores them, and the others agree.
		for i := range levels {
			l := &levels[i]
			if _, err := in.insLevelProp.Exec(variantID, int64(l.Level), l.Frontier, l.Discovered); err != nil {
				return err
			}
		}
		in.propLevels[variantID] = len(levels)
	}
	in.st.Levels += len(levels)
	return nil
}

// flushLevels stores the level rows that wait, levelBatch to a statement;
// all stores the rest too, one by one. The batches go to the driver
// directly: database/sql's conversions and locks were a fifth of the time
// of storing a level row.
func (in *ingester) flushLevels(all bool) error {
	rows := in.levelRows
	if len(rows) >= levelBatch {
		err := in.conn.Raw(func(dc any) error {
			if in.rawLevels == nil {
				p, ok := dc.(driver.ConnPrepareContext)
				if !ok {
					return fmt.Errorf("driver connection %T cannot prepare", dc)
				}
				st, err := p.PrepareContext(context.Background(), levelBatchSQL)
				if err != nil {
					return err
				}
				if _, ok := st.(driver.StmtExecContext); !ok {
					st.Close()
					return fmt.Errorf("driver statement %T cannot execute", st)
				}
				in.rawLevels = st
			}
			ex := in.rawLevels.(driver.StmtExecContext)
			for len(rows) >= levelBatch {
				args := in.rawArgs[:0]
				for _, r := range rows[:levelBatch] {
					in.levelArgs = appendLevelArgs(in.levelArgs[:0], r)
					for _, v := range in.levelArgs {
						args = append(args, driver.NamedValue{Ordinal: len(args) + 1, Value: v})
					}
				}
				in.rawArgs = args
				if _, err := ex.ExecContext(context.Background(), args); err != nil {
					return err
				}
				rows = rows[levelBatch:]
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("level timings: %w", err)
		}
	}
	if !all {
		in.levelRows = append(in.levelRows[:0], rows...)
		return nil
	}
	for _, r := range rows {
		in.levelArgs = appendLevelArgs(in.levelArgs[:0], r)
		if _, err := in.insLevel.Exec(in.levelArgs...); err != nil {
			return fmt.Errorf("level %d: %w", r.level.Level, err)
		}
	}
	in.levelRows = in.levelRows[:0]
	return nil
}

func appendLevelArgs(args []any, r levelRow) []any {
	l := r.level
	return append(args, r.run, int64(l.Level), l.Frontier, l.Discovered, l.DeviceCount, l.Direction,
		l.Convert, l.Grid, int64(l.BlockSize), int64(l.Reps), l.MinNs, l.MedianNs, l.MeanNs, l.MaxNs, l.StddevNs)
}

// claim decides, in tx, whether the file is stored (claimSource): done
// is true when it is not to be read (its content is stored).
func (st *Stats) claim(tx *sql.Tx, dataset string, opt IngestOptions) (done bool, err error) {
	if dataset == "" {
		return false, fmt.Errorf("ingest %s: no dataset name", st.File)
	}
	c, err := claimSource(tx, st.File, dataset, st.Source, st.SHA256, opt.Replace)
	if err != nil {
		var ce *SourceChangedError
		if errors.As(err, &ce) {
			return false, err
		}
		return false, fmt.Errorf("ingest %s: %w", st.File, err)
	}
	st.Skipped, st.StoredAs, st.Replaced = c.skip, c.storedAs, c.replaced
	return c.skip, nil
}
