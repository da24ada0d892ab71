package machine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FieldError is a bad machine file: it names the file, the line (0 when
// unknown, as for a missing field) and the path of the field ("l2.sets",
// "service_curves[1].points[3]"; empty for the file as a whole).
type FieldError struct {
	File  string
	Line  int
	Field string
	Msg   string
	// Err is the underlying error, if any (one wrapping ErrUnit for a bad
	// quantity).
	Err error
}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *FieldError) Unwrap() error { return e.Err }

// Load reads and validates the machine file at path. A bad file gives
// *FieldError values naming path (several joined with errors.Join when the
// YAML decoder finds several problems at once).
func Load(path string) (*Machine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse parses and validates a machine file's contents; file is the name
// errors and Machine.File give.
func Parse(data []byte, file string) (*Machine, error) {
	p := &parser{file: file, data: data}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	p.index(&doc, "")
	var raw rawMachine
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, &FieldError{File: file, Msg: "empty file: want name, kind, clock and the rest of a machine"}
		}
		return nil, p.yamlError(err)
	}
	// The decoder skips empty values ("sms:"); they are errors.
	for _, k := range p.keys {
		if k.key != nil && k.val.ShortTag() == "!!null" {
			return nil, p.errorf(k.key.Line, k.path, "empty: give a value or leave the field out")
		}
	}
	return p.machine(&raw)
}

// The file's shape, decoded with KnownFields so that unknown fields are
// errors. Every leaf is a value, which keeps its text, its source note
// and its line for the checks that follow.

type rawMachine struct {
	Name            value         `yaml:"name"`
	Kind            value         `yaml:"kind"`
	Description     value         `yaml:"description"`
	Source          value         `yaml:"source"`
	Clock           value         `yaml:"clock"`
	SMs             value         `yaml:"sms"`
	WarpsPerSM      value         `yaml:"warps_per_sm"`
	SchedulersPerSM value         `yaml:"schedulers_per_sm"`
	IPCPerScheduler value         `yaml:"ipc_per_scheduler"`
	L1              *rawGPUCache  `yaml:"l1"`
	L2              *rawGPUCache  `yaml:"l2"`
	DRAM            *rawDRAM      `yaml:"dram"`
	Ceilings        *rawCeilings  `yaml:"ceilings"`
	Latencies       []rawLatency  `yaml:"latencies"`
	ServiceCurves   []rawCurve    `yaml:"service_curves"`
	Sockets         value         `yaml:"sockets"`
	CoresPerSocket  value         `yaml:"cores_per_socket"`
	ThreadsPerCore  value         `yaml:"threads_per_core"`
	Caches          []rawCPUCache `yaml:"caches"`
}

type rawGPUCache struct {
	Source value `yaml:"source"`
	Size   value `yaml:"size"`
	Line   value `yaml:"line"`
	Sector value `yaml:"sector"`
	Ways   value `yaml:"ways"`
	Sets   value `yaml:"sets"`
	Slices value `yaml:"slices"`
	// Carveout is for an L1 only.
	Carveout value `yaml:"carveout"`
}

type rawCPUCache struct {
	Name     value `yaml:"name"`
	Source   value `yaml:"source"`
	Size     value `yaml:"size"`
	Line     value `yaml:"line"`
	Ways     value `yaml:"ways"`
	Sets     value `yaml:"sets"`
	SharedBy value `yaml:"shared_by"`
	Service  value `yaml:"service"`
}

type rawDRAM struct {
	Source         value `yaml:"source"`
	Type           value `yaml:"type"`
	Size           value `yaml:"size"`
	BusBits        value `yaml:"bus_bits"`
	Clock          value `yaml:"clock"`
	Channels       value `yaml:"channels"`
	PseudoChannels value `yaml:"pseudo_channels"`
	Banks          value `yaml:"banks"`
	RowBytes       value `yaml:"row_bytes"`
	Interleave     value `yaml:"interleave"`
	PeakBandwidth  value `yaml:"peak_bandwidth"`
}

