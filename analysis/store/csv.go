package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/graphperf/graphperf/kernels"
)

// ErrMapping is returned for a CSV mapping that is incomplete, names an
// unknown key, or names a column the file does not have.
var ErrMapping = errors.New("store: bad CSV mapping")

// CSVMapping says which columns of a plain CSV file of timings (one header
// row, then one row per measurement) hold what. Each field is a column
// name as the header spells it; "" means the file has no such column.
// Graph, Implementation and Time are required.
type CSVMapping struct {
	Graph, Implementation, Time string
	// Root is the BFS root; without it every run has root -1 (none).
	Root string
	// Level is the BFS level a row times; without it each row is a whole
	// traversal (a total).
	Level string
	// Repetition tells the repetitions of a run apart (any text: a
	// number, a run id); without it the k-th row of a (graph, root,
	// implementation, level) is its k-th repetition.
	Repetition string
	// Algorithm, without it AlgorithmName, "" meaning bfs.
	Algorithm string
	// Platform, without it PlatformName, "" meaning "unknown".
	Platform string
	// Validated is the other tool's own check of the result (true, false,
	// 1, 0, yes, no); Hash a result hash, compared with the variant's
	// Go reference hash (stored by IngestRunnerJSONL with a manifest).
	Validated, Hash string

	// TimeUnit is the time column's unit: ns, us, ms or s. It is required.
	TimeUnit string
	// AlgorithmName and PlatformName are the algorithm and platform of
	// every row when the file has no column for them.
	AlgorithmName, PlatformName string
}

// csvKeys are the keys of a mapping spec, in the order String writes them.
var csvKeys = []string{"graph", "root", "implementation", "level", "repetition", "algorithm", "platform",
	"validated", "hash", "time"}

// timeUnits are the time units and their length in ns.
var timeUnits = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

// IsTimeUnit says whether unit is a time unit a CSVMapping takes: ns, us,
// ms or s.
func IsTimeUnit(unit string) bool {
	_, ok := timeUnits[unit]
	return ok
}

func (m *CSVMapping) column(key string) *string {
	switch key {
	case "graph":
		return &m.Graph
	case "implementation", "impl":
		return &m.Implementation
	case "root":
		return &m.Root
	case "level":
		return &m.Level
	case "repetition", "rep":
		return &m.Repetition
	case "algorithm":
		return &m.Algorithm
	case "platform":
		return &m.Platform
	case "validated":
		return &m.Validated
	case "hash":
		return &m.Hash
	case "time":
		return &m.Time
	}
	return nil
}

// ParseCSVMapping reads a mapping spec: comma-separated KEY=COLUMN pairs,
// KEY one of graph, implementation (or impl), root, level, repetition (or
// rep), algorithm, platform, validated, hash, and time or time_ns,
// time_us, time_ms, time_s, which also give the time unit. Example:
//
//	graph=GraphName,root=src,implementation=impl,level=lvl,time_ms=ms
//
// A column name cannot hold a comma or '='. Whether the columns exist is
// checked against the file's header by IngestCSV.
func ParseCSVMapping(spec string) (CSVMapping, error) {
	var m CSVMapping
	seen := map[string]bool{}
	for _, pair := range strings.Split(spec, ",") {
		key, col, ok := strings.Cut(pair, "=")
		key, col = strings.TrimSpace(key), strings.TrimSpace(col)
		if !ok || key == "" || col == "" {
			return m, fmt.Errorf("%w: %q: want KEY=COLUMN", ErrMapping, pair)
		}
		if base, unit, ok := strings.Cut(key, "_"); ok && base == "time" {
			if _, known := timeUnits[unit]; !known {
				return m, fmt.Errorf("%w: %q: the time unit is ns, us, ms or s", ErrMapping, key)
			}
			key, m.TimeUnit = "time", unit
		}
		dst := m.column(key)
		if dst == nil {
			return m, fmt.Errorf("%w: unknown key %q; the keys are %s and time_ns, time_us, time_ms, time_s",
				ErrMapping, key, strings.Join(csvKeys, ", "))
		}
		if seen[canonicalKey(key)] {
			return m, fmt.Errorf("%w: key %q given twice", ErrMapping, key)
		}
		seen[canonicalKey(key)] = true
		*dst = col
	}
	return m, nil
}

