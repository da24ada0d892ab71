package store

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// The corruption suite: every way a runner output can be damaged, by
// field, by line and by file, must either be refused with an error that
// names the file, the line and the field, leaving the store as it was, or
// be stored with exactly the values the damaged line says (then it was no
// damage: a 0 the line says is a 0). Zero silent wrong values.

// corruptTarget is a line of a base file whose keys the suite damages.
type corruptTarget struct {
	line int      // 1-based
	keys []string // the keys to damage; nil: every key of the line
}

// corruptBase is a runner output the suite damages, as lines.
type corruptBase struct {
	name    string
	lines   []string
	targets []corruptTarget
}

// optionalKeys are keys a runner leaves out of a line of its kind in a
// documented case (kernels/cuda/README.md): dropping one is no damage.
// Every other key a runner prints is required.
var optionalKeys = map[string]bool{
	"reference_hash": true, // error lines, absent with --no-cpu-check
}

// readLines returns the lines of a runner output, gunzipped if need be.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// corruptBases are the files damaged: fig2.jsonl (device, BFS level and
// total lines, dobfs's total, a runner error line), the switching BFS's
// rmat16 run (its own keys), and a PageRank file of the H100 dataset (a
// total with a last delta, a NoDiv total without, and an error line made
// after the runner's form: pagerank.cu).
func corruptBases(t testing.TB) []corruptBase {
	t.Helper()
	fig2 := readLines(t, "../../kernels/testdata/fig2.jsonl")
	sw := readLines(t, "../../kernels/testdata/switch-rmat16.jsonl")
	pr := readLines(t, "../../kernels/measured/h100/pagerank/er-s12-e16.pagerank.jsonl.gz")
	// line 2 edge-list (with last_delta), line 3 vertex-pull-nodiv
	// (without), line 4 an error line of edge-list.
	prError := `{"type":"error","graph":"er-s12-e16.gpg","graph_hash":"8869a32c","n":4096,"m":131072,"impl":"edge-list",` +
		`"algorithm":"pagerank","warp_width":1,"chunk":1,"iterations":100,"what":"ranks differ from the file reference"}`
	prLines := []string{pr[0], pr[1], pr[6], prError}
	if !strings.Contains(pr[6], `"vertex-pull-nodiv"`) || !strings.Contains(pr[1], `"last_delta"`) {
		t.Fatalf("er-s12-e16.pagerank.jsonl.gz: lines 2 and 7 are not edge-list and vertex-pull-nodiv")
	}
	la := readLines(t, "../../kernels/measured/h100/la/timed/la-t10-ws-d1000-p0.1.la.jsonl.gz")
	if !strings.Contains(la[1], `"algorithm":"bfs"`) || !strings.Contains(la[3], `"algorithm":"pagerank"`) ||
		!strings.Contains(la[4], `"algorithm":"sssp"`) {
		t.Fatalf("la-t10-ws-d1000-p0.1.la.jsonl.gz: lines 2, 4 and 5 are not graphperf-la's BFS, PageRank and SSSP")
	}
	switchKeys := []string{"switch_impl", "form", "convert_min_ns", "convert_median_ns", "convert_mean_ns", "convert_max_ns", "convert_stddev_ns"}
	return []corruptBase{
		{"fig2.jsonl", fig2, []corruptTarget{
			{1, nil}, // device
			{2, nil}, // level 0 of topo from root 0
			{5, nil}, // its total
			{13, []string{"bottom_up_levels", "directions"}}, // dobfs's total
			{34, nil}, // an error line
		}},
		{"switch-rmat16.jsonl", sw, []corruptTarget{
			{2, switchKeys},
			{8, append([]string{"decisions", "decisions_hash", "decisions_source", "switch_impls", "conversions",
				"kernel_min_ns", "kernel_median_ns", "kernel_mean_ns", "kernel_max_ns", "kernel_stddev_ns"}, switchKeys[2:]...)},
		}},
		{"er-s12-e16.pagerank.jsonl", prLines, []corruptTarget{{2, nil}, {3, []string{"iterations", "damping"}}, {4, nil}}},
		// graphperf-la (LINALG.md): a BFS, the PageRank and an SSSP total.
		{"la-t10-ws-d1000-p0.1.la.jsonl", la[:5], []corruptTarget{{2, nil}, {4, nil}, {5, nil}}},
	}
}

