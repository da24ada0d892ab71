package kernels

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The declaration of the runners' records (kernels/cuda/README.md, "JSON
// lines"; kernels/cuda/LINALG.md for graphperf-la): every key of every kind
// of line, its JSON type, when a record must have it and the values it may
// take. It is the only place the readers learn the format from: Reader
// (and so Parse, ReadFile and the store's ingest, analysis/store) decodes
// every line by it, and a line that breaks it is an error naming file,
// line and field. No reader defaults a value: a required key that is
// absent is an error ("level record: field \"frontier\" missing"), never a
// zero.
//
// Rules. A key a kind does not declare is ignored (a newer runner's extra
// keys do no harm); a declared key may appear once. A required key that is
// absent, a value of the wrong JSON type, null (the runner's printing of a
// NaN or an infinite time), a number out of its Go type's range, a value
// below its Range, or one not in Values is an error. Every runner output in
// kernels/measured and testdata has every key its kind requires: no kind
// here needed a rule by runner version (TestDeclarationReadsEmbedded
// checks every embedded file).

// Kind is the JSON type of a field's value.
type Kind uint8

const (
	KindString  Kind = iota + 1 // a JSON string
	KindInt                     // a JSON number that is an integer (no fraction, no exponent)
	KindNumber                  // a JSON number
	KindBool                    // true or false
	KindStrings                 // an array of strings
	KindNumbers                 // an array of numbers
)

func (k Kind) String() string {
	switch k {
	case KindString:
		return "a string"
	case KindInt:
		return "an integer"
	case KindNumber:
		return "a number"
	case KindBool:
		return "true or false"
	case KindStrings:
		return "an array of strings"
	case KindNumbers:
		return "an array of numbers"
	}
	return "a value"
}

// Need says when a record must have a field.
type Need uint8

const (
	// Required: every record of the kind has it.
	Required Need = iota + 1
	// Optional: the runner leaves it out in a case its Field's doc names;
	// absent, its Go field is nil (a pointer) or the value the doc names.
	Optional
	// ForSwitch: required on the switching BFS's records (impl
	// "switch"); other implementations' records have none.
	ForSwitch
	// ForDOBFS: required on dobfs's records (impl "dobfs").
	ForDOBFS
	// UnlessNoDiv: required unless the impl ends in "-nodiv" (PageRank's
	// NoDiv kinds print no last delta).
	UnlessNoDiv
)

// The classes of implementations the Need rules tell apart.
const (
	implOther = iota
	implSwitch
	implDOBFS
	implNoDiv
	needRules
)

// needRule is the class of impl.
func needRule(impl string) int {
	switch {
	case impl == ImplSwitch:
		return implSwitch
	case impl == "dobfs":
		return implDOBFS
	case strings.HasSuffix(impl, "-nodiv"):
		return implNoDiv
	}
	return implOther
}

// required returns the set of the fields a record of implementation impl
// must have (bit i: Fields[i]).
func (k *RecordKind) required(impl string) uint64 { return k.need[needRule(impl)] }

// Required says whether a record of implementation impl must have the
// field.
func (n Need) requiredFor(impl string) bool {
	switch n {
	case Required:
		return true
	case ForSwitch:
		return impl == ImplSwitch
	case ForDOBFS:
		return impl == "dobfs"
	case UnlessNoDiv:
		return !strings.HasSuffix(impl, "-nodiv")
	}
	return false
}

func (n Need) String() string {
	switch n {
	case Required:
		return "required"
	case Optional:
		return "optional"
	case ForSwitch:
		return `required with impl "switch"`
	case ForDOBFS:
		return `required with impl "dobfs"`
	case UnlessNoDiv:
		return `required unless impl ends in "-nodiv"`
	}
	return "?"
}

// Range is what a field's value may be beyond its Kind.
type Range uint8

const (
	AnyValue    Range = iota
	NonNegative       // a number >= 0 (counts, sizes, times), or every number of an array
	Positive          // an integer >= 1
	NonEmpty          // a string of at least one byte
	Hash8             // 8 lowercase hex digits (a graph's CRC-32C)
	Hash16            // 16 lowercase hex digits (an FNV-1a 64 hash)
)

