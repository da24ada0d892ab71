package kernels

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// The runner's JSON lines (kernels/cuda/README.md, "JSON lines"): one
// object per line, told apart by "type". The types below hold what the
// lines say; which keys each kind of line must have, and the values they
// may take, is declared once in format.go, which every reader of the
// format decodes by. Keys a kind does not declare are ignored, so a newer
// runner's extra keys do no harm.

// Record is one parsed line: *Device, *Level, *Total, *Error, or *Other
// for a type this package does not know.
type Record interface {
	// Type returns the line's "type".
	Type() string
}

// Device is the first line: the GPU and how the runner was built and run.
type Device struct {
	Tool                 string `json:"tool"`
	Device               int    `json:"device"`
	Name                 string `json:"name"`
	ComputeCapability    string `json:"compute_capability"`
	SMCount              int    `json:"sm_count"`
	L2Bytes              int64  `json:"l2_bytes"`
	PersistingL2MaxBytes int64  `json:"persisting_l2_max_bytes"`
	GlobalMemBytes       uint64 `json:"global_mem_bytes"`
	ClockKHz             int64  `json:"clock_khz"`
	MemClockKHz          int64  `json:"mem_clock_khz"`
	MemBusBits           int    `json:"mem_bus_bits"`
	MaxThreadsPerSM      int    `json:"max_threads_per_sm"`
	MaxBlocksPerSM       int    `json:"max_blocks_per_sm"`
	RegsPerSM            int    `json:"regs_per_sm"`
	SmemPerSMBytes       int64  `json:"smem_per_sm_bytes"`
	WarpSize             int    `json:"warp_size"`
	ECC                  int    `json:"ecc"`
	DriverVersion        int    `json:"driver_version"`  // cudaDriverGetVersion, 1000·major + 10·minor
	RuntimeVersion       int    `json:"runtime_version"` // cudaRuntimeGetVersion, e.g. 13000
	NvccVersion          string `json:"nvcc_version"`    // major.minor.build
	NvccFlags            string `json:"nvcc_flags"`
	CUDAModuleLoading    string `json:"cuda_module_loading"`
	Command              string `json:"command"`
}

// Identity is what level, total and error lines say about their traversal.
type Identity struct {
	Graph       string `json:"graph"`      // the .gpg file's base name
	GraphHash   string `json:"graph_hash"` // the file header's CRC-32C, 8 hex digits
	N           int64  `json:"n"`
	M           int64  `json:"m"`
	Root        uint32 `json:"root"`
	Impl        string `json:"impl"`
	Algorithm   string `json:"algorithm"`   // "bfs" or "pagerank"
	Aggregation string `json:"aggregation"` // atomic, bulk, warp-reduce, block-reduce or -
	WarpWidth   int    `json:"warp_width"`
	Chunk       int    `json:"chunk"`
	Claim       string `json:"claim"` // cas, plain or none
}

// Times summarise the R timed repetitions, in nanoseconds; the sample
// standard deviation has n-1 in the denominator (0 for one repetition).
type Times struct {
	MinNs    float64 `json:"min_ns"`
	MedianNs float64 `json:"median_ns"`
	MeanNs   float64 `json:"mean_ns"`
	MaxNs    float64 `json:"max_ns"`
	StddevNs float64 `json:"stddev_ns"`
}

// WallTimes are Times of the event pair around a whole traversal's level
// loop (counter resets, read-backs and host decisions included).
type WallTimes struct {
	WallMinNs    float64 `json:"wall_min_ns"`
	WallMedianNs float64 `json:"wall_median_ns"`
	WallMeanNs   float64 `json:"wall_mean_ns"`
	WallMaxNs    float64 `json:"wall_max_ns"`
	WallStddevNs float64 `json:"wall_stddev_ns"`
}

// Level is one BFS level of one (root, implementation): level L expands the
// Frontier vertices at depth L and discovers those at depth L+1.
type Level struct {
	Identity
	Level       int    `json:"level"`
	Frontier    int64  `json:"frontier"`
	Discovered  int64  `json:"discovered"`
	DeviceCount int64  `json:"device_count"`
	Direction   string `json:"direction"` // top-down, bottom-up or -
	// Convert is the frontier conversion the level did: dobfs's
	// queue-to-bitmap or bitmap-to-queue (inside the level's time); for
	// the switching BFS also depth-to-queue or depth-to-bitmap (timed
	// apart, SwitchLevel); "-" for none.
	Convert   string `json:"convert"`
	Grid      int64  `json:"grid"`
	BlockSize int    `json:"block_size"`
	Reps      int    `json:"reps"`
	Times
	SwitchLevel
}