func canonicalKey(key string) string {
	switch key {
	case "impl":
		return "implementation"
	case "rep":
		return "repetition"
	}
	return key
}

// String writes m as ParseCSVMapping reads it.
func (m CSVMapping) String() string {
	var pairs []string
	for _, key := range csvKeys {
		col := *m.column(key)
		if col == "" {
			continue
		}
		if key == "time" && m.TimeUnit != "" {
			key += "_" + m.TimeUnit
		}
		pairs = append(pairs, key+"="+col)
	}
	return strings.Join(pairs, ",")
}

// Check reports a mapping without a graph, implementation or time column,
// or without a known time unit; IngestCSV checks the columns themselves
// against the file's header.
func (m CSVMapping) Check() error {
	var missing []string
	for _, key := range []string{"graph", "implementation", "time"} {
		if *m.column(key) == "" {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w %q: no column for %s", ErrMapping, m.String(), strings.Join(missing, ", "))
	}
	if m.TimeUnit == "" {
		return fmt.Errorf("%w %q: no time unit (time_ms=COLUMN, or the mapping's TimeUnit)", ErrMapping, m.String())
	}
	if _, ok := timeUnits[m.TimeUnit]; !ok {
		return fmt.Errorf("%w: time unit %q: want ns, us, ms or s", ErrMapping, m.TimeUnit)
	}
	return nil
}

// csvRunKey identifies a run of a CSV file.
type csvRunKey struct {
	graph, impl, algorithm, platform string
	root                             int64
}

// csvRun gathers a run's rows: times[level][repetition], in ns; level -1
// for a file without levels.
type csvRun struct {
	key       csvRunKey
	firstLine int
	reps      []string       // repetition names, in order of appearance
	repIndex  map[string]int // name → index in reps
	times     map[int]map[int]float64
	lines     map[int]map[int]int // the line of each time
	validated bool
	hash      string
}

// IngestCSV stores the timings in the plain CSV file at path (compressed
// with gzip or not), read through the column mapping m, as measurements of
// dataset: a way in for timings of any tool other than the graphperf
// runner.
//
// A run is a (graph, root, implementation, algorithm, platform). Without a
// level column each row is one repetition of a whole run; with one, each
// row is one repetition of one level, the level timings are stored per
// level, and the run's total of a repetition is the sum of its level times
// (so every repetition must time the same levels). Times are summarised
// over the repetitions as the runner does (min, median, mean, max and the
// sample standard deviation, seed 004 §3.3), and stored in ns.
//
// Graphs (their names without a ".gpg", as the runner's), implementations
// and variants are matched by name with those already stored in dataset
// (from a runner file, say), and created
// otherwise with what is unknown stored as -1 or ”: no vertex or edge
// count, no graph hash, no launch configuration. The run configuration of
// a CSV run holds only its repetition count.
//
// Validation. A CSV row carries no evidence that the traversal computed
// the right result, so its runs are stored with validated = false (left
// out of TrainingRuns and the training_runs view) unless the mapping has a
// validated column, whose value is trusted as the runner's "verified" is
// without a manifest, or a hash column, whose value must equal the
// variant's reference hash. With both, both must hold; a run is validated
// only if all its rows are.
//
// As IngestRunnerJSONL: the file is one transaction, and a malformed row
// (a bad number, an empty cell of a mapped column, a wrong number of
// fields) rejects the whole file with a *kernels.ParseError naming file
// and line, storing nothing; a file whose SHA-256 was ingested before is
// skipped, whatever the mapping; a run already stored with the same
// configuration is left as it is (Stats.DuplicateRuns). A mapping error
// (ErrMapping) names the header's columns. The file is held in memory,
// grouped by run, until it is stored.
func (db *DB) IngestCSV(path string, m CSVMapping, dataset string) (Stats, error) {
	return db.IngestCSVWith(path, m, dataset, IngestOptions{})
}

// IngestCSVWith is IngestCSV with options: the file's source name and
// whether it replaces a stored source of that name (IngestRunnerJSONL).
func (db *DB) IngestCSVWith(path string, m CSVMapping, dataset string, opt IngestOptions) (st Stats, err error) {
	start := time.Now()
	st.File = path
	st.Source = opt.sourceName(path)
	defer func() { st.Duration = time.Since(start) }()
	if err := m.Check(); err != nil {
		return st, err
	}
	if dataset == "" {
		return st, fmt.Errorf("ingest %s: no dataset name", path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return st, fmt.Errorf("ingest: %w", err)
	}
	sum := sha256.Sum256(raw)
	st.SHA256 = hex.EncodeToString(sum[:])
	var r io.Reader = bytes.NewReader(raw)
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return st, fmt.Errorf("ingest %s: %w", path, err)
		}
		r = zr
	}
	tx, done, err := db.beginWrite(context.Background(), nil)
	if err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	defer done()
	defer func() {
		if err != nil {
			tx.Rollback()
			return
		}
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("ingest %s: commit: %w", path, err)
		}
	}()
	if done, err := st.claim(tx, dataset, opt); err != nil || done {
		return st, err
	}
	runs, lines, err := readCSVRuns(r, path, m)
	if err != nil {
		return st, err
	}
	st.Lines = lines
	in, err := newIngester(tx, nil, path, dataset, nil)
	if err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	defer in.close()
	in.st = &st
	if err := in.source(st.SHA256); err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	for _, run := range runs {
		if err := in.storeCSVRun(run, m); err != nil {
			var pe *kernels.ParseError
			if errors.As(err, &pe) {
				return st, err
			}
			return st, &kernels.ParseError{File: path, Line: run.firstLine, Msg: err.Error()}
		}
	}
	if _, err := tx.Exec(`UPDATE sources SET lines = ? WHERE id = ?`, st.Lines, in.sourceID); err != nil {
		return st, fmt.Errorf("ingest %s: %w", path, err)
	}
	return st, nil
}