// Field is one key of a kind of record.
type Field struct {
	Key   string
	Kind  Kind
	Need  Need
	Range Range
	// Values, when not empty, are the values a string may take.
	Values []string
	// Doc says what an Optional field's absence means.
	Doc string

	// target returns the Go field of rec the value is read into; nil for
	// a key that is checked and dropped (graphperf-la's counters).
	target func(rec Record) any
	// intern: the value repeats over a file's lines (names, not hashes).
	intern bool
}

// RecordKind is one kind of runner line: its "type", the runners that
// print it, how errors name it, and its fields in the order the runner
// prints them.
type RecordKind struct {
	Type  string // the line's "type"
	Tools string // the runners that print it
	Name  string // "level record", "pagerank total record", ...
	// Fields, in the runner's order.
	Fields []Field

	new   func() Record
	impl  func(Record) string // nil for the device
	index map[string]int
	// need[r]: bit i is set when Fields[i] is required of a record whose
	// impl the rule r (needRule) classes.
	need [needRules]uint64
	// check checks what one field says of another, after the fields are
	// read; nil for none. It returns the field at fault and what is wrong.
	check func(Record) (field, msg string)
}

// Field returns the field of key.
func (k *RecordKind) Field(key string) (Field, bool) {
	i, ok := k.index[key]
	if !ok {
		return Field{}, false
	}
	return k.Fields[i], true
}

// RequiredFor says whether a record of k with implementation impl must
// have the field of key.
func (k *RecordKind) RequiredFor(key, impl string) bool {
	f, ok := k.Field(key)
	return ok && f.Need.requiredFor(impl)
}

// RecordKinds returns every declared kind of record, in the order of
// kernels/cuda/README.md.
func RecordKinds() []*RecordKind { return recordKinds }

// decl declares a field read into the Go value target returns; the Kind
// follows from the target's Go type (fieldKind). ofIdentity, ofLevel,
// ofTotal, ofDevice and ofError make the targets.
func decl(key string, need Need, r Range, target func(Record) any) Field {
	return Field{Key: key, Need: need, Range: r, target: target}
}

// interned marks a field whose values repeat (names, not hashes).
func interned(fd Field) Field { fd.intern = true; return fd }

// dropped declares a key whose value is checked and not kept.
func dropped(key string, k Kind, need Need, r Range) Field {
	return Field{Key: key, Kind: k, Need: need, Range: r}
}

func identityOf(r Record) *Identity {
	switch r := r.(type) {
	case *Level:
		return &r.Identity
	case *Total:
		return &r.Identity
	case *Error:
		return &r.Identity
	}
	panic(fmt.Sprintf("kernels: %T has no identity", r))
}

func implOf(r Record) string { return identityOf(r).Impl }

func ofIdentity[T any](get func(*Identity) *T) func(Record) any {
	return func(r Record) any { return get(identityOf(r)) }
}

func ofLevel[T any](get func(*Level) *T) func(Record) any {
	return func(r Record) any { return get(r.(*Level)) }
}

func ofTotal[T any](get func(*Total) *T) func(Record) any {
	return func(r Record) any { return get(r.(*Total)) }
}

func ofDevice[T any](get func(*Device) *T) func(Record) any {
	return func(r Record) any { return get(r.(*Device)) }
}

func ofError[T any](get func(*Error) *T) func(Record) any {
	return func(r Record) any { return get(r.(*Error)) }
}

// withAlgorithm restricts the identity's "algorithm" to the kind's.
func withAlgorithm(fields []Field, algorithms ...string) []Field {
	out := append([]Field(nil), fields...)
	for i := range out {
		if out[i].Key == "algorithm" {
			out[i].Values = algorithms
		}
	}
	return out
}