// ImplSwitch is the switching BFS's "impl" (graphperf-bfs --impl switch
// --decisions FILE, kernels/cuda/README.md "Switching BFS"): every level
// runs the implementation a decision file names. Not one of Impls.
const ImplSwitch = "switch"

// SwitchLevel is what a switching BFS's level line adds (empty on other
// implementations' lines): the implementation that ran the level, the
// frontier form it read (depth, queue or bitmap), and the times of the
// conversion that built that form (Level.Convert; zero when none), timed
// by their own event pair, apart from the level's Times.
type SwitchLevel struct {
	SwitchImpl string `json:"switch_impl,omitempty"`
	Form       string `json:"form,omitempty"`
	ConvertTimes
}

// ConvertTimes are Times of a switching BFS's frontier conversions: of
// one level's conversion on a level line, of the per-repetition sums of
// all of them on a total line.
type ConvertTimes struct {
	ConvertMinNs    float64 `json:"convert_min_ns,omitempty"`
	ConvertMedianNs float64 `json:"convert_median_ns,omitempty"`
	ConvertMeanNs   float64 `json:"convert_mean_ns,omitempty"`
	ConvertMaxNs    float64 `json:"convert_max_ns,omitempty"`
	ConvertStddevNs float64 `json:"convert_stddev_ns,omitempty"`
}

// SwitchTotal is what a switching BFS's total line adds (zero on other
// totals). Its Times are then the per-repetition sums of every level's
// kernel time plus conversion time; KernelTimes and ConvertTimes split
// them.
type SwitchTotal struct {
	Decisions       string `json:"decisions,omitempty"`        // the decision file's base name
	DecisionsHash   string `json:"decisions_hash,omitempty"`   // FNV-1a 64 of its bytes, 16 hex digits
	DecisionsSource string `json:"decisions_source,omitempty"` // its "source" line
	// SwitchImpls is the implementation run at each level.
	SwitchImpls    []string `json:"switch_impls,omitempty"`
	Conversions    int      `json:"conversions,omitempty"` // levels with a conversion
	KernelMinNs    float64  `json:"kernel_min_ns,omitempty"`
	KernelMedianNs float64  `json:"kernel_median_ns,omitempty"`
	KernelMeanNs   float64  `json:"kernel_mean_ns,omitempty"`
	KernelMaxNs    float64  `json:"kernel_max_ns,omitempty"`
	KernelStddevNs float64  `json:"kernel_stddev_ns,omitempty"`
	ConvertTimes
}

// ResultHash is the hash of the traversal's result: the depth hash of a
// BFS, the distance hash of an SSSP.
func (t *Total) ResultHash() string {
	if t.DepthHash == "" {
		return t.DistanceHash
	}
	return t.DepthHash
}

// Total is one (root, implementation) of BFS, the sum of its level times,
// or one implementation of PageRank (Algorithm "pagerank", no root, no
// depth hash), the time of all its iterations.
type Total struct {
	Identity
	Levels    int    `json:"levels"`
	Reached   int64  `json:"reached"`
	DepthHash string `json:"depth_hash"` // FNV-1a 64 of the depth array, 16 hex digits (props.DepthHash); BFS only
	// DistanceHash is graphperf-la's SSSP result: FNV-1a 64 of the
	// distance array (kernels/cuda/LINALG.md); SSSP only.
	DistanceHash string `json:"distance_hash,omitempty"`
	// Model and Variant are graphperf-la's (kernels/cuda/LINALG.md):
	// empty on graphperf-bfs's and graphperf-pr's totals. A graphperf-la
	// total has no level lines, no Levels, aggregation or claim.
	Model          string `json:"model,omitempty"`
	Variant        string `json:"variant,omitempty"`
	Verified       bool   `json:"verified"`
	L2Flush        bool   `json:"l2_flush"`
	BlockSize      int    `json:"block_size"`
	GridCap        int64  `json:"grid_cap"`
	Reps           int    `json:"reps"`
	Warmup         int    `json:"warmup"`
	BottomUpLevels int    `json:"bottom_up_levels,omitempty"` // dobfs
	Directions     string `json:"directions,omitempty"`       // dobfs: T or B per level
	Times
	WallTimes
	PageRank
	SwitchTotal
}

