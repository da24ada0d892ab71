package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

// lineReader reads runner output as kernels.Reader does (same lines, same
// records, same errors) but faster: the level and total lines of BFS, which
// are nearly all of a sweep, are decoded by fastLine, and every other line,
// or one fastLine is not sure of, by kernels.Reader itself. Decoding with
// encoding/json was over half of an ingest's time (docs/PERFORMANCE.md,
// "Measurement store").
type lineReader struct {
	s      *bufio.Scanner
	name   string
	line   int
	rec    kernels.Record
	err    error
	intern map[string]string
}

// maxRunnerLine is kernels.Reader's longest line.
const maxRunnerLine = 1 << 20

func newLineReader(r io.Reader, name string) *lineReader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), maxRunnerLine)
	return &lineReader{s: s, name: name, intern: map[string]string{}}
}

// Next reads the next record, as kernels.Reader.Next.
func (r *lineReader) Next() bool {
	if r.err != nil {
		return false
	}
	for r.s.Scan() {
		r.line++
		b := bytes.TrimSpace(r.s.Bytes())
		if len(b) == 0 {
			continue
		}
		if rec, ok := fastLine(b, r.intern); ok {
			r.rec = rec
			return true
		}
		rec, err := slowLine(b, r.name, r.line)
		if err != nil {
			r.err = err
			return false
		}
		r.rec = rec
		return true
	}
	if err := r.s.Err(); err != nil {
		r.err = fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
	}
	return false
}

func (r *lineReader) Record() kernels.Record { return r.rec }
func (r *lineReader) Line() int              { return r.line }
func (r *lineReader) Err() error             { return r.err }

// slowLine decodes one line with kernels.Reader, the reference decoder;
// its errors name line.
func slowLine(b []byte, name string, line int) (kernels.Record, error) {
	rd := kernels.NewReader(bytes.NewReader(b), name)
	if rd.Next() {
		return rd.Record(), nil
	}
	err := rd.Err()
	var pe *kernels.ParseError
	if errors.As(err, &pe) {
		return nil, &kernels.ParseError{File: pe.File, Line: line, Msg: pe.Msg}
	}
	if err == nil {
		err = errors.New("no record")
	}
	return nil, fmt.Errorf("%s:%d: %w", name, line, err)
}

// jsonField is one key of a compact, flat JSON object with its raw value.
type jsonField struct {
	key, value []byte
	kind       byte // '"' string (without its quotes), '0' number, 't' true, 'f' false
}

// maxFastFields bounds the keys fastLine takes; a BFS total line has 32.
const maxFastFields = 48

// fastLine decodes b when it is a BFS level or total line in the runner's
// own form: one flat object, no white space, strings of printable ASCII
// without escapes, each key once and spelled as the kernels types spell
// it, values of the fields' JSON types. It returns false for anything else
// (the caller then decodes with kernels.Reader), so that every record it
// returns is the one kernels.Reader would (FuzzFastLine checks this).
// Unknown keys are ignored, as encoding/json does, unless they match a
// known key but for case (encoding/json would take them).
func fastLine(b []byte, intern map[string]string) (kernels.Record, bool) {
	var buf [maxFastFields]jsonField
	fields, ok := splitFlatObject(b, buf[:0])
	if !ok {
		return nil, false
	}
	var typ []byte
	for _, f := range fields {
		if string(f.key) == "type" {
			if f.kind != '"' || typ != nil {
				return nil, false
			}
			typ = f.value
		}
	}
	switch string(typ) {
	case "level":
		l := &kernels.Level{}
		if !fillLevel(l, fields, intern) || l.Impl == "" {
			return nil, false
		}
		return l, true
	case "total":
		t := &kernels.Total{}
		if !fillTotal(t, fields, intern) || t.Impl == "" || t.Algorithm == kernels.AlgorithmPageRank {
			return nil, false
		}
		if _, err := kernels.ParseHash(t.ResultHash()); err != nil {
			return nil, false
		}
		return t, true
	}
	return nil, false
}

// splitFlatObject splits {"k":v,...} into fields, or returns false.
func splitFlatObject(b []byte, fields []jsonField) ([]jsonField, bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	i := 1
	if b[i] == '}' {
		return fields, i == len(b)-1
	}
	for {
		if len(fields) == cap(fields) {
			return nil, false
		}
		var f jsonField
		var ok bool
		if f.key, i, ok = scanString(b, i); !ok || i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i++
		if i >= len(b) {
			return nil, false
		}
		switch c := b[i]; {
		case c == '"':
			f.kind = '"'
			if f.value, i, ok = scanString(b, i); !ok {
				return nil, false
			}
		case c == 't' && bytes.HasPrefix(b[i:], []byte("true")):
			f.kind, f.value, i = 't', b[i:i+4], i+4
		case c == 'f' && bytes.HasPrefix(b[i:], []byte("false")):
			f.kind, f.value, i = 'f', b[i:i+5], i+5
		case c == '-' || c >= '0' && c <= '9':
			j := scanNumber(b, i)
			if j < 0 {
				return nil, false
			}
			f.kind, f.value, i = '0', b[i:j], j
		default:
			return nil, false // null, an array or object, white space
		}
		fields = append(fields, f)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return fields, i == len(b)-1
		default:
			return nil, false
		}
	}
}