// graphFields are the first keys of every level, total and error line.
var graphFields = []Field{
	interned(decl("graph", Required, NonEmpty, ofIdentity(func(i *Identity) *string { return &i.Graph }))),
	interned(decl("graph_hash", Required, Hash8, ofIdentity(func(i *Identity) *string { return &i.GraphHash }))),
	decl("n", Required, Positive, ofIdentity(func(i *Identity) *int64 { return &i.N })),
	decl("m", Required, NonNegative, ofIdentity(func(i *Identity) *int64 { return &i.M })),
}

var (
	rootField      = decl("root", Required, AnyValue, ofIdentity(func(i *Identity) *uint32 { return &i.Root }))
	implField      = interned(decl("impl", Required, NonEmpty, ofIdentity(func(i *Identity) *string { return &i.Impl })))
	algorithmField = interned(decl("algorithm", Required, NonEmpty, ofIdentity(func(i *Identity) *string { return &i.Algorithm })))
)

// bfsIdentity are graphperf-bfs's identity keys (README "JSON lines").
var bfsIdentity = withAlgorithm(concat(graphFields, []Field{rootField, implField, algorithmField,
	interned(decl("aggregation", Required, NonEmpty, ofIdentity(func(i *Identity) *string { return &i.Aggregation }))),
	decl("warp_width", Required, Positive, ofIdentity(func(i *Identity) *int { return &i.WarpWidth })),
	decl("chunk", Required, Positive, ofIdentity(func(i *Identity) *int { return &i.Chunk })),
	interned(decl("claim", Required, NonEmpty, ofIdentity(func(i *Identity) *string { return &i.Claim }))),
}), AlgorithmBFS)

// prIdentity are graphperf-pr's (README "PageRank"): no root, no
// aggregation or claim; iterations follow.
var prIdentity = withAlgorithm(concat(graphFields, []Field{implField, algorithmField,
	decl("warp_width", Required, Positive, ofIdentity(func(i *Identity) *int { return &i.WarpWidth })),
	decl("chunk", Required, Positive, ofIdentity(func(i *Identity) *int { return &i.Chunk })),
}), AlgorithmPageRank)

// laIdentity are graphperf-la's (LINALG.md "JSON lines"); PageRank has no
// root.
func laIdentity(rootNeed Need) []Field {
	root := rootField
	root.Need = rootNeed
	if rootNeed == Optional {
		root.Doc = "absent on PageRank's lines; Root is then 0"
	}
	return concat(graphFields, []Field{root, implField, algorithmField,
		interned(decl("model", Required, NonEmpty, ofTotal(func(t *Total) *string { return &t.Model }))),
		interned(decl("variant", Required, NonEmpty, ofTotal(func(t *Total) *string { return &t.Variant }))),
	})
}

// timeFields are the five summary keys of the repetitions' times, with
// prefix ("", "wall_", "convert_", "kernel_", "update_", "consolidate_"),
// read into the five fields get returns.
func timeFields(prefix string, need Need, get func(r Record) (min, median, mean, max, stddev *float64)) []Field {
	pick := [5]func(Record) any{
		func(r Record) any { p, _, _, _, _ := get(r); return p },
		func(r Record) any { _, p, _, _, _ := get(r); return p },
		func(r Record) any { _, _, p, _, _ := get(r); return p },
		func(r Record) any { _, _, _, p, _ := get(r); return p },
		func(r Record) any { _, _, _, _, p := get(r); return p },
	}
	keys := [5]string{"min_ns", "median_ns", "mean_ns", "max_ns", "stddev_ns"}
	out := make([]Field, len(keys))
	for i, k := range keys {
		out[i] = decl(prefix+k, need, NonNegative, pick[i])
	}
	return out
}

func levelTimes(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Level).Times
	return &t.MinNs, &t.MedianNs, &t.MeanNs, &t.MaxNs, &t.StddevNs
}

func levelConvert(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Level).ConvertTimes
	return &t.ConvertMinNs, &t.ConvertMedianNs, &t.ConvertMeanNs, &t.ConvertMaxNs, &t.ConvertStddevNs
}

func totalTimes(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).Times
	return &t.MinNs, &t.MedianNs, &t.MeanNs, &t.MaxNs, &t.StddevNs
}