// PageRank holds what a PageRank total line (graphperf-pr,
// kernels/cuda/README.md "PageRank") adds; zero on BFS lines. Times are
// then the whole run, every iteration's update and consolidation launches.
type PageRank struct {
	Iterations int     `json:"iterations,omitempty"`
	Damping    float64 `json:"damping,omitempty"`
	Precision  string  `json:"precision,omitempty"` // "float32"
	// Reference says what the ranks were compared with: "file" (the Go
	// reference, props.PageRank, given with --reference) or "cpu" (the
	// runner's own float64 computation).
	Reference        string  `json:"reference,omitempty"`
	MaxAbsError      float64 `json:"max_abs_error,omitempty"` // max |gpu - reference|
	L1Error          float64 `json:"l1_error,omitempty"`      // sum |gpu - reference|
	RankSum          float64 `json:"rank_sum,omitempty"`
	ReferenceRankSum float64 `json:"reference_rank_sum,omitempty"`
	// LastDelta is the sum of |rank change| of the last iteration (not
	// given for the NoDiv kinds).
	LastDelta *float64 `json:"last_delta,omitempty"`
	// Update* and Consolidate* summarise, over the repetitions, the sums
	// of the update and of the consolidation kernels' times.
	UpdateMinNs         float64 `json:"update_min_ns,omitempty"`
	UpdateMedianNs      float64 `json:"update_median_ns,omitempty"`
	UpdateMeanNs        float64 `json:"update_mean_ns,omitempty"`
	UpdateMaxNs         float64 `json:"update_max_ns,omitempty"`
	UpdateStddevNs      float64 `json:"update_stddev_ns,omitempty"`
	ConsolidateMinNs    float64 `json:"consolidate_min_ns,omitempty"`
	ConsolidateMedianNs float64 `json:"consolidate_median_ns,omitempty"`
	ConsolidateMeanNs   float64 `json:"consolidate_mean_ns,omitempty"`
	ConsolidateMaxNs    float64 `json:"consolidate_max_ns,omitempty"`
	ConsolidateStddevNs float64 `json:"consolidate_stddev_ns,omitempty"`
	// IterationMedianNs is, per iteration, the median over the
	// repetitions of its update plus consolidation time.
	IterationMedianNs []float64 `json:"iteration_median_ns,omitempty"`
}

// Error reports a traversal whose result disagrees with the runner's CPU
// reference or with the first implementation run for its root.
type Error struct {
	Identity
	What string `json:"what"`
	// Iterations is graphperf-pr's: its error lines name the run's
	// iteration count; 0 on the other runners' errors.
	Iterations    int    `json:"iterations,omitempty"`
	DepthHash     string `json:"depth_hash"`
	ReferenceHash string `json:"reference_hash"` // empty with --no-cpu-check
	FirstImpl     string `json:"first_impl"`
	FirstHash     string `json:"first_hash"`
}

// Other is a line of a type this package does not know, kept raw.
type Other struct {
	Kind string
	Raw  json.RawMessage
}

func (*Device) Type() string  { return "device" }
func (*Level) Type() string   { return "level" }
func (*Total) Type() string   { return "total" }
func (*Error) Type() string   { return "error" }
func (o *Other) Type() string { return o.Kind }

// ParseHash reads a depth hash as the runner prints it (16 hex digits).
func ParseHash(s string) (uint64, error) {
	h, err := strconv.ParseUint(s, 16, 64)
	if len(s) != 16 || err != nil {
		return 0, fmt.Errorf("depth hash %q: want 16 hex digits", s)
	}
	return h, nil
}

// FormatHash prints a depth hash as the runner does.
func FormatHash(h uint64) string { return fmt.Sprintf("%016x", h) }