// scanString reads the string at b[i] ('"'), which must hold printable
// ASCII and no escapes, and returns its contents and the index after it.
func scanString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// scanNumber returns the end of the JSON number at b[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// decoder assigns fields to Go values the way encoding/json would for the
// values splitFlatObject accepts.
type decoder struct {
	intern map[string]string
	ok     bool
}

func (d *decoder) str(f jsonField, dst *string) {
	if f.kind != '"' {
		d.ok = false
		return
	}
	s, ok := d.intern[string(f.value)]
	if !ok {
		s = string(f.value)
		if len(d.intern) < 1<<16 {
			d.intern[s] = s
		}
	}
	*dst = s
}

func (d *decoder) int64(f jsonField, dst *int64) {
	v, err := strconv.ParseInt(string(f.value), 10, 64)
	if f.kind != '0' || err != nil {
		d.ok = false
		return
	}
	*dst = v
}

func (d *decoder) int(f jsonField, dst *int) {
	v, err := strconv.ParseInt(string(f.value), 10, strconv.IntSize)
	if f.kind != '0' || err != nil {
		d.ok = false
		return
	}
	*dst = int(v)
}

func (d *decoder) uint32(f jsonField, dst *uint32) {
	v, err := strconv.ParseUint(string(f.value), 10, 32)
	if f.kind != '0' || err != nil {
		d.ok = false
		return
	}
	*dst = uint32(v)
}

func (d *decoder) float(f jsonField, dst *float64) {
	v, err := strconv.ParseFloat(string(f.value), 64)
	if f.kind != '0' || err != nil {
		d.ok = false
		return
	}
	*dst = v
}

func (d *decoder) bool(f jsonField, dst *bool) {
	switch f.kind {
	case 't':
		*dst = true
	case 'f':
		*dst = false
	default:
		d.ok = false
	}
}

// identity sets an Identity key; it returns false for another key.
func (d *decoder) identity(f jsonField, id *kernels.Identity) bool {
	switch string(f.key) {
	case "graph":
		d.str(f, &id.Graph)
	case "graph_hash":
		d.str(f, &id.GraphHash)
	case "n":
		d.int64(f, &id.N)
	case "m":
		d.int64(f, &id.M)
	case "root":
		d.uint32(f, &id.Root)
	case "impl":
		d.str(f, &id.Impl)
	case "algorithm":
		d.str(f, &id.Algorithm)
	case "aggregation":
		d.str(f, &id.Aggregation)
	case "warp_width":
		d.int(f, &id.WarpWidth)
	case "chunk":
		d.int(f, &id.Chunk)
	case "claim":
		d.str(f, &id.Claim)
	default:
		return false
	}
	return true
}

// times sets a Times key (prefix "" or "wall_"); it returns false for
// another key.
func (d *decoder) times(f jsonField, t *kernels.Times) bool {
	switch string(f.key) {
	case "min_ns":
		d.float(f, &t.MinNs)
	case "median_ns":
		d.float(f, &t.MedianNs)
	case "mean_ns":
		d.float(f, &t.MeanNs)
	case "max_ns":
		d.float(f, &t.MaxNs)
	case "stddev_ns":
		d.float(f, &t.StddevNs)
	default:
		return false
	}
	return true
}

// levelKeys and totalKeys are every JSON key of kernels.Level and
// kernels.Total, and "type".
var levelKeys, totalKeys = jsonKeys(kernels.Level{}), jsonKeys(kernels.Total{})

// jsonKeys returns "type" and the JSON keys of v's struct type, those of
// embedded structs included.
func jsonKeys(v any) []string {
	keys := []string{"type"}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			keys = append(keys, name)
		}
	}
	walk(reflect.TypeOf(v))
	return keys
}

// unknownKey says whether key, which no case of a fill function took, is
// one encoding/json ignores too: it matches none of keys, even but for
// case. A known key fastLine does not decode (PageRank's) matches.
func unknownKey(key []byte, keys []string) bool {
	for _, k := range keys {
		if len(k) == len(key) && strings.EqualFold(k, string(key)) {
			return false
		}
	}
	return true
}