func wallTimes(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).WallTimes
	return &t.WallMinNs, &t.WallMedianNs, &t.WallMeanNs, &t.WallMaxNs, &t.WallStddevNs
}

func totalConvert(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).SwitchTotal.ConvertTimes
	return &t.ConvertMinNs, &t.ConvertMedianNs, &t.ConvertMeanNs, &t.ConvertMaxNs, &t.ConvertStddevNs
}

func totalKernel(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).SwitchTotal
	return &t.KernelMinNs, &t.KernelMedianNs, &t.KernelMeanNs, &t.KernelMaxNs, &t.KernelStddevNs
}

func prUpdate(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).PageRank
	return &t.UpdateMinNs, &t.UpdateMedianNs, &t.UpdateMeanNs, &t.UpdateMaxNs, &t.UpdateStddevNs
}

func prConsolidate(r Record) (min, median, mean, max, stddev *float64) {
	t := &r.(*Total).PageRank
	return &t.ConsolidateMinNs, &t.ConsolidateMedianNs, &t.ConsolidateMeanNs, &t.ConsolidateMaxNs, &t.ConsolidateStddevNs
}

func concat(parts ...[]Field) []Field {
	var out []Field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var deviceKind = &RecordKind{Type: "device", Tools: "graphperf-bfs, graphperf-pr, graphperf-la, graphperf-microbench",
	Name: "device record", new: func() Record { return &Device{} }, Fields: []Field{
		decl("tool", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.Tool })),
		decl("device", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.Device })),
		decl("name", Required, NonEmpty, ofDevice(func(d *Device) *string { return &d.Name })),
		decl("compute_capability", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.ComputeCapability })),
		decl("sm_count", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.SMCount })),
		decl("l2_bytes", Required, NonNegative, ofDevice(func(d *Device) *int64 { return &d.L2Bytes })),
		decl("persisting_l2_max_bytes", Required, NonNegative, ofDevice(func(d *Device) *int64 { return &d.PersistingL2MaxBytes })),
		decl("global_mem_bytes", Required, NonNegative, ofDevice(func(d *Device) *uint64 { return &d.GlobalMemBytes })),
		decl("clock_khz", Required, NonNegative, ofDevice(func(d *Device) *int64 { return &d.ClockKHz })),
		decl("mem_clock_khz", Required, NonNegative, ofDevice(func(d *Device) *int64 { return &d.MemClockKHz })),
		decl("mem_bus_bits", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.MemBusBits })),
		decl("max_threads_per_sm", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.MaxThreadsPerSM })),
		decl("max_blocks_per_sm", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.MaxBlocksPerSM })),
		decl("regs_per_sm", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.RegsPerSM })),
		decl("smem_per_sm_bytes", Required, NonNegative, ofDevice(func(d *Device) *int64 { return &d.SmemPerSMBytes })),
		decl("warp_size", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.WarpSize })),
		decl("ecc", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.ECC })),
		decl("driver_version", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.DriverVersion })),
		decl("runtime_version", Required, NonNegative, ofDevice(func(d *Device) *int { return &d.RuntimeVersion })),
		decl("nvcc_version", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.NvccVersion })),
		decl("nvcc_flags", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.NvccFlags })),
		decl("cuda_module_loading", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.CUDAModuleLoading })),
		decl("command", Required, AnyValue, ofDevice(func(d *Device) *string { return &d.Command })),
	}}