// ParseError is a malformed line of runner output: File and Line locate
// it, Record names its kind ("level record"; empty when the line is not
// a JSON object or has no type), Field the key at fault (empty when
// none), and Msg says what is wrong, record and field included
// ("level record: field \"frontier\" missing").
type ParseError struct {
	File   string
	Line   int
	Record string
	Field  string
	Msg    string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// The errors of a file that cannot be read as a whole (FileError.Err).
var (
	ErrEmptyFile     = errors.New("empty file")
	ErrTruncatedGzip = errors.New("truncated gzip stream")
)

// FileError is a runner output file that is not readable as a whole: of 0
// bytes (Err ErrEmptyFile), a gzip stream that ends before its end
// (ErrTruncatedGzip), or one that is corrupt (the gzip package's error).
// Size is the file's length in bytes.
type FileError struct {
	File string
	Size int64
	Err  error
}

func (e *FileError) Error() string {
	switch e.Err {
	case ErrEmptyFile:
		return fmt.Sprintf("%s: empty file", e.File)
	case ErrTruncatedGzip:
		return fmt.Sprintf("%s: truncated gzip stream (after %d bytes)", e.File, e.Size)
	}
	return fmt.Sprintf("%s: corrupt gzip stream (%d bytes): %v", e.File, e.Size, e.Err)
}

// Unwrap returns Err.
func (e *FileError) Unwrap() error { return e.Err }

// maxLine bounds a line; the runner's longest, the device line, holds the
// command line.
const maxLine = 1 << 20

// Reader reads runner output line by line, like bufio.Scanner: Next
// advances to the next record, Record returns it, Err reports the first
// malformed line (a *ParseError), a file that cannot be read (a
// *FileError) or another read error. Blank lines are skipped. Every line
// is decoded by the declaration of its kind (RecordKinds).
type Reader struct {
	s    *bufio.Scanner
	name string
	line int
	rec  Record
	err  error
	dec  decoder
	src  *fileSource // the decompressed file, when the reader has one
}

// NewReader reads from r; name is the file name errors give.
func NewReader(r io.Reader, name string) *Reader {
	rd := &Reader{name: name, dec: decoder{intern: interner{}}}
	rd.s = bufio.NewScanner(r)
	rd.s.Buffer(make([]byte, 0, 64<<10), maxLine)
	rd.s.Split(rd.split)
	return rd
}

// NewFileReader reads the runner output file name of size bytes from r,
// decompressing it when it is gzip-compressed (by its magic bytes, whatever
// its name). A file of 0 bytes is a *FileError at once; a gzip stream cut
// short or corrupt is one when the reading reaches it, also when the cut
// falls between two lines (a gzip stream knows its end).
func NewFileReader(r io.Reader, size int64, name string) (*Reader, error) {
	if size == 0 {
		return nil, &FileError{File: name, Err: ErrEmptyFile}
	}
	var magic [2]byte
	n, err := io.ReadFull(r, magic[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r = io.MultiReader(bytes.NewReader(magic[:n]), r)
	if n < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return NewReader(r, name), nil
	}
	src := &fileSource{name: name, size: size}
	zr, err := gzip.NewReader(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return nil, src.fail(err)
	}
	src.r = zr
	rd := NewReader(src, name)
	rd.src = src
	return rd, nil
}

// fileSource is a gzip stream whose errors are *FileErrors.
type fileSource struct {
	r    io.Reader
	name string
	size int64
	err  error
}

func (s *fileSource) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		err = s.fail(err)
	}
	return n, err
}

func (s *fileSource) fail(err error) error {
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = ErrTruncatedGzip
	}
	s.err = &FileError{File: s.name, Size: s.size, Err: err}
	return s.err
}

// split is bufio.ScanLines, except that the last bytes of a stream that
// failed are its error, not a line: a gzip stream cut inside a line is a
// truncated file, not a malformed line.
func (r *Reader) split(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && r.src != nil && r.src.err != nil && bytes.IndexByte(data, '\n') < 0 {
		return 0, nil, r.src.err
	}
	return bufio.ScanLines(data, atEOF)
}

// Next reads the next record; it returns false at the end or on an error.
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	for r.s.Scan() {
		r.line++
		b := bytes.TrimSpace(r.s.Bytes())
		if len(b) == 0 {
			continue
		}
		rec, err := r.dec.decode(b)
		if err != nil {
			r.err = &ParseError{File: r.name, Line: r.line, Record: err.record, Field: err.field, Msg: err.Error()}
			return false
		}
		r.rec = rec
		return true
	}
	if err := r.s.Err(); err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			r.err = fe
		} else {
			r.err = fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
		}
	}
	return false
}

// Record returns the record Next read.
func (r *Reader) Record() Record { return r.rec }

// Line returns the line number of the record Next read.
func (r *Reader) Line() int { return r.line }

// Err returns the error that stopped Next, nil at a clean end.
func (r *Reader) Err() error { return r.err }

// Results is everything one runner output holds.
type Results struct {
	Device *Device // the first device line; nil if there was none
	Levels []Level
	Totals []Total
	Errors []Error
}

// Parse reads a whole runner output; name is the file name errors give. A
// traversal that the output holds twice is an error (Traversals).
func Parse(r io.Reader, name string) (*Results, error) {
	return parse(NewReader(r, name))
}