// jsonPair is a key of a line and its value's text.
type jsonPair struct{ key, value string }

// linePairs returns the keys of a compact JSON line in order with their
// values' text.
func linePairs(t testing.TB, line string) []jsonPair {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", line)
	}
	var out []jsonPair
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, jsonPair{tok.(string), string(v)})
	}
	return out
}

// replacePair replaces the pair of key in line by repl ("" removes it,
// with its comma).
func replacePair(t testing.TB, line string, p jsonPair, repl string) string {
	t.Helper()
	old := strconv.Quote(p.key) + ":" + p.value
	i := strings.Index(line, old)
	if i < 0 || strings.Count(line, old) != 1 {
		t.Fatalf("%s is not once in %s", old, line)
	}
	if repl == "" {
		if line[i-1] == ',' {
			return line[:i-1] + line[i+len(old):]
		}
		return line[:i] + strings.TrimPrefix(line[i+len(old):], ",")
	}
	return line[:i] + repl + line[i+len(old):]
}

// damage is one way to damage a key: it returns the new pair text, or
// false where it does not apply to the value. mustRefuse says the damaged
// file must be refused (else storing it is right if the store holds what
// the line says).
type damage struct {
	name       string
	apply      func(p jsonPair) (string, bool)
	mustRefuse func(p jsonPair) bool
	// says is what the error must say beside the key, if anything.
	says string
}

func isInt(v string) bool   { _, err := strconv.ParseInt(v, 10, 64); return err == nil }
func isFloat(v string) bool { _, err := strconv.ParseFloat(v, 64); return err == nil && !isInt(v) }
func isString(v string) bool {
	return strings.HasPrefix(v, `"`)
}
func isBool(v string) bool { return v == "true" || v == "false" }
func pair(k, v string) string {
	return strconv.Quote(k) + ":" + v
}
func always(jsonPair) bool { return true }
func never(jsonPair) bool  { return false }

var damages = []damage{
	{"drop", func(jsonPair) (string, bool) { return "", true }, func(p jsonPair) bool { return !optionalKeys[p.key] }, "missing"},
	{"repeat-key", func(p jsonPair) (string, bool) { return pair(p.key, p.value) + "," + pair(p.key, p.value), true }, always, "repeated"},
	{"zero", func(p jsonPair) (string, bool) {
		switch {
		case isString(p.value):
			return pair(p.key, `""`), true
		case isBool(p.value):
			return pair(p.key, "false"), true
		case strings.HasPrefix(p.value, "["):
			return pair(p.key, "[]"), true
		}
		return pair(p.key, "0"), true
	}, never, ""},
	{"negative", func(p jsonPair) (string, bool) {
		switch {
		case isInt(p.value):
			return pair(p.key, "-1"), true
		case isFloat(p.value):
			return pair(p.key, "-1.5"), true
		}
		return "", false
	}, never, ""},
	{"NaN", func(p jsonPair) (string, bool) { return pair(p.key, "NaN"), true }, always, "NaN"},
	{"null", func(p jsonPair) (string, bool) { return pair(p.key, "null"), true }, always, "null"},
	{"huge", func(p jsonPair) (string, bool) {
		switch {
		case isInt(p.value):
			return pair(p.key, "9223372036854775808"), true // beyond int64
		case isFloat(p.value):
			return pair(p.key, "1e300"), true
		}
		return "", false
	}, func(p jsonPair) bool { return isInt(p.value) }, ""},
	{"int64-max", func(p jsonPair) (string, bool) {
		if isInt(p.value) {
			return pair(p.key, "9223372036854775807"), true
		}
		return "", false
	}, never, ""},
	{"wrong-type", func(p jsonPair) (string, bool) {
		if isString(p.value) {
			return pair(p.key, "7"), true
		}
		return pair(p.key, `"7"`), true
	}, always, "got"},
}