var levelKind = &RecordKind{Type: "level", Tools: "graphperf-bfs", Name: "level record",
	new: func() Record { return &Level{} }, impl: implOf, Fields: concat(bfsIdentity, []Field{
		decl("level", Required, NonNegative, ofLevel(func(l *Level) *int { return &l.Level })),
		decl("frontier", Required, NonNegative, ofLevel(func(l *Level) *int64 { return &l.Frontier })),
		decl("discovered", Required, NonNegative, ofLevel(func(l *Level) *int64 { return &l.Discovered })),
		decl("device_count", Required, NonNegative, ofLevel(func(l *Level) *int64 { return &l.DeviceCount })),
		interned(decl("direction", Required, NonEmpty, ofLevel(func(l *Level) *string { return &l.Direction }))),
		interned(decl("convert", Required, NonEmpty, ofLevel(func(l *Level) *string { return &l.Convert }))),
		decl("grid", Required, NonNegative, ofLevel(func(l *Level) *int64 { return &l.Grid })),
		decl("block_size", Required, NonNegative, ofLevel(func(l *Level) *int { return &l.BlockSize })),
		decl("reps", Required, Positive, ofLevel(func(l *Level) *int { return &l.Reps })),
	}, timeFields("", Required, levelTimes), []Field{
		interned(decl("switch_impl", ForSwitch, NonEmpty, ofLevel(func(l *Level) *string { return &l.SwitchImpl }))),
		interned(decl("form", ForSwitch, NonEmpty, ofLevel(func(l *Level) *string { return &l.Form }))),
	}, timeFields("convert_", ForSwitch, levelConvert))}

// runFields are what every timed total says of its settings.
var runFields = []Field{
	decl("l2_flush", Required, AnyValue, ofTotal(func(t *Total) *bool { return &t.L2Flush })),
	decl("block_size", Required, NonNegative, ofTotal(func(t *Total) *int { return &t.BlockSize })),
	decl("grid_cap", Required, NonNegative, ofTotal(func(t *Total) *int64 { return &t.GridCap })),
	decl("reps", Required, Positive, ofTotal(func(t *Total) *int { return &t.Reps })),
	decl("warmup", Required, NonNegative, ofTotal(func(t *Total) *int { return &t.Warmup })),
}

var (
	verifiedField   = decl("verified", Required, AnyValue, ofTotal(func(t *Total) *bool { return &t.Verified }))
	reachedField    = decl("reached", Required, NonNegative, ofTotal(func(t *Total) *int64 { return &t.Reached }))
	depthHashField  = decl("depth_hash", Required, Hash16, ofTotal(func(t *Total) *string { return &t.DepthHash }))
	iterationsField = decl("iterations", Required, Positive, ofTotal(func(t *Total) *int { return &t.Iterations }))
)

var totalKind = &RecordKind{Type: "total", Tools: "graphperf-bfs", Name: "total record",
	new: func() Record { return &Total{} }, impl: implOf, Fields: concat(bfsIdentity, []Field{
		decl("levels", Required, NonNegative, ofTotal(func(t *Total) *int { return &t.Levels })),
		reachedField, depthHashField, verifiedField,
	}, runFields, []Field{
		decl("bottom_up_levels", ForDOBFS, NonNegative, ofTotal(func(t *Total) *int { return &t.BottomUpLevels })),
		decl("directions", ForDOBFS, AnyValue, ofTotal(func(t *Total) *string { return &t.Directions })),
	}, timeFields("", Required, totalTimes), timeFields("wall_", Required, wallTimes), []Field{
		decl("decisions", ForSwitch, NonEmpty, ofTotal(func(t *Total) *string { return &t.Decisions })),
		decl("decisions_hash", ForSwitch, Hash16, ofTotal(func(t *Total) *string { return &t.DecisionsHash })),
		decl("decisions_source", ForSwitch, AnyValue, ofTotal(func(t *Total) *string { return &t.DecisionsSource })),
		decl("switch_impls", ForSwitch, AnyValue, ofTotal(func(t *Total) *[]string { return &t.SwitchImpls })),
		decl("conversions", ForSwitch, NonNegative, ofTotal(func(t *Total) *int { return &t.Conversions })),
	}, timeFields("kernel_", ForSwitch, totalKernel), timeFields("convert_", ForSwitch, totalConvert))}