// csvColumns are the header indices of a mapping's columns, -1 for none.
type csvColumns struct {
	graph, impl, time, root, level, rep, algorithm, platform, validated, hash int
}

func resolveColumns(header []string, m CSVMapping, path string) (csvColumns, error) {
	index := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if _, dup := index[h]; dup {
			index[h] = -2 // ambiguous
			continue
		}
		index[h] = i
	}
	var c csvColumns
	for _, f := range []struct {
		key string
		dst *int
	}{{"graph", &c.graph}, {"implementation", &c.impl}, {"time", &c.time}, {"root", &c.root},
		{"level", &c.level}, {"repetition", &c.rep}, {"algorithm", &c.algorithm}, {"platform", &c.platform},
		{"validated", &c.validated}, {"hash", &c.hash}} {
		col := *m.column(f.key)
		*f.dst = -1
		if col == "" {
			continue
		}
		i, ok := index[col]
		switch {
		case !ok:
			return c, fmt.Errorf("%w: %s=%s: %s has no column %q; its header: %s", ErrMapping, f.key, col, path, col,
				strings.Join(header, ", "))
		case i == -2:
			return c, fmt.Errorf("%w: %s=%s: %s has two columns %q", ErrMapping, f.key, col, path, col)
		}
		*f.dst = i
	}
	return c, nil
}