// duplicate says whether fields repeats a key; a flat runner line has no
// repeats, and encoding/json's rule for them (the last wins) is not worth
// copying.
func duplicate(fields []jsonField) bool {
	for i := range fields {
		for j := range i {
			if bytes.Equal(fields[i].key, fields[j].key) {
				return true
			}
		}
	}
	return false
}

func fillLevel(l *kernels.Level, fields []jsonField, intern map[string]string) bool {
	if duplicate(fields) {
		return false
	}
	d := decoder{intern: intern, ok: true}
	for _, f := range fields {
		if d.identity(f, &l.Identity) || d.times(f, &l.Times) {
			continue
		}
		switch string(f.key) {
		case "type":
		case "level":
			d.int(f, &l.Level)
		case "frontier":
			d.int64(f, &l.Frontier)
		case "discovered":
			d.int64(f, &l.Discovered)
		case "device_count":
			d.int64(f, &l.DeviceCount)
		case "direction":
			d.str(f, &l.Direction)
		case "convert":
			d.str(f, &l.Convert)
		case "grid":
			d.int64(f, &l.Grid)
		case "block_size":
			d.int(f, &l.BlockSize)
		case "reps":
			d.int(f, &l.Reps)
		default:
			if !unknownKey(f.key, levelKeys) {
				return false
			}
		}
	}
	return d.ok
}

func fillTotal(t *kernels.Total, fields []jsonField, intern map[string]string) bool {
	if duplicate(fields) {
		return false
	}
	d := decoder{intern: intern, ok: true}
	var wall kernels.Times
	for _, f := range fields {
		if d.identity(f, &t.Identity) || d.times(f, &t.Times) {
			continue
		}
		if k, ok := bytes.CutPrefix(f.key, []byte("wall_")); ok {
			if d.times(jsonField{key: k, value: f.value, kind: f.kind}, &wall) {
				continue
			}
		}
		switch string(f.key) {
		case "type":
		case "levels":
			d.int(f, &t.Levels)
		case "reached":
			d.int64(f, &t.Reached)
		case "depth_hash":
			d.str(f, &t.DepthHash)
		case "distance_hash":
			d.str(f, &t.DistanceHash)
		case "verified":
			d.bool(f, &t.Verified)
		case "l2_flush":
			d.bool(f, &t.L2Flush)
		case "block_size":
			d.int(f, &t.BlockSize)
		case "grid_cap":
			d.int64(f, &t.GridCap)
		case "reps":
			d.int(f, &t.Reps)
		case "warmup":
			d.int(f, &t.Warmup)
		case "bottom_up_levels":
			d.int(f, &t.BottomUpLevels)
		case "directions":
			d.str(f, &t.Directions)
		default:
			if !unknownKey(f.key, totalKeys) {
				return false
			}
		}
	}
	t.WallTimes = kernels.WallTimes{WallMinNs: wall.MinNs, WallMedianNs: wall.MedianNs, WallMeanNs: wall.MeanNs,
		WallMaxNs: wall.MaxNs, WallStddevNs: wall.StddevNs}
	return d.ok
}

// lineRecord is a record and its line.
type lineRecord struct {
	rec  kernels.Record
	line int
}

// recordBatch is the next records of a file; err, in the last batch, is
// the error that ended the reading (nil at a clean end).
type recordBatch struct {
	recs []lineRecord
	err  error
}

// asyncReader decodes a file in its own goroutine and hands the records
// over in batches, in order.
type asyncReader struct {
	batches  chan recordBatch
	done     chan struct{} // closed by stop: the reader is not wanted
	finished chan struct{} // closed when the goroutine has returned
}

// recordBatchSize is the records per batch: enough that the hand-over
// costs nothing, few enough that both goroutines start at once.
const recordBatchSize = 256

// decodeAsync reads r with a lineReader in a new goroutine. The caller
// ranges over batches and must call stop when done, read to the end or not.
func decodeAsync(r io.Reader, name string) *asyncReader {
	a := &asyncReader{batches: make(chan recordBatch, 8), done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(a.finished)
		defer close(a.batches)
		send := func(b recordBatch) bool {
			select {
			case a.batches <- b:
				return true
			case <-a.done:
				return false
			}
		}
		rd := newLineReader(r, name)
		batch := make([]lineRecord, 0, recordBatchSize)
		for rd.Next() {
			batch = append(batch, lineRecord{rd.Record(), rd.Line()})
			if len(batch) == cap(batch) {
				if !send(recordBatch{recs: batch}) {
					return
				}
				batch = make([]lineRecord, 0, recordBatchSize)
			}
		}
		send(recordBatch{recs: batch, err: rd.Err()})
	}()
	return a
}

// stop ends the goroutine and waits for it.
func (a *asyncReader) stop() {
	close(a.done)
	<-a.finished
}