var pageRankTotalKind = &RecordKind{Type: "total", Tools: "graphperf-pr", Name: "pagerank total record",
	new: func() Record { return &Total{} }, impl: implOf, Fields: concat(prIdentity, []Field{
		iterationsField,
		decl("damping", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.Damping })),
		decl("precision", Required, NonEmpty, ofTotal(func(t *Total) *string { return &t.Precision })),
		verifiedField,
		decl("reference", Required, NonEmpty, ofTotal(func(t *Total) *string { return &t.Reference })),
		decl("max_abs_error", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.MaxAbsError })),
		decl("l1_error", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.L1Error })),
		decl("rank_sum", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.RankSum })),
		decl("reference_rank_sum", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.ReferenceRankSum })),
		decl("last_delta", UnlessNoDiv, NonNegative, ofTotal(func(t *Total) **float64 { return &t.LastDelta })),
	}, runFields, timeFields("", Required, totalTimes), timeFields("update_", Required, prUpdate),
		timeFields("consolidate_", Required, prConsolidate), []Field{
			decl("iteration_median_ns", Required, NonNegative, ofTotal(func(t *Total) *[]float64 { return &t.IterationMedianNs })),
		})}

// laTotalFields are the keys after the result of every graphperf-la total.
var laTotalFields = concat([]Field{
	verifiedField,
	dropped("rows_visited", KindInt, Required, NonNegative),
	dropped("changed", KindInt, Required, NonNegative),
	dropped("kernel_launches", KindInt, Required, NonNegative),
}, runFields, timeFields("", Required, totalTimes), timeFields("wall_", Required, wallTimes))

var laReferenceHash = Field{Key: "reference_hash", Kind: KindString, Need: Optional, Range: Hash16,
	Doc: "absent when the runner did not check its result (--no-verify); kept by kernels/laout"}

var laBFSTotalKind = &RecordKind{Type: "total", Tools: "graphperf-la", Name: "graphperf-la bfs total record",
	new: func() Record { return &Total{} }, impl: implOf, Fields: concat(withAlgorithm(laIdentity(Required), AlgorithmBFS), []Field{
		iterationsField, reachedField, depthHashField, laReferenceHash,
	}, laTotalFields)}

var laSSSPTotalKind = &RecordKind{Type: "total", Tools: "graphperf-la", Name: "graphperf-la sssp total record",
	new: func() Record { return &Total{} }, impl: implOf, Fields: concat(withAlgorithm(laIdentity(Required), AlgorithmSSSP), []Field{
		iterationsField, reachedField,
		decl("distance_hash", Required, Hash16, ofTotal(func(t *Total) *string { return &t.DistanceHash })),
		dropped("max_weight", KindInt, Required, NonNegative),
		dropped("weight_seed", KindInt, Required, AnyValue),
		laReferenceHash,
	}, laTotalFields)}

var laPageRankTotalKind = &RecordKind{Type: "total", Tools: "graphperf-la", Name: "graphperf-la pagerank total record",
	new: func() Record { return &Total{} }, impl: implOf, Fields: concat(withAlgorithm(laIdentity(Optional), AlgorithmPageRank), []Field{
		iterationsField,
		decl("damping", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.Damping })),
		decl("precision", Required, NonEmpty, ofTotal(func(t *Total) *string { return &t.Precision })),
		decl("max_abs_error", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.MaxAbsError })),
		decl("l1_error", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.L1Error })),
		decl("rank_sum", Required, NonNegative, ofTotal(func(t *Total) *float64 { return &t.RankSum })),
	}, laTotalFields)}

var errorKind = &RecordKind{Type: "error", Tools: "graphperf-bfs", Name: "error record",
	new: func() Record { return &Error{} }, impl: implOf, Fields: concat(bfsIdentity, []Field{
		decl("what", Required, NonEmpty, ofError(func(e *Error) *string { return &e.What })),
		decl("depth_hash", Required, Hash16, ofError(func(e *Error) *string { return &e.DepthHash })),
		{Key: "reference_hash", Need: Optional, Range: Hash16, Doc: `absent with --no-cpu-check; ReferenceHash is then ""`,
			target: ofError(func(e *Error) *string { return &e.ReferenceHash })},
		decl("first_impl", Required, NonEmpty, ofError(func(e *Error) *string { return &e.FirstImpl })),
		decl("first_hash", Required, Hash16, ofError(func(e *Error) *string { return &e.FirstHash })),
	})}