// dump returns every row of every table of db, in the order of all
// their columns, as SQLite quotes them: two dumps are equal when the
// store holds the same.
func dump(t testing.TB, db *DB) string {
	t.Helper()
	var out strings.Builder
	for _, tb := range tables {
		rows, err := db.sql.Query(`SELECT name FROM pragma_table_info(?)`, tb)
		if err != nil {
			t.Fatal(err)
		}
		var quoted, order []string
		for rows.Next() {
			var c string
			rows.Scan(&c)
			quoted, order = append(quoted, "quote("+c+")"), append(order, c)
		}
		rows.Close()
		var rowsText sql.NullString
		q := `SELECT group_concat(r, char(10)) FROM (SELECT ` + strings.Join(quoted, "||','||") + ` AS r FROM ` + tb +
			` ORDER BY ` + strings.Join(order, ",") + `)`
		if err := db.sql.QueryRow(q).Scan(&rowsText); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s\n%s\n", tb, rowsText.String)
	}
	return out.String()
}

// checkRefused fails unless err refuses path at line (or names that line)
// and names key, and the store is as before.
func checkRefused(t *testing.T, db *DB, err error, path string, line int, key, says, before string) (after string) {
	t.Helper()
	var pe *kernels.ParseError
	switch {
	case err == nil:
		t.Errorf("stored, want an error naming %s:%d and %q", path, line, key)
	case !errors.As(err, &pe) || pe.File != path:
		t.Errorf("error %v (%T), want a *kernels.ParseError of %s", err, err, path)
	case pe.Line != line && !strings.Contains(pe.Msg, fmt.Sprintf("line %d", line)):
		t.Errorf("error %v: not at line %d, nor naming it", err, line)
	case key != "" && !strings.Contains(pe.Msg, key):
		t.Errorf("error %v: does not name %q", err, key)
	case !strings.Contains(pe.Msg, says):
		t.Errorf("error %v: does not say %q", err, says)
	}
	if after = dump(t, db); after != before {
		t.Errorf("the refused file changed the store")
	}
	return after
}