// readCSVRuns reads the file's rows into runs, in order of first
// appearance, and returns the last line read.
func readCSVRuns(r io.Reader, path string, m CSVMapping) ([]*csvRun, int, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	bad := func(line int, format string, args ...any) error {
		return &kernels.ParseError{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	csvError := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			// The row's first line: a quoted field may span lines.
			return bad(pe.StartLine, "%v", pe.Err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, 0, bad(1, "no header row")
	}
	if err != nil {
		return nil, 0, csvError(err)
	}
	header = slices.Clone(header)
	cols, err := resolveColumns(header, m, path)
	if err != nil {
		return nil, 0, err
	}
	factor := timeUnits[m.TimeUnit]
	algorithm := m.AlgorithmName
	if algorithm == "" {
		algorithm = kernels.AlgorithmBFS
	}
	platform := m.PlatformName
	if platform == "" {
		platform = "unknown"
	}
	byKey := map[csvRunKey]*csvRun{}
	var runs []*csvRun
	lastLine, _ := cr.FieldPos(0)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
			return nil, 0, bad(pe.StartLine, "%d fields, the header has %d", len(rec), len(header))
		}
		if err != nil {
			return nil, 0, csvError(err)
		}
		line, _ := cr.FieldPos(0)
		lastLine = line
		row := csvRow{rec: rec, header: header, path: path, line: line}
		k, level, t, err := row.parse(cols, algorithm, platform, factor)
		if err != nil {
			return nil, 0, err
		}
		run := byKey[k]
		if run == nil {
			run = &csvRun{key: k, firstLine: line, repIndex: map[string]int{}, times: map[int]map[int]float64{},
				lines: map[int]map[int]int{}, validated: true}
			byKey[k] = run
			runs = append(runs, run)
		}
		if err := run.addChecks(row, cols); err != nil {
			return nil, 0, err
		}
		if err := run.addTime(row, cols, int(level), t); err != nil {
			return nil, 0, err
		}
	}
	return runs, lastLine, nil
}

// csvRow is one record of a timings CSV, with what an error needs to
// say where it is.
type csvRow struct {
	rec, header []string
	path        string
	line        int
}