var pageRankErrorKind = &RecordKind{Type: "error", Tools: "graphperf-pr", Name: "pagerank error record",
	new: func() Record { return &Error{} }, impl: implOf, Fields: concat(prIdentity, []Field{
		decl("iterations", Required, Positive, ofError(func(e *Error) *int { return &e.Iterations })),
		decl("what", Required, NonEmpty, ofError(func(e *Error) *string { return &e.What })),
	})}

var laErrorKind = &RecordKind{Type: "error", Tools: "graphperf-la", Name: "graphperf-la error record",
	new: func() Record { return &Error{} }, impl: implOf, Fields: concat(graphFields, []Field{
		func() Field { r := rootField; r.Need = Optional; r.Doc = "absent on PageRank's lines"; return r }(),
		implField, withAlgorithm([]Field{algorithmField}, AlgorithmBFS, AlgorithmSSSP, AlgorithmPageRank)[0],
		dropped("model", KindString, Required, NonEmpty),
		dropped("variant", KindString, Required, NonEmpty),
		decl("what", Required, NonEmpty, ofError(func(e *Error) *string { return &e.What })),
	})}

// AlgorithmSSSP is graphperf-la's single-source shortest paths.
const AlgorithmSSSP = "sssp"

var recordKinds = []*RecordKind{deviceKind, levelKind, totalKind, errorKind, pageRankTotalKind, pageRankErrorKind,
	laBFSTotalKind, laSSSPTotalKind, laPageRankTotalKind, laErrorKind}

// A switching BFS's total names the implementation of each of its levels;
// a PageRank total has the median of each of its iterations.
func checkSwitchImpls(r Record) (string, string) {
	t := r.(*Total)
	if t.Impl == ImplSwitch && len(t.SwitchImpls) != t.Levels {
		return "switch_impls", fmt.Sprintf("%d implementations for %d levels", len(t.SwitchImpls), t.Levels)
	}
	return "", ""
}

func checkIterationMedians(r Record) (string, string) {
	t := r.(*Total)
	if len(t.IterationMedianNs) != t.Iterations {
		return "iteration_median_ns", fmt.Sprintf("%d medians for %d iterations", len(t.IterationMedianNs), t.Iterations)
	}
	return "", ""
}

func init() {
	totalKind.check = checkSwitchImpls
	pageRankTotalKind.check = checkIterationMedians
	for _, k := range recordKinds {
		if len(k.Fields) > 64 {
			panic(fmt.Sprintf("kernels: %s has %d fields; the decoder's set holds 64", k.Name, len(k.Fields)))
		}
		k.index = make(map[string]int, len(k.Fields))
		rec := k.new()
		for i := range k.Fields {
			fd := &k.Fields[i]
			if _, dup := k.index[fd.Key]; dup {
				panic(fmt.Sprintf("kernels: %s declares %q twice", k.Name, fd.Key))
			}
			k.index[fd.Key] = i
			for r, impl := range [needRules]string{"topo", ImplSwitch, "dobfs", "vertex-pull-nodiv"} {
				if fd.Need.requiredFor(impl) {
					k.need[r] |= 1 << i
				}
			}
			if fd.target != nil {
				fd.Kind = fieldKind(fd.target(rec))
			}
			if fd.Kind == 0 {
				panic(fmt.Sprintf("kernels: %s field %q: no kind", k.Name, fd.Key))
			}
		}
	}
}

// fieldKind is the Kind of a Go field a target returns.
func fieldKind(target any) Kind {
	switch target.(type) {
	case *string:
		return KindString
	case *int, *int64, *uint32, *uint64:
		return KindInt
	case *float64, **float64:
		return KindNumber
	case *bool:
		return KindBool
	case *[]string:
		return KindStrings
	case *[]float64:
		return KindNumbers
	}
	panic(fmt.Sprintf("kernels: no JSON kind for %T", target))
}