func parse(rd *Reader) (*Results, error) {
	res := &Results{}
	var seen Traversals
	for rd.Next() {
		if err := seen.Add(rd.Record(), rd.name, rd.Line()); err != nil {
			return res, err
		}
		switch rec := rd.Record().(type) {
		case *Device:
			if res.Device == nil {
				res.Device = rec
			}
		case *Level:
			res.Levels = append(res.Levels, *rec)
		case *Total:
			res.Totals = append(res.Totals, *rec)
		case *Error:
			res.Errors = append(res.Errors, *rec)
		}
	}
	return res, rd.Err()
}

// ReadFile parses the runner output in the file at path, decompressing it
// when it is gzip-compressed (by its magic bytes, whatever its name). An
// empty file, or a gzip stream cut short, is a *FileError.
func ReadFile(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rd, err := NewFileReader(f, fi.Size(), path)
	if err != nil {
		return nil, err
	}
	return parse(rd)
}

// TraversalKey identifies one traversal of a runner output: an algorithm's
// run of one implementation from one root of one graph (PageRank: root 0),
// for graphperf-la also of one model and variant.
type TraversalKey struct {
	Algorithm, Graph, Impl, Model, Variant string
	Root                                   uint32
}

func (k TraversalKey) String() string {
	s := fmt.Sprintf("%s of %s", k.Impl, k.Graph)
	if k.Algorithm != AlgorithmPageRank {
		s += fmt.Sprintf(" from root %d", k.Root)
	}
	if k.Model != "" {
		s += fmt.Sprintf(" (%s %s)", k.Model, k.Variant)
	}
	return s
}

// Key returns the traversal id identifies, of a total (or a level) t of
// the kind of algorithm.
func keyOf(id *Identity, model, variant string) TraversalKey {
	alg := id.Algorithm
	if alg == "" {
		alg = AlgorithmBFS
	}
	return TraversalKey{Algorithm: alg, Graph: id.Graph, Impl: id.Impl, Model: model, Variant: variant, Root: id.Root}
}

// Traversals checks that an output holds each traversal once
// (kernels/cuda/README.md, "JSON lines": a traversal is its level lines
// and then its total line, and no traversal comes twice), and that its
// device lines, if more than one, say the same. A repeat, with the same
// times or not, is an error naming both lines: the runner never prints
// one, so it is a concatenated or edited file, and keeping either copy
// silently would hide that. The zero value is ready to use.
type Traversals struct {
	open       map[TraversalKey]int // first level line of a traversal not yet totalled
	done       map[TraversalKey]int // its total's line
	device     *Device
	deviceLine int
	last       TraversalKey // of the last level line: its traversal is open
}

// Add records rec, read from file's line; it returns a *ParseError for a
// line of a traversal already ended by its total.
func (s *Traversals) Add(rec Record, file string, line int) error {
	if s.done == nil {
		s.open, s.done = map[TraversalKey]int{}, map[TraversalKey]int{}
	}
	switch r := rec.(type) {
	case *Device:
		if s.device == nil {
			s.device, s.deviceLine = r, line
		} else if *r != *s.device {
			return &ParseError{File: file, Line: line, Record: deviceKind.Name, Msg: fmt.Sprintf(
				"%s: a second device line, unlike the first (line %d): two runs' outputs in one file?", deviceKind.Name, s.deviceLine)}
		}
	case *Level:
		k := keyOf(&r.Identity, "", "")
		if k == s.last {
			return nil // the next level of the traversal of the line before
		}
		s.last = k
		if first, ok := s.done[k]; ok {
			return &ParseError{File: file, Line: line, Record: levelKind.Name, Msg: fmt.Sprintf(
				"%s: a traversal of %s again: its total is at line %d (a duplicated traversal)", levelKind.Name, k, first)}
		}
		if _, ok := s.open[k]; !ok {
			s.open[k] = line
		}
	case *Total:
		k := keyOf(&r.Identity, r.Model, r.Variant)
		if first, ok := s.done[k]; ok {
			return &ParseError{File: file, Line: line, Record: "total record", Msg: fmt.Sprintf(
				"total record: a second total of %s: the first is at line %d (a duplicated traversal)", k, first)}
		}
		delete(s.open, k)
		s.done[k] = line
		s.last = TraversalKey{}
	}
	return nil
}

// Count returns the traversals ended by a total so far.
func (s *Traversals) Count() int { return len(s.done) }