func (r csvRow) bad(format string, args ...any) error {
	return &kernels.ParseError{File: r.path, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

// cell is column i's value, trimmed; empty is an error naming what.
func (r csvRow) cell(i int, what string) (string, error) {
	v := strings.TrimSpace(r.rec[i])
	if v == "" {
		return "", r.bad("no %s (column %q)", what, r.header[i])
	}
	return v, nil
}

// integer is column i's value as an integer of at least least.
func (r csvRow) integer(i int, what string, least int64) (int64, error) {
	v, err := r.cell(i, what)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < least {
		return 0, r.bad("%s %q (column %q): want an integer >= %d", what, v, r.header[i], least)
	}
	return n, nil
}

// parse reads the row's run key, its level (-1 without a level column)
// and its time in ns (the time column times factor).
func (r csvRow) parse(cols csvColumns, algorithm, platform string, factor float64) (k csvRunKey, level int64, ns float64, err error) {
	if k, err = r.key(cols, algorithm, platform); err != nil {
		return k, 0, 0, err
	}
	level = -1
	if cols.level >= 0 {
		if level, err = r.integer(cols.level, "level", 0); err != nil {
			return k, 0, 0, err
		}
		if level > math.MaxInt32 {
			return k, 0, 0, r.bad("level %d: too deep", level)
		}
	}
	tv, err := r.cell(cols.time, "time")
	if err != nil {
		return k, 0, 0, err
	}
	t, err := strconv.ParseFloat(tv, 64)
	if err != nil {
		return k, 0, 0, r.bad("time %q (column %q): want a number >= 0", tv, r.header[cols.time])
	}
	if err := checkTime(fmt.Sprintf("time (column %q)", r.header[cols.time]), t*factor); err != nil {
		return k, 0, 0, r.bad("%v", err)
	}
	return k, level, t * factor, nil
}

// key reads the row's run key: graph, implementation, root, algorithm and
// platform (the last three from the mapping's defaults when it has no
// column for them).
func (r csvRow) key(cols csvColumns, algorithm, platform string) (csvRunKey, error) {
	k := csvRunKey{algorithm: algorithm, platform: platform, root: -1}
	var err error
	if k.graph, err = r.cell(cols.graph, "graph"); err != nil {
		return k, err
	}
	k.graph = strings.TrimSuffix(k.graph, ".gpg")
	if k.impl, err = r.cell(cols.impl, "implementation"); err != nil {
		return k, err
	}
	if cols.root >= 0 {
		if k.root, err = r.integer(cols.root, "root", -1); err != nil {
			return k, err
		}
	}
	if cols.algorithm >= 0 {
		if k.algorithm, err = r.cell(cols.algorithm, "algorithm"); err != nil {
			return k, err
		}
	}
	if cols.platform >= 0 {
		if k.platform, err = r.cell(cols.platform, "platform"); err != nil {
			return k, err
		}
	}
	return k, nil
}

// addChecks adds the row's validated and hash columns to the run: it is
// validated when every row says so, and its rows must agree on the hash.
func (run *csvRun) addChecks(r csvRow, cols csvColumns) error {
	if cols.validated >= 0 {
		v, err := r.cell(cols.validated, "validated")
		if err != nil {
			return err
		}
		ok, known := parseCSVBool(v)
		if !known {
			return r.bad("validated %q (column %q): want true, false, 1, 0, yes or no", v, r.header[cols.validated])
		}
		run.validated = run.validated && ok
	}
	if cols.hash >= 0 {
		h, err := r.cell(cols.hash, "hash")
		if err != nil {
			return err
		}
		if run.hash != "" && run.hash != h {
			return r.bad("hash %s, but line %d of the same run says %s", h, run.firstLine, run.hash)
		}
		run.hash = h
	}
	return nil
}

// addTime adds the row's time ns of level l to the run, under its
// repetition (the column's, or the k-th time of the level); a repeated
// (level, repetition) is an error.
func (run *csvRun) addTime(r csvRow, cols csvColumns, l int, ns float64) error {
	times, lines := run.times[l], run.lines[l]
	if times == nil {
		times, lines = map[int]float64{}, map[int]int{}
		run.times[l], run.lines[l] = times, lines
	}
	var rep string
	if cols.rep >= 0 {
		var err error
		if rep, err = r.cell(cols.rep, "repetition"); err != nil {
			return err
		}
	} else {
		rep = strconv.Itoa(len(times))
	}
	ri, ok := run.repIndex[rep]
	if !ok {
		ri = len(run.reps)
		run.repIndex[rep] = ri
		run.reps = append(run.reps, rep)
	}
	if prev, dup := lines[ri]; dup {
		return r.bad("repeats line %d (same run, level and repetition)", prev)
	}
	times[ri], lines[ri] = ns, r.line
	return nil
}

func parseCSVBool(s string) (value, known bool) {
	switch strings.ToLower(s) {
	case "true", "1", "yes":
		return true, true
	case "false", "0", "no":
		return false, true
	}
	return false, false
}

// summarize returns the runner's summary of the samples (its summarize in
// kernels/cuda/hostutil.h): min, median (the mean of the two middle
// samples of an even count), mean, max, and the sample standard deviation
// (n-1 in the denominator, 0 for one sample).
func summarize(samples []float64) kernels.Times {
	v := slices.Clone(samples)
	sort.Float64s(v)
	n := len(v)
	t := kernels.Times{MinNs: v[0], MaxNs: v[n-1]}
	if n%2 == 1 {
		t.MedianNs = v[n/2]
	} else {
		t.MedianNs = 0.5 * (v[n/2-1] + v[n/2])
	}
	var total float64
	for _, x := range v {
		total += x
	}
	t.MeanNs = total / float64(n)
	if n > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - t.MeanNs) * (x - t.MeanNs)
		}
		t.StddevNs = math.Sqrt(ss / float64(n-1))
	}
	return t
}