type rawCeilings struct {
	Source                  value `yaml:"source"`
	ReadBandwidth           value `yaml:"read_bandwidth"`
	WriteBandwidth          value `yaml:"write_bandwidth"`
	CopyBandwidth           value `yaml:"copy_bandwidth"`
	L2Bandwidth             value `yaml:"l2_bandwidth"`
	WarpInstructions        value `yaml:"warp_instructions"`
	WarpInstructionsInteger value `yaml:"warp_instructions_integer"`
}

type rawLatency struct {
	Name       value `yaml:"name"`
	Source     value `yaml:"source"`
	Time       value `yaml:"time"`
	WorkingSet value `yaml:"working_set"`
}

type rawCurve struct {
	Class  value   `yaml:"class"`
	Source value   `yaml:"source"`
	Form   value   `yaml:"form"`
	Points []point `yaml:"points"`
}

// rawTypes are the mapping types, by the name the yaml package's errors
// give them, for the list of known fields in an "unknown field" error.
var rawTypes = map[string]reflect.Type{}

func init() {
	for _, v := range []any{rawMachine{}, rawGPUCache{}, rawCPUCache{}, rawDRAM{}, rawCeilings{}, rawLatency{}, rawCurve{}} {
		t := reflect.TypeOf(v)
		rawTypes[t.String()] = t
	}
}

// knownFields lists the keys a raw type accepts.
func knownFields(typeName string) string {
	t, ok := rawTypes[strings.TrimPrefix(typeName, "*")]
	if !ok {
		return ""
	}
	var names []string
	for i := range t.NumField() {
		names = append(names, strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0])
	}
	return strings.Join(names, ", ")
}

// value is one leaf: a scalar ("50 MiB") or a mapping {value: 50 MiB,
// source: datasheet}. Shape problems are kept in bad and reported with
// the field's path when the value is used.
type value struct {
	set    bool
	text   string
	tag    string // the scalar's YAML tag: !!str, !!int, !!float, ...
	source string
	line   int
	bad    string
}

func (v *value) UnmarshalYAML(n *yaml.Node) error {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	*v = value{set: true, line: n.Line}
	switch n.Kind {
	case yaml.ScalarNode:
		v.text, v.tag = n.Value, n.ShortTag()
		if v.tag == "!!null" {
			v.bad = "empty: give a value or leave the field out"
		}
	case yaml.MappingNode:
		hasValue := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, c := n.Content[i], n.Content[i+1]
			switch {
			case k.Value != "value" && k.Value != "source":
				v.bad, v.line = fmt.Sprintf("unknown field %q (a value's mapping has value and source)", k.Value), k.Line
				return nil
			case c.Kind != yaml.ScalarNode:
				v.bad, v.line = fmt.Sprintf("%s: want a scalar, got %s", k.Value, kindName(c)), c.Line
				return nil
			case k.Value == "value":
				v.text, v.tag, hasValue = c.Value, c.ShortTag(), true
			default:
				v.source = c.Value
			}
		}
		if !hasValue {
			v.bad = "a mapping needs value (and may have source)"
		}
	default:
		v.bad = "want a value or {value: ..., source: ...}, got " + kindName(n)
	}
	return nil
}

// point is one [m, time] pair of a curve.
type point struct {
	line      int
	mlp, time value
	bad       string
}

func (p *point) UnmarshalYAML(n *yaml.Node) error {
	*p = point{line: n.Line}
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		p.bad = "want a pair [m, time], got " + kindName(n)
		if n.Kind == yaml.SequenceNode {
			p.bad = fmt.Sprintf("want a pair [m, time], got %d items", len(n.Content))
		}
		return nil
	}
	if err := p.mlp.UnmarshalYAML(n.Content[0]); err != nil {
		return err
	}
	return p.time.UnmarshalYAML(n.Content[1])
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "something else"
}

// parser converts and checks a rawMachine.
type parser struct {
	file   string
	data   []byte // the file's contents
	source string // the file's default source note
	m      *Machine
	keys   []keyPosition
}

// keyPosition is one key of the file (key is nil for a list item) and its
// value, with the value's path.
type keyPosition struct {
	path     string
	key, val *yaml.Node
}