// kindOf picks the declaration of a line from its "type" and, for totals
// and errors, its "model" (graphperf-la's lines have one) and
// "algorithm": nil for a type no runner record has (the line is then an
// *Other).
func kindOf(typ string, hasModel bool, algorithm string) *RecordKind {
	switch typ {
	case "device":
		return deviceKind
	case "level":
		return levelKind
	case "total":
		switch {
		case hasModel && algorithm == AlgorithmSSSP:
			return laSSSPTotalKind
		case hasModel && algorithm == AlgorithmPageRank:
			return laPageRankTotalKind
		case hasModel:
			return laBFSTotalKind
		case algorithm == AlgorithmPageRank:
			return pageRankTotalKind
		}
		return totalKind
	case "error":
		switch {
		case hasModel:
			return laErrorKind
		case algorithm == AlgorithmPageRank:
			return pageRankErrorKind
		}
		return errorKind
	}
	return nil
}

// KindOf returns the declaration of rec: by its type, and for a Total or
// an Error by its algorithm and model; nil for an *Other.
func KindOf(rec Record) *RecordKind {
	switch r := rec.(type) {
	case *Device:
		return deviceKind
	case *Level:
		return levelKind
	case *Total:
		return kindOf("total", r.Model != "", r.Algorithm)
	case *Error:
		return kindOf("error", false, r.Algorithm)
	}
	return nil
}

// AppendRecord appends rec as the runner prints it, one JSON object
// without a newline: its kind's fields in the declared order, each one
// the record's implementation requires, and each Optional one that is set
// (a non-nil pointer, a non-empty string). It writes what the readers
// read back as rec (the fake runners of the tests print with it). Records
// with keys the Go types do not keep (graphperf-la's totals and errors,
// graphperf-pr's errors) are an error.
func AppendRecord(b []byte, rec Record) ([]byte, error) {
	k := KindOf(rec)
	if k == nil {
		return b, fmt.Errorf("kernels: AppendRecord of a %T", rec)
	}
	impl := ""
	if k.impl != nil {
		impl = k.impl(rec)
	}
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, k.Type)
	for i := range k.Fields {
		fd := &k.Fields[i]
		if fd.target == nil {
			if fd.Need.requiredFor(impl) {
				return b, fmt.Errorf("kernels: AppendRecord: %s: %q has no Go field", k.Name, fd.Key)
			}
			continue
		}
		v := fd.target(rec)
		if !fd.Need.requiredFor(impl) && !isSet(v) {
			continue
		}
		b = append(b, ',')
		b = strconv.AppendQuote(b, fd.Key)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, v); err != nil {
			return b, fmt.Errorf("kernels: AppendRecord: %s: %q: %w", k.Name, fd.Key, err)
		}
	}
	return append(b, '}'), nil
}

// isSet says whether an Optional field's Go value is to be printed.
func isSet(v any) bool {
	switch p := v.(type) {
	case **float64:
		return *p != nil
	case *string:
		return *p != ""
	case *[]string:
		return len(*p) > 0
	case *[]float64:
		return len(*p) > 0
	case *int:
		return *p != 0
	case *int64:
		return *p != 0
	case *uint32:
		return *p != 0
	case *float64:
		return *p != 0
	case *bool:
		return *p
	}
	return true
}

// appendValue appends the JSON of the Go value v points to.
func appendValue(b []byte, v any) ([]byte, error) {
	switch p := v.(type) {
	case *string:
		js, err := json.Marshal(*p)
		return append(b, js...), err
	case *int:
		return strconv.AppendInt(b, int64(*p), 10), nil
	case *int64:
		return strconv.AppendInt(b, *p, 10), nil
	case *uint32:
		return strconv.AppendUint(b, uint64(*p), 10), nil
	case *uint64:
		return strconv.AppendUint(b, *p, 10), nil
	case *float64:
		return appendFloat(b, *p)
	case **float64:
		return appendFloat(b, **p)
	case *bool:
		return strconv.AppendBool(b, *p), nil
	case *[]string, *[]float64:
		js, err := json.Marshal(v)
		return append(b, js...), err
	}
	return b, fmt.Errorf("no JSON for %T", v)
}

func appendFloat(b []byte, v float64) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return b, fmt.Errorf("%v is not a JSON number", v)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64), nil
}