// csvPlatform returns the id of the platform a CSV names, stored with
// only its name.
func (in *ingester) csvPlatform(name string) (int64, error) {
	return in.upsert(`INSERT INTO platforms (name, compute_capability, sm_count, l2_bytes, clock_khz, mem_clock_khz,
		mem_bus_bits, ecc, driver_version, runtime_version) VALUES (?, '', -1, -1, -1, -1, -1, -1, -1, -1)
		ON CONFLICT DO NOTHING`,
		`SELECT id FROM platforms WHERE name = ? AND compute_capability = '' AND sm_count = -1 AND l2_bytes = -1
		AND clock_khz = -1 AND mem_clock_khz = -1 AND mem_bus_bits = -1 AND ecc = -1 AND driver_version = -1
		AND runtime_version = -1`, []any{name}, []any{name})
}

// storeCSVRun stores one run of a CSV file.
func (in *ingester) storeCSVRun(run *csvRun, m CSVMapping) error {
	k := run.key
	levels, err := run.levels(in.path)
	if err != nil {
		return err
	}
	platform, ok := in.platforms[k.platform]
	if !ok {
		var err error
		if platform, err = in.csvPlatform(k.platform); err != nil {
			return err
		}
		in.platforms[k.platform] = platform
	}
	algID, err := in.algorithm(k.algorithm)
	if err != nil {
		return err
	}
	implID, err := in.implementation(algID, kernels.Identity{Impl: k.impl, WarpWidth: -1, Chunk: -1})
	if err != nil {
		return err
	}
	graphID, err := in.csvGraph(k.graph)
	if err != nil {
		return err
	}
	nLevels := 0
	if levels[0] >= 0 {
		nLevels = len(levels)
	}
	var variantLevels any
	if nLevels > 0 {
		variantLevels = nLevels
	}
	variantID, err := in.csvVariant(graphID, algID, k.root, variantLevels)
	if err != nil {
		return err
	}
	ref := in.refs[variantID]
	reps := len(run.reps)
	configID, err := in.csvConfig(algID, reps)
	if err != nil {
		return err
	}
	verified, validated := run.validation(m, ref)
	// The total of a repetition is the sum of its level times.
	totals := make([]float64, reps)
	for _, l := range levels {
		for ri, t := range run.times[l] {
			totals[ri] += t
		}
	}
	tt := summarize(totals)
	in.st.Traversals++
	res, err := in.tx.Exec(`INSERT INTO runs (variant_id, implementation_id, config_id, platform_id, source_id,
		levels, reached, result_hash, verified, validated, min_ns, median_ns, mean_ns, max_ns, stddev_ns)
		VALUES (?,?,?,?,?,?,-1,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		variantID, implID, configID, platform, in.sourceID, nLevels, run.hash, verified, validated,
		tt.MinNs, tt.MedianNs, tt.MeanNs, tt.MaxNs, tt.StddevNs)
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
	if nLevels == 0 {
		return nil
	}
	for _, l := range levels {
		samples := make([]float64, 0, reps)
		for ri := range reps {
			samples = append(samples, run.times[l][ri])
		}
		lt := summarize(samples)
		if _, err := in.insLevel.Exec(runID, l, -1, -1, -1, "", "", -1, -1, reps,
			lt.MinNs, lt.MedianNs, lt.MeanNs, lt.MaxNs, lt.StddevNs); err != nil {
			return fmt.Errorf("level %d: %w", l, err)
		}
	}
	in.st.Levels += nLevels
	return nil
}

// levels returns the run's level numbers in order (-1 alone for a file
// without levels), checking that every repetition times every level and
// that levels count up from 0 without gaps, as a runner file's.
func (run *csvRun) levels(path string) ([]int, error) {
	k := run.key
	levels := make([]int, 0, len(run.times))
	for l := range run.times {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	// Every repetition must time every level, or its total is not one.
	for _, l := range levels {
		if len(run.times[l]) != len(run.reps) {
			for ri, rep := range run.reps {
				if _, ok := run.times[l][ri]; !ok {
					if l < 0 {
						return nil, fmt.Errorf("%s root %d %s: repetition %s has no time", k.graph, k.root, k.impl, rep)
					}
					return nil, fmt.Errorf("%s root %d %s: repetition %s has no time for level %d, the others have",
						k.graph, k.root, k.impl, rep, l)
				}
			}
		}
	}
	for i, l := range levels {
		if l < 0 {
			break // a file without levels
		}
		if err := checkNextLevel(l, i); err != nil {
			first := 0
			for _, line := range run.lines[l] {
				if first == 0 || line < first {
					first = line
				}
			}
			return nil, &kernels.ParseError{File: path, Line: first, Msg: fmt.Sprintf("%s root %d %s: %v", k.graph, k.root, k.impl, err)}
		}
	}
	return levels, nil
}

// csvVariant returns the id of the variant (graph, algorithm, root),
// storing it when new with its levels (nil: unknown).
func (in *ingester) csvVariant(graphID, algID, root int64, levels any) (int64, error) {
	vkey := variantKey{graphID, algID, root}
	variantID, ok := in.variants[vkey]
	if !ok {
		if _, err := in.tx.Exec(`INSERT INTO variants (graph_id, algorithm_id, root, levels) VALUES (?,?,?,?)
			ON CONFLICT DO NOTHING`, graphID, algID, root, levels); err != nil {
			return 0, err
		}
		var ref sql.NullString
		if err := in.tx.QueryRow(`SELECT id, reference_hash FROM variants WHERE graph_id = ? AND algorithm_id = ?
			AND root = ?`, graphID, algID, root).Scan(&variantID, &ref); err != nil {
			return 0, err
		}
		in.variants[vkey], in.refs[variantID] = variantID, ref.String
	}
	return variantID, nil
}

// csvConfig returns the id of the run configuration of a CSV's runs of
// algorithm algID with reps repetitions: all else unknown.
func (in *ingester) csvConfig(algID int64, reps int) (int64, error) {
	ckey := configKey{algorithm: algID, reps: reps}
	configID, ok := in.configs[ckey]
	if !ok {
		var err error
		configID, err = in.upsert(`INSERT INTO run_configs (dataset_id, algorithm_id, commit_hash, graphperf_version,
			repetitions, warmup, l2_flush, block_size, grid_cap, nvcc_version, nvcc_flags)
			VALUES (?, ?, '', '', ?, -1, -1, -1, -1, '', '') ON CONFLICT DO NOTHING`,
			`SELECT id FROM run_configs WHERE dataset_id = ? AND algorithm_id = ? AND commit_hash = ''
			AND graphperf_version = '' AND repetitions = ? AND warmup = -1 AND l2_flush = -1 AND block_size = -1
			AND grid_cap = -1 AND nvcc_version = '' AND nvcc_flags = ''`,
			[]any{in.datasetID, algID, reps}, []any{in.datasetID, algID, reps})
		if err != nil {
			return 0, err
		}
		in.configs[ckey] = configID
	}
	return configID, nil
}

// validation is what the run's columns prove: verified when the tool's
// own validated column says so, validated when each column the mapping
// has agrees (the tool's check, the hash against the reference ref).
func (run *csvRun) validation(m CSVMapping, ref string) (verified, validated bool) {
	verified = m.Validated != "" && run.validated
	validated = m.Validated != "" || m.Hash != ""
	if m.Validated != "" {
		validated = validated && run.validated
	}
	if m.Hash != "" {
		validated = validated && ref != "" && run.hash == ref
	}
	return verified, validated
}

// csvGraph returns the id of the dataset's graph called name, storing it
// when new with what a CSV does not know as -1 or ”.
func (in *ingester) csvGraph(name string) (int64, error) {
	if g, ok := in.graphs[name]; ok {
		return g.id, nil // a CSV file's graphs are matched by name alone
	}
	v, err := in.upsert(`INSERT INTO graphs (dataset_id, name, n, m, graph_hash) VALUES (?, ?, -1, -1, '')
		ON CONFLICT DO NOTHING`, `SELECT id FROM graphs WHERE dataset_id = ? AND name = ?`,
		[]any{in.datasetID, name}, []any{in.datasetID, name})
	if err != nil {
		return 0, err
	}
	in.graphs[name] = storedGraph{id: v}
	return v, nil
}