func (p *parser) index(n *yaml.Node, prefix string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			p.index(c, prefix)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			path := k.Value
			if prefix != "" {
				path = prefix + "." + k.Value
			}
			p.keys = append(p.keys, keyPosition{path, k, v})
			p.index(v, path)
		}
	case yaml.SequenceNode:
		for j, item := range n.Content {
			path := fmt.Sprintf("%s[%d]", prefix, j)
			p.keys = append(p.keys, keyPosition{path, nil, item})
			p.index(item, path)
		}
	}
}

var (
	yamlLine          = regexp.MustCompile(`^line (\d+): (.*)$`)
	yamlFieldNotFound = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
	yamlCannot        = regexp.MustCompile(`^cannot unmarshal (!!\w+)(?: ` + "`" + `(.*)` + "`" + `)? into (\S+)$`)
	yamlDuplicate     = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// yamlError turns the yaml package's errors (syntax, shape, unknown or
// repeated field, each with a line) into FieldErrors naming the field.
func (p *parser) yamlError(err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var errs []error
	for _, msg := range msgs {
		msg = strings.TrimPrefix(msg, "yaml: ")
		e := &FieldError{File: p.file, Msg: msg}
		errs = append(errs, e)
		m := yamlLine.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
		if te == nil {
			// A syntax error: the decoder gives the line where the
			// enclosing block began, not the line at fault.
			if l := syntaxErrorLine(p.data); l > 0 {
				e.Line = l
			}
		}
		if f := yamlFieldNotFound.FindStringSubmatch(e.Msg); f != nil {
			e.Field = p.keyPath(e.Line, f[1])
			e.Msg = "unknown field"
			if known := knownFields(f[2]); known != "" {
				e.Msg += " (want one of " + known + ")"
			}
		} else if f := yamlDuplicate.FindStringSubmatch(e.Msg); f != nil {
			e.Field = p.keyPath(e.Line, f[1])
			e.Msg = "given twice (first at line " + f[2] + ")"
		} else if f := yamlCannot.FindStringSubmatch(e.Msg); f != nil {
			e.Field = p.valuePath(e.Line, f[1])
			want := "a mapping"
			if strings.HasPrefix(f[3], "[]") {
				want = "a list"
			}
			e.Msg = "want " + want + ", got " + tagName(f[1], f[2])
		}
	}
	return errors.Join(errs...)
}

// keyPath returns the path of the key named name on line.
func (p *parser) keyPath(line int, name string) string {
	for _, k := range p.keys {
		if k.key != nil && k.key.Line == line && k.key.Value == name {
			return k.path
		}
	}
	return ""
}

// valuePath returns the path of the value with this tag on line.
func (p *parser) valuePath(line int, tag string) string {
	for _, k := range p.keys {
		if k.val.Line == line && k.val.ShortTag() == tag {
			return k.path
		}
	}
	return ""
}

func tagName(tag, text string) string {
	switch tag {
	case "!!seq":
		return "a list"
	case "!!map":
		return "a mapping"
	}
	return strconv.Quote(text)
}

// lineOf returns the line of path's key, else of the nearest enclosing
// key, else 0.
func (p *parser) lineOf(path string) int {
	for path != "" {
		for _, k := range p.keys {
			if k.path == path {
				if k.key != nil {
					return k.key.Line
				}
				return k.val.Line
			}
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

// errorf makes a FieldError for path at line (0: the line of path's key).
func (p *parser) errorf(line int, path, format string, args ...any) *FieldError {
	if line == 0 {
		line = p.lineOf(path)
	}
	return &FieldError{File: p.file, Line: line, Field: path, Msg: fmt.Sprintf(format, args...)}
}

// missing is the error for a required field that is absent.
func (p *parser) missing(path, what string) *FieldError {
	return &FieldError{File: p.file, Field: path, Msg: "missing: " + what}
}

// note records the source of a value at path: its own, else section's,
// else the file's.
func (p *parser) note(path string, v value, section string) {
	if strings.Contains(path, ".points[") {
		return // a curve's points share one entry, path.points
	}
	src := v.source
	if src == "" {
		src = section
	}
	if src == "" {
		src = p.source
	}
	if src != "" {
		p.m.Sources[path] = src
	}
}

// scalar returns v's text, or an error for a shape problem.
func (p *parser) scalar(v value, path string) (string, error) {
	if v.bad != "" {
		return "", p.errorf(v.line, path, "%s", v.bad)
	}
	return v.text, nil
}

// str returns an optional string value ("" when absent).
func (p *parser) str(v value, path, section string) (string, error) {
	if !v.set {
		return "", nil
	}
	s, err := p.scalar(v, path)
	if err == nil {
		p.note(path, v, section)
	}
	return s, err
}

// positiveInt parses an optional positive integer (0 when absent).
func (p *parser) positiveInt(v value, path, section string) (int, error) {
	if !v.set {
		return 0, nil
	}
	s, err := p.scalar(v, path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return 0, p.errorf(v.line, path, "want a positive integer, got %q", s)
	}
	p.note(path, v, section)
	return n, nil
}

// positiveNumber parses an optional positive plain number.
func (p *parser) positiveNumber(v value, path, section string) (float64, error) {
	if !v.set {
		return 0, nil
	}
	s, err := p.scalar(v, path)
	if err != nil {
		return 0, err
	}
	r, ok := parseDecimal(strings.TrimSpace(s))
	if !ok || r.Sign() <= 0 {
		return 0, p.errorf(v.line, path, "want a positive number, got %q", s)
	}
	p.note(path, v, section)
	f, _ := r.Float64()
	return f, nil
}

// quantity parses an optional positive quantity with parse; what names it
// in the error ("size").
func quantity[T ~int64 | ~float64](p *parser, v value, path, section, what string, parse func(string) (T, error)) (T, error) {
	if !v.set {
		return 0, nil
	}
	s, err := p.scalar(v, path)
	if err != nil {
		return 0, err
	}
	q, err := parse(s)
	if err != nil {
		e := p.errorf(v.line, path, "%s", err)
		var ue *unitError
		if errors.As(err, &ue) {
			e.Msg = ue.msg
		}
		e.Err = err
		return 0, e
	}
	if q <= 0 {
		return 0, p.errorf(v.line, path, "want a positive %s, got %q", what, s)
	}
	p.note(path, v, section)
	return q, nil
}

func (p *parser) bytes(v value, path, section string) (Bytes, error) {
	return quantity(p, v, path, section, "size", ParseBytes)
}

func (p *parser) frequency(v value, path, section string) (Hertz, error) {
	return quantity(p, v, path, section, "frequency", ParseFrequency)
}

func (p *parser) bandwidth(v value, path, section string) (BytesPerSecond, error) {
	return quantity(p, v, path, section, "bandwidth", ParseBandwidth)
}

func (p *parser) rate(v value, path, section string) (InstructionRate, error) {
	return quantity(p, v, path, section, "instruction rate", ParseInstructionRate)
}

func (p *parser) time(v value, path, section string) (Nanoseconds, error) {
	return quantity(p, v, path, section, "time", func(s string) (Nanoseconds, error) { return ParseTime(s, p.m.Clock) })
}

// namePattern is what machine names may look like.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// machine converts and checks the whole file.
func (p *parser) machine(r *rawMachine) (*Machine, error) {
	p.m = &Machine{File: p.file, Sources: map[string]string{}}
	m := p.m
	var err error
	if !r.Name.set {
		return nil, p.missing("name", "the machine's name (lower-case letters, digits, '.', '_', '-')")
	}
	if m.Name, err = p.scalar(r.Name, "name"); err != nil {
		return nil, err
	}
	if !namePattern.MatchString(m.Name) {
		return nil, p.errorf(r.Name.line, "name", "want lower-case letters, digits, '.', '_' and '-', got %q", m.Name)
	}
	if !r.Kind.set {
		return nil, p.missing("kind", "gpu or cpu")
	}
	kind, err := p.scalar(r.Kind, "kind")
	if err != nil {
		return nil, err
	}
	m.Kind = Kind(kind)
	if m.Kind != GPU && m.Kind != CPU {
		return nil, p.errorf(r.Kind.line, "kind", "want gpu or cpu, got %q", kind)
	}
	if m.Description, err = p.scalar(r.Description, "description"); err != nil {
		return nil, err
	}
	if p.source, err = p.scalar(r.Source, "source"); err != nil {
		return nil, err
	}
	if !r.Clock.set {
		return nil, p.missing("clock", "the core clock, such as 1.98 GHz")
	}
	if m.Clock, err = p.frequency(r.Clock, "clock", ""); err != nil {
		return nil, err
	}
	if err := p.onlyFor(r); err != nil {
		return nil, err
	}
	if m.Kind == GPU {
		err = p.gpu(r)
	} else {
		err = p.cpu(r)
	}
	if err != nil {
		return nil, err
	}
	if r.DRAM != nil {
		if m.DRAM, err = p.dram(r.DRAM); err != nil {
			return nil, err
		}
	} else if m.Kind == GPU {
		return nil, p.missing("dram", "the device memory, at least its peak_bandwidth")
	}
	if r.Ceilings != nil {
		if err := p.ceilings(r.Ceilings); err != nil {
			return nil, err
		}
	}
	if err := p.latencies(r.Latencies); err != nil {
		return nil, err
	}
	if err := p.curves(r.ServiceCurves); err != nil {
		return nil, err
	}
	return m, nil
}

// onlyFor rejects fields of the other kind of machine.
func (p *parser) onlyFor(r *rawMachine) error {
	gpuOnly := []struct {
		name string
		set  bool
	}{
		{"sms", r.SMs.set}, {"warps_per_sm", r.WarpsPerSM.set}, {"schedulers_per_sm", r.SchedulersPerSM.set},
		{"ipc_per_scheduler", r.IPCPerScheduler.set}, {"l1", r.L1 != nil}, {"l2", r.L2 != nil},
	}
	cpuOnly := []struct {
		name string
		set  bool
	}{
		{"sockets", r.Sockets.set}, {"cores_per_socket", r.CoresPerSocket.set},
		{"threads_per_core", r.ThreadsPerCore.set}, {"caches", r.Caches != nil},
	}
	other, fields := CPU, gpuOnly
	if p.m.Kind == GPU {
		other, fields = GPU, cpuOnly
	}
	for _, f := range fields {
		if f.set {
			return p.errorf(0, f.name, "not for kind %s (GPU files give sms, warps_per_sm, schedulers_per_sm, ipc_per_scheduler, l1 and l2; CPU files sockets, cores_per_socket, threads_per_core and caches)", other)
		}
	}
	return nil
}

// requiredInt is positiveInt for a field that must be present.
func (p *parser) requiredInt(v value, path, what string) (int, error) {
	if !v.set {
		return 0, p.missing(path, what)
	}
	return p.positiveInt(v, path, "")
}

func (p *parser) gpu(r *rawMachine) error {
	m := p.m
	var err error
	if m.SMs, err = p.requiredInt(r.SMs, "sms", "the number of SMs"); err != nil {
		return err
	}
	if m.WarpsPerSM, err = p.requiredInt(r.WarpsPerSM, "warps_per_sm", "the most warps resident on one SM"); err != nil {
		return err
	}
	if m.SchedulersPerSM, err = p.requiredInt(r.SchedulersPerSM, "schedulers_per_sm", "warp schedulers per SM"); err != nil {
		return err
	}
	if !r.IPCPerScheduler.set {
		return p.missing("ipc_per_scheduler", "warp instructions one scheduler issues per cycle")
	}
	if m.IPCPerScheduler, err = p.positiveNumber(r.IPCPerScheduler, "ipc_per_scheduler", ""); err != nil {
		return err
	}
	if r.L1 != nil {
		if m.L1, err = p.gpuCache(r.L1, "l1"); err != nil {
			return err
		}
	}
	if r.L2 == nil {
		return p.missing("l2", "the L2 cache, at least its size and line")
	}
	m.L2, err = p.gpuCache(r.L2, "l2")
	return err
}

func (p *parser) gpuCache(r *rawGPUCache, path string) (*Cache, error) {
	src, err := p.scalar(r.Source, path+".source")
	if err != nil {
		return nil, err
	}
	c := &Cache{}
	if c.Size, err = p.bytes(r.Size, path+".size", src); err != nil {
		return nil, err
	}
	if c.Line, err = p.bytes(r.Line, path+".line", src); err != nil {
		return nil, err
	}
	if c.Sector, err = p.bytes(r.Sector, path+".sector", src); err != nil {
		return nil, err
	}
	if c.Ways, err = p.positiveInt(r.Ways, path+".ways", src); err != nil {
		return nil, err
	}
	if c.Sets, err = p.positiveInt(r.Sets, path+".sets", src); err != nil {
		return nil, err
	}
	if c.Slices, err = p.positiveInt(r.Slices, path+".slices", src); err != nil {
		return nil, err
	}
	if r.Carveout.set && path != "l1" {
		return nil, p.errorf(r.Carveout.line, path+".carveout", "only an L1 has a shared-memory carveout")
	}
	if c.Carveout, err = p.bytes(r.Carveout, path+".carveout", src); err != nil {
		return nil, err
	}
	if err := p.geometry(c, path, r.Size.set, r.Line.set); err != nil {
		return nil, err
	}
	if c.Carveout > 0 && (c.Carveout >= c.Size || c.Carveout%c.Line != 0) {
		return nil, p.errorf(r.Carveout.line, path+".carveout", "%v is not a multiple of the %v line below the %v size", c.Carveout, c.Line, c.Size)
	}
	return c, nil
}

// geometry checks and completes a cache's shape: size and line are
// required, the sector divides the line, the line the size, and
// size = slices x sets x ways x line (sets or ways derived when only the
// other is given).
func (p *parser) geometry(c *Cache, path string, hasSize, hasLine bool) error {
	switch {
	case !hasSize:
		return p.missing(path+".size", "the cache's capacity, such as 50 MiB")
	case !hasLine:
		return p.missing(path+".line", "the cache line size, such as 128 B")
	case c.Sector > 0 && c.Line%c.Sector != 0:
		return p.errorf(0, path+".sector", "%v does not divide the %v line", c.Sector, c.Line)
	case c.Size%c.Line != 0:
		return p.errorf(0, path+".line", "%v does not divide the %v size", c.Line, c.Size)
	}
	slices := Bytes(max(c.Slices, 1))
	switch {
	case c.Ways > 0 && c.Sets > 0:
		if got := slices * Bytes(c.Sets) * Bytes(c.Ways) * c.Line; got != c.Size {
			return p.errorf(0, path, "slices x sets x ways x line = %d x %d x %d x %v = %v, but size is %v",
				slices, c.Sets, c.Ways, c.Line, got, c.Size)
		}
	case c.Ways > 0:
		per := slices * Bytes(c.Ways) * c.Line
		if c.Size%per != 0 {
			return p.errorf(0, path+".ways", "size %v is not a whole number of sets of %d slices x %d ways x %v", c.Size, slices, c.Ways, c.Line)
		}
		c.Sets = int(c.Size / per)
	case c.Sets > 0:
		per := slices * Bytes(c.Sets) * c.Line
		if c.Size%per != 0 {
			return p.errorf(0, path+".sets", "size %v is not a whole number of ways of %d slices x %d sets x %v", c.Size, slices, c.Sets, c.Line)
		}
		c.Ways = int(c.Size / per)
	}
	return nil
}

func (p *parser) cpu(r *rawMachine) error {
	m := p.m
	var err error
	if m.Sockets, err = p.requiredInt(r.Sockets, "sockets", "the number of sockets"); err != nil {
		return err
	}
	if m.CoresPerSocket, err = p.requiredInt(r.CoresPerSocket, "cores_per_socket", "cores per socket"); err != nil {
		return err
	}
	if m.ThreadsPerCore, err = p.positiveInt(r.ThreadsPerCore, "threads_per_core", ""); err != nil {
		return err
	}
	if m.ThreadsPerCore == 0 {
		m.ThreadsPerCore = 1
	}
	if len(r.Caches) == 0 {
		return p.missing("caches", "the cache levels, nearest the core first")
	}
	seen := map[string]int{}
	for i, rc := range r.Caches {
		path := fmt.Sprintf("caches[%d]", i)
		src, err := p.scalar(rc.Source, path+".source")
		if err != nil {
			return err
		}
		var c Cache
		if !rc.Name.set {
			return p.missing(path+".name", "the level's name, such as L1")
		}
		if c.Name, err = p.scalar(rc.Name, path+".name"); err != nil {
			return err
		}
		if j, dup := seen[c.Name]; dup {
			return p.errorf(rc.Name.line, path+".name", "%q is also the name of caches[%d]", c.Name, j)
		}
		seen[c.Name] = i
		if c.Size, err = p.bytes(rc.Size, path+".size", src); err != nil {
			return err
		}
		if c.Line, err = p.bytes(rc.Line, path+".line", src); err != nil {
			return err
		}
		if c.Ways, err = p.positiveInt(rc.Ways, path+".ways", src); err != nil {
			return err
		}
		if c.Sets, err = p.positiveInt(rc.Sets, path+".sets", src); err != nil {
			return err
		}
		if c.SharedBy, err = p.positiveInt(rc.SharedBy, path+".shared_by", src); err != nil {
			return err
		}
		if !rc.Service.set {
			return p.missing(path+".service", "the service time per access, such as 4 cycles")
		}
		if c.Service, err = p.time(rc.Service, path+".service", src); err != nil {
			return err
		}
		c.ServiceCycles = float64(c.Service) * float64(m.Clock) / 1e9
		if cycles, ok := parseCycles(rc.Service.text); ok {
			c.ServiceCycles = cycles // as given, without rounding through ns
		}
		if err := p.geometry(&c, path, rc.Size.set, rc.Line.set); err != nil {
			return err
		}
		m.Caches = append(m.Caches, c)
	}
	return nil
}

func (p *parser) dram(r *rawDRAM) (*DRAM, error) {
	src, err := p.scalar(r.Source, "dram.source")
	if err != nil {
		return nil, err
	}
	d := &DRAM{}
	if d.Type, err = p.str(r.Type, "dram.type", src); err != nil {
		return nil, err
	}
	if d.Size, err = p.bytes(r.Size, "dram.size", src); err != nil {
		return nil, err
	}
	if d.BusBits, err = p.positiveInt(r.BusBits, "dram.bus_bits", src); err != nil {
		return nil, err
	}
	if d.Clock, err = p.frequency(r.Clock, "dram.clock", src); err != nil {
		return nil, err
	}
	if d.Channels, err = p.positiveInt(r.Channels, "dram.channels", src); err != nil {
		return nil, err
	}
	if d.PseudoChannels, err = p.positiveInt(r.PseudoChannels, "dram.pseudo_channels", src); err != nil {
		return nil, err
	}
	if d.Banks, err = p.positiveInt(r.Banks, "dram.banks", src); err != nil {
		return nil, err
	}
	if d.RowBytes, err = p.bytes(r.RowBytes, "dram.row_bytes", src); err != nil {
		return nil, err
	}
	if d.Interleave, err = p.bytes(r.Interleave, "dram.interleave", src); err != nil {
		return nil, err
	}
	if d.Interleave > 0 && (d.RowBytes == 0 || d.RowBytes%d.Interleave != 0) {
		return nil, p.errorf(r.Interleave.line, "dram.interleave", "%v does not divide the %v row", d.Interleave, d.RowBytes)
	}
	if !r.PeakBandwidth.set {
		return nil, p.missing("dram.peak_bandwidth", "the peak bandwidth, such as 3.35 TB/s")
	}
	if d.PeakBandwidth, err = p.bandwidth(r.PeakBandwidth, "dram.peak_bandwidth", src); err != nil {
		return nil, err
	}
	return d, nil
}

func (p *parser) ceilings(r *rawCeilings) error {
	src, err := p.scalar(r.Source, "ceilings.source")
	if err != nil {
		return err
	}
	c := &p.m.Ceilings
	for _, f := range []struct {
		name string
		v    value
		dst  *BytesPerSecond
	}{
		{"read_bandwidth", r.ReadBandwidth, &c.ReadBandwidth},
		{"write_bandwidth", r.WriteBandwidth, &c.WriteBandwidth},
		{"copy_bandwidth", r.CopyBandwidth, &c.CopyBandwidth},
		{"l2_bandwidth", r.L2Bandwidth, &c.L2Bandwidth},
	} {
		if *f.dst, err = p.bandwidth(f.v, "ceilings."+f.name, src); err != nil {
			return err
		}
	}
	if c.WarpInstructions, err = p.rate(r.WarpInstructions, "ceilings.warp_instructions", src); err != nil {
		return err
	}
	c.WarpInstructionsInteger, err = p.rate(r.WarpInstructionsInteger, "ceilings.warp_instructions_integer", src)
	return err
}

func (p *parser) latencies(rs []rawLatency) error {
	seen := map[string]int{}
	for i, r := range rs {
		path := fmt.Sprintf("latencies[%d]", i)
		src, err := p.scalar(r.Source, path+".source")
		if err != nil {
			return err
		}
		var l Latency
		if !r.Name.set {
			return p.missing(path+".name", "what the latency is of, such as l2_hit")
		}
		if l.Name, err = p.scalar(r.Name, path+".name"); err != nil {
			return err
		}
		if j, dup := seen[l.Name]; dup {
			return p.errorf(r.Name.line, path+".name", "%q is also the name of latencies[%d]", l.Name, j)
		}
		seen[l.Name] = i
		if !r.Time.set {
			return p.missing(path+".time", "the latency, such as 147 ns or 292 cycles")
		}
		if l.Time, err = p.time(r.Time, path+".time", src); err != nil {
			return err
		}
		if l.WorkingSet, err = p.bytes(r.WorkingSet, path+".working_set", src); err != nil {
			return err
		}
		p.m.Latencies = append(p.m.Latencies, l)
	}
	return nil
}

func (p *parser) curves(rs []rawCurve) error {
	seen := map[string]int{}
	for i, r := range rs {
		path := fmt.Sprintf("service_curves[%d]", i)
		src, err := p.scalar(r.Source, path+".source")
		if err != nil {
			return err
		}
		var c ServiceCurve
		if !r.Class.set {
			return p.missing(path+".class", "the request class, such as l2_hit")
		}
		if c.Class, err = p.scalar(r.Class, path+".class"); err != nil {
			return err
		}
		if j, dup := seen[c.Class]; dup {
			return p.errorf(r.Class.line, path+".class", "%q is also the class of service_curves[%d]", c.Class, j)
		}
		seen[c.Class] = i
		c.Form = ServiceForm
		if r.Form.set {
			form, err := p.scalar(r.Form, path+".form")
			if err != nil {
				return err
			}
			c.Form = CurveForm(form)
			if c.Form != ServiceForm && c.Form != LatencyForm {
				return p.errorf(r.Form.line, path+".form", "want service (points are S(m)) or latency (points are L(m)), got %q", form)
			}
		}
		if len(r.Points) == 0 {
			return p.errorf(0, path+".points", "want at least one [m, time] point")
		}
		for j, rp := range r.Points {
			pp := fmt.Sprintf("%s.points[%d]", path, j)
			if rp.bad != "" {
				return p.errorf(rp.line, pp, "%s", rp.bad)
			}
			var pt Point
			if pt.MLP, err = p.positiveNumber(rp.mlp, pp+".m", src); err != nil {
				return err
			}
			if pt.Time, err = p.time(rp.time, pp+".time", src); err != nil {
				return err
			}
			if j > 0 && pt.MLP <= c.Points[j-1].MLP {
				return p.errorf(rp.line, pp, "m = %g is not above the previous point's %g", pt.MLP, c.Points[j-1].MLP)
			}
			c.Points = append(c.Points, pt)
		}
		// One source entry for the whole list of points.
		p.note(path+".points", value{}, src)
		if _, err := c.Curve(); err != nil {
			return p.errorf(0, path+".points", "%v", err)
		}
		p.m.ServiceCurves = append(p.m.ServiceCurves, c)
	}
	return nil
}

// syntaxErrorLine returns the first line at which a prefix of data stops
// being valid YAML (the line at fault for a syntax error), or 0. yaml.v3
// reports a syntax error at the line of its context, often the start of
// the enclosing mapping (line 10 for a bad line 18). A prefix of a valid
// block-style document is valid, so the first failing prefix ends at the
// bad line. O(n^2) in the lines; files of more than 5000 lines keep the
// decoder's line.
func syntaxErrorLine(data []byte) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > 5000 {
		return 0
	}
	var prefix []byte
	for i, l := range lines {
		prefix = append(prefix, l...)
		var n yaml.Node
		if err := yaml.Unmarshal(prefix, &n); err != nil {
			return i + 1
		}
	}
	return 0
}