// TestCorruptionSuite damages every key of every kind of line the store
// reads, each in every way (drop it, repeat the key, set it to 0, to a
// negative, NaN, null, huge, the largest int64, a value of the wrong
// type), and every line (repeat it, cut it): each damaged file is refused
// naming file, line and key and leaving the store as it was, or stored
// with the values the damaged line says (checkRoundTrip). One store per
// base file, holding the undamaged file: a refused file must not touch
// it.
func TestCorruptionSuite(t *testing.T) {
	dir := t.TempDir()
	cases, refused := 0, 0
	for _, base := range corruptBases(t) {
		db := memory(t)
		basePath := filepath.Join(dir, base.name)
		if err := os.WriteFile(basePath, []byte(strings.Join(base.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := db.IngestRunnerJSONL(basePath, "base", nil); err != nil {
			t.Fatalf("%s: the undamaged file: %v", base.name, err)
		}
		state := dump(t, db) // what the store holds before each case
		try := func(name string, lines []string, line int, key, says string, mustRefuse bool) {
			t.Helper()
			cases++
			path := filepath.Join(dir, fmt.Sprintf("case-%d.jsonl", cases))
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			dataset := fmt.Sprintf("case-%d", cases)
			_, err := db.IngestRunnerJSONL(path, dataset, nil)
			if err != nil || mustRefuse {
				refused++
				t.Run(name, func(t *testing.T) { state = checkRefused(t, db, err, path, line, key, says, state) })
				return
			}
			t.Run(name, func(t *testing.T) { checkRoundTrip(t, db, dataset, lines[line-1]) })
			if _, err := db.DeleteSource(dataset, filepath.Base(path)); err != nil {
				t.Fatal(err)
			}
			state = dump(t, db)
		}
		for _, target := range base.targets {
			line := base.lines[target.line-1]
			for _, p := range linePairs(t, line) {
				if p.key == "type" || (target.keys != nil && !contains(target.keys, p.key)) {
					continue
				}
				for _, d := range damages {
					repl, ok := d.apply(p)
					if !ok {
						continue
					}
					lines := append([]string(nil), base.lines...)
					lines[target.line-1] = replacePair(t, line, p, repl)
					if lines[target.line-1] == line {
						continue // the value is already what the damage writes
					}
					try(fmt.Sprintf("%s/line%d/%s/%s", base.name, target.line, p.key, d.name), lines, target.line, p.key, d.says, d.mustRefuse(p))
				}
			}
			// The line itself: repeated, and cut in two halves.
			lines := append([]string(nil), base.lines[:target.line]...)
			lines = append(lines, base.lines[target.line-1:]...)
			try(fmt.Sprintf("%s/line%d/repeat-line", base.name, target.line), lines, target.line+1, "", "",
				!strings.Contains(line, `"type":"device"`) && !strings.Contains(line, `"type":"error"`))
			lines = append([]string(nil), base.lines...)
			lines[target.line-1] = line[:len(line)/2]
			try(fmt.Sprintf("%s/line%d/cut-line", base.name, target.line), lines, target.line, "", `field "`, true) // the key the cut is in or after
		}
	}
	t.Logf("%d damaged files, %d refused, %d stored with their own values", cases, refused, cases-refused)
}

// TestCorruptFiles damages a whole file: empty, a gzip stream cut short
// (inside a line, and between two), garbage, garbage behind gzip's magic
// bytes, no total line: each is refused, naming the file, and stores
// nothing, not even its source.
func TestCorruptFiles(t *testing.T) {
	src, err := os.ReadFile("testdata/ba-s12-m16.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	fig2, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var oneLine bytes.Buffer // the device line, then the stream stops (flushed, not closed)
	zw := gzip.NewWriter(&oneLine)
	zw.Write(fig2[:bytes.IndexByte(fig2, '\n')+1])
	zw.Flush()
	for _, c := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"empty", nil, ": empty file"},
		{"truncated gzip", src[:len(src)/2], fmt.Sprintf(": truncated gzip stream (after %d bytes)", len(src)/2)},
		{"gzip cut after a line", oneLine.Bytes(), fmt.Sprintf(": truncated gzip stream (after %d bytes)", oneLine.Len())},
		{"garbage", []byte("\x00\x01garbage\xff\n"), ":1: not a JSON object"},
		{"garbage after gzip magic", []byte("\x1f\x8bgarbage, not a gzip header"), ": corrupt gzip stream"},
		{"no total line", fig2[:bytes.IndexByte(fig2, '\n')+1], ": no traversal (no total line): nothing stored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := memory(t)
			if _, err := db.IngestRunnerJSONL("testdata/cfg-normal-s12.jsonl.gz", "d", nil); err != nil {
				t.Fatal(err)
			}
			before := dump(t, db)
			path := writeFile(t, "results.jsonl.gz", string(c.content))
			_, err := db.IngestRunnerJSONL(path, "d", nil)
			if err == nil || !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %s%s", err, path, c.want)
			}
			if dump(t, db) != before {
				t.Error("the refused file changed the store")
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// storedColumns are the store's columns of a runner line's keys, by kind
// of line: what checkRoundTrip reads back. Keys the store does not keep
// (the device's tool and command beyond the first file of a platform,
// dobfs's bottom_up_levels, the switch's decisions and conversions, the
// level lines' n and m, which the total's repeat) have none.
var (
	levelTimingKeys = []string{"level", "frontier", "discovered", "device_count", "direction", "convert", "grid",
		"block_size", "reps", "min_ns", "median_ns", "mean_ns", "max_ns", "stddev_ns"}
	identityColumns = map[string]string{"graph": "g.name", "graph_hash": "g.graph_hash", "n": "g.n", "m": "g.m",
		"impl": "i.name", "aggregation": "i.aggregation", "warp_width": "i.warp_width", "chunk": "i.chunk",
		"claim": "i.claim", "algorithm": "a.name", "root": "v.root"}
	totalColumns = map[string]string{"levels": "r.levels", "reached": "r.reached", "depth_hash": "r.result_hash",
		"verified": "r.verified", "min_ns": "r.min_ns", "median_ns": "r.median_ns", "mean_ns": "r.mean_ns",
		"max_ns": "r.max_ns", "stddev_ns": "r.stddev_ns", "wall_min_ns": "r.wall_min_ns",
		"wall_median_ns": "r.wall_median_ns", "wall_mean_ns": "r.wall_mean_ns", "wall_max_ns": "r.wall_max_ns",
		"wall_stddev_ns": "r.wall_stddev_ns", "directions": "r.directions", "reps": "c.repetitions",
		"warmup": "c.warmup", "l2_flush": "c.l2_flush", "block_size": "c.block_size", "grid_cap": "c.grid_cap"}
	deviceColumns = []string{"name", "compute_capability", "sm_count", "l2_bytes", "clock_khz", "mem_clock_khz",
		"mem_bus_bits", "ecc", "driver_version", "runtime_version", "global_mem_bytes"}
	// pageRankDetails are the keys of a PageRank total kept in
	// runs.details_json (kernels.PageRank).
	pageRankDetails = []string{"iterations", "damping", "precision", "reference", "max_abs_error", "l1_error",
		"rank_sum", "reference_rank_sum", "last_delta", "update_min_ns", "update_median_ns", "update_mean_ns",
		"update_max_ns", "update_stddev_ns", "consolidate_min_ns", "consolidate_median_ns", "consolidate_mean_ns",
		"consolidate_max_ns", "consolidate_stddev_ns", "iteration_median_ns"}
)

// checkRoundTrip fails unless the store holds, for the line stored in
// dataset, the values the line says: parse, store, query gives the line.
func checkRoundTrip(t *testing.T, db *DB, dataset, line string) {
	t.Helper()
	if strings.TrimSpace(line) == "" {
		return // a blank line, which readers skip
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("stored a line that is not JSON: %v", err)
	}
	var cols []string
	var keys []string
	where := `FROM runs r JOIN sources s ON s.id = r.source_id JOIN datasets d ON d.id = s.dataset_id
		JOIN variants v ON v.id = r.variant_id JOIN graphs g ON g.id = v.graph_id
		JOIN implementations i ON i.id = r.implementation_id JOIN algorithms a ON a.id = v.algorithm_id
		JOIN run_configs c ON c.id = r.config_id JOIN platforms p ON p.id = r.platform_id`
	args := []any{dataset}
	cond := ` WHERE d.name = ?`
	add := func(key, col string) {
		if _, ok := m[key]; ok {
			keys, cols = append(keys, key), append(cols, col)
		}
	}
	switch m["type"] {
	case "device":
		for _, k := range deviceColumns {
			add(k, "p."+k)
		}
		cond += ` LIMIT 1`
	case "level":
		for k, c := range identityColumns {
			add(k, c)
		}
		for _, k := range levelTimingKeys {
			add(k, "lt."+k)
		}
		where += ` JOIN level_timings lt ON lt.run_id = r.id`
		cond += ` AND i.name = ? AND v.root = ? AND lt.level = ?`
		args = append(args, m["impl"], m["root"], m["level"])
	case "total":
		for k, c := range identityColumns {
			add(k, c)
		}
		for k, c := range totalColumns {
			add(k, c)
		}
		root := any(-1)
		if r, ok := m["root"]; ok {
			root = r
		}
		cond += ` AND i.name = ? AND v.root = ?`
		args = append(args, m["impl"], root)
		if m["algorithm"] == "pagerank" {
			cols, keys = append(cols, "r.details_json"), append(keys, "details_json")
			for _, k := range []string{"wall_min_ns", "wall_median_ns", "wall_mean_ns", "wall_max_ns", "wall_stddev_ns"} {
				if _, ok := m[k]; !ok {
					cols, keys = append(cols, "r."+k), append(keys, "absent "+k) // graphperf-pr prints none
				}
			}
		}
	default:
		return // an error line: the store counts it (Stats.RunnerErrors)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	err := db.sql.QueryRow(`SELECT `+strings.Join(cols, ", ")+` `+where+cond, args...).Scan(ptrs...)
	if errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("the store holds no row for the line %s", line)
	} else if err != nil {
		t.Fatal(err)
	}
	for i, key := range keys {
		switch {
		case key == "details_json":
			checkDetails(t, m, vals[i])
		case strings.HasPrefix(key, "absent "):
			if vals[i] != nil {
				t.Errorf("%s: stored %v for a key the line does not have", strings.TrimPrefix(key, "absent "), vals[i])
			}
		default:
			want := m[key]
			if key == "graph" {
				want = kernels.GraphName(want.(string))
			}
			if !sameValue(want, vals[i]) {
				t.Errorf("%s: the line says %v, the store holds %v", key, want, vals[i])
			}
		}
	}
}

// checkDetails compares a PageRank total's keys with runs.details_json,
// where an absent key is its zero value (omitempty).
func checkDetails(t *testing.T, line map[string]any, stored any) {
	t.Helper()
	var details map[string]any
	dec := json.NewDecoder(strings.NewReader(fmt.Sprint(stored)))
	dec.UseNumber()
	if err := dec.Decode(&details); err != nil {
		t.Fatalf("details_json %v: %v", stored, err)
	}
	for _, k := range pageRankDetails {
		want, ok := line[k]
		if !ok {
			if _, has := details[k]; has {
				t.Errorf("%s: stored %v for a key the line does not have", k, details[k])
			}
			continue
		}
		got, ok := details[k]
		if !ok {
			got = zeroOf(want)
		}
		if !sameValue(want, got) {
			t.Errorf("%s: the line says %v, details_json holds %v", k, want, got)
		}
	}
}

func zeroOf(v any) any {
	switch v.(type) {
	case string:
		return ""
	case bool:
		return false
	case []any:
		return []any{}
	}
	return json.Number("0")
}

// sameValue says whether a JSON value of a line (json.Number, string,
// bool, array) is the value stored (SQLite's int64, float64, string, or
// JSON's).
func sameValue(want, got any) bool {
	switch w := want.(type) {
	case json.Number:
		switch g := got.(type) {
		case int64:
			i, err := w.Int64()
			return err == nil && i == g
		case float64:
			f, err := w.Float64()
			return err == nil && f == g
		case json.Number:
			a, err1 := w.Float64()
			b, err2 := g.Float64()
			return err1 == nil && err2 == nil && a == b
		}
	case string:
		switch g := got.(type) {
		case string:
			return w == g
		case []byte:
			return w == string(g)
		}
	case bool:
		switch g := got.(type) {
		case int64:
			return (g != 0) == w
		case bool:
			return g == w
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sameValue(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// FuzzRunnerLine puts a line in a runner output, fig2.jsonl's device line
// and topo's traversal from root 0 (lines 1-5), in the place of the line
// of its type (device 1, level 2, total 5; another is appended) and
// ingests it into a new store: either the file is refused with an error
// naming it and a line, storing nothing, or the store holds what the line
// says (checkRoundTrip). The seeds are lines the runners printed.
func FuzzRunnerLine(f *testing.F) {
	fig2 := readLines(f, "../../kernels/testdata/fig2.jsonl")
	for _, base := range corruptBases(f) {
		for _, target := range base.targets {
			f.Add(base.lines[target.line-1])
		}
	}
	f.Add(fig2[2])
	f.Add(`{"type":"level","impl":"topo"}`)
	dir := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		lines := append([]string(nil), fig2[:5]...)
		switch {
		case strings.Contains(line, `"type":"device"`):
			lines[0] = line
		case strings.Contains(line, `"type":"level"`):
			lines[1] = line
		case strings.Contains(line, `"type":"total"`):
			lines[4] = line
		default:
			lines = append(lines, line)
		}
		n++
		path := filepath.Join(dir, fmt.Sprintf("fuzz-%d.jsonl", n))
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		db := memory(t)
		_, err := db.IngestRunnerJSONL(path, "d", nil)
		if err != nil {
			var pe *kernels.ParseError
			var fe *kernels.FileError
			var ne *NoTraversalError
			switch {
			case errors.As(err, &pe):
				if pe.File != path || pe.Line < 1 || pe.Line > len(lines) {
					t.Errorf("error %v: not at a line of %s", err, path)
				}
			case errors.As(err, &fe), errors.As(err, &ne):
				if !strings.HasPrefix(err.Error(), path) {
					t.Errorf("error %v does not name %s", err, path)
				}
			default:
				t.Errorf("error %v (%T): names no line", err, err)
			}
			if c := counts(t, db); c["sources"] != 0 || c["runs"] != 0 || c["platforms"] != 0 {
				t.Errorf("a refused file stored %v", c)
			}
			return
		}
		for _, l := range lines {
			checkRoundTrip(t, db, "d", l)
		}
	})
}
