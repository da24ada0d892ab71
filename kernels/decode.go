package kernels

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The decoder reads one line by the declaration (format.go): it splits the
// object into its keys and raw values, picks the line's RecordKind, and
// reads each declared key into its Go field. One pass over the bytes, no
// reflection: a dataset read is almost all level lines (3.9 million in the
// embedded datasets), and encoding/json's reflection was most of a
// report's time. encoding/json decodes only strings with escapes and
// arrays; FuzzDecodeLine checks that wherever the decoder accepts a line,
// encoding/json reads the same values from it.

// jsonField is one key of an object and its raw value, as offsets into
// the line (no pointers: the decoder's slice of them costs the garbage
// collector nothing).
type jsonField struct {
	// The key is line[ks:ke], or decoder.keys[ks:ke] when keyEscaped
	// (unescaped there); the value is line[vs:ve]: a string's contents
	// without its quotes, else the token (a number, true, false, null,
	// or an array or object).
	ks, ke, vs, ve int32
	kind           byte // '"' string, '0' number, 't' true, 'f' false, 'n' null, '[' array, '{' object
	// escaped: a string value with escapes or bytes outside ASCII, which
	// encoding/json decodes (it replaces invalid UTF-8).
	escaped, keyEscaped bool
}

// decoder decodes lines; its scratch slices and interner live across
// lines.
type decoder struct {
	line   []byte // the line being decoded
	fields []jsonField
	keys   []byte // escaped keys, unescaped
	intern interner
}

func (d *decoder) key(fd *jsonField) []byte {
	if fd.keyEscaped {
		return d.keys[fd.ks:fd.ke]
	}
	return d.line[fd.ks:fd.ke]
}

func (d *decoder) value(fd *jsonField) []byte { return d.line[fd.vs:fd.ve] }

// quoted is a string value with its quotes.
func (d *decoder) quoted(fd *jsonField) []byte { return d.line[fd.vs-1 : fd.ve+1] }

// lineError is a line the decoder rejects: its kind's name (empty before
// the kind is known), the field at fault (empty when none) and what is
// wrong.
type lineError struct {
	record, field, msg string
	// whole: msg says it all (it names the field itself).
	whole bool
}

func (e *lineError) Error() string {
	s := e.msg
	switch {
	case e.whole:
	case e.field != "" && e.msg == "missing":
		s = fmt.Sprintf("field %q missing", e.field)
	case e.field != "":
		s = fmt.Sprintf("field %q: %s", e.field, e.msg)
	}
	if e.record != "" {
		s = e.record + ": " + s
	}
	return s
}

// decode reads one line (without its newline; surrounding white space is
// allowed).
func (d *decoder) decode(b []byte) (Record, *lineError) {
	d.line, d.keys = b, d.keys[:0]
	fields, err := d.split(b, d.fields[:0])
	d.fields = fields[:0]
	if err != nil {
		return nil, err
	}
	// The keys that pick the kind: "type", and for totals and errors
	// "model" and "algorithm". The runner prints "type" first.
	var typ, alg *jsonField
	hasModel, hasVariant := false, false
	for i := range fields {
		fd := &fields[i]
		key := d.key(fd)
		if len(key) < 4 || len(key) > 9 {
			continue
		}
		switch string(key) {
		case "type":
			if typ != nil {
				return nil, &lineError{field: "type", msg: "repeated"}
			}
			if fd.kind != '"' {
				return nil, &lineError{field: "type", msg: "got " + jsonKindName(fd.kind) + ", want a string"}
			}
			typ = fd
		case "model":
			hasModel = true
		case "variant":
			hasVariant = true
		case "algorithm":
			alg = fd
		}
	}
	algorithm := ""
	if alg != nil && alg.kind == '"' {
		algorithm = d.str(alg, true)
	}
	if typ == nil {
		return nil, &lineError{msg: `no "type" key`}
	}
	t := d.str(typ, true)
	k := kindOf(t, hasModel, algorithm)
	if k == nil {
		return &Other{Kind: t, Raw: append(json.RawMessage(nil), b...)}, nil
	}
	if hasVariant && !hasModel && (t == "total" || t == "error") {
		// graphperf-la's lines have both: which kind this is is a guess.
		if la := kindOf(t, true, algorithm); la != nil {
			return nil, &lineError{record: la.Name, field: "model", msg: "missing"}
		}
	}
	if _, declared := k.index["algorithm"]; declared && alg == nil {
		// It picks the kind: without it, the other keys are judged by
		// a guess.
		return nil, &lineError{record: k.Name, field: "algorithm", msg: "missing"}
	}
	rec := k.new()
	var seen uint64 // bit i: k.Fields[i] was read
	next := 0       // the runner prints the keys in the declared order
	for i := range fields {
		fd := &fields[i]
		j := -1
		key := d.key(fd)
		if next < len(k.Fields) && k.Fields[next].Key == string(key) {
			j = next
		} else if x, ok := k.index[string(key)]; ok {
			j = x
		}
		if j < 0 {
			if string(key) == "type" {
				continue
			}
			if declared := k.foldMatch(key); declared != "" {
				// encoding/json would take it for the declared key.
				return nil, &lineError{record: k.Name, field: declared, msg: fmt.Sprintf("spelled %q (keys are case-sensitive)", key)}
			}
			continue // "type", or a key this kind does not declare
		}
		next = j + 1
		if seen&(1<<j) != 0 {
			return nil, &lineError{record: k.Name, field: k.Fields[j].Key, msg: "repeated (a key may appear once)"}
		}
		seen |= 1 << j
		if msg := d.set(rec, &k.Fields[j], fd); msg != "" {
			return nil, &lineError{record: k.Name, field: k.Fields[j].Key, msg: msg}
		}
	}
	impl := ""
	if k.impl != nil {
		impl = k.impl(rec)
	}
	if need := k.required(impl); seen&need != need {
		for j := range k.Fields {
			if seen&(1<<j) == 0 && need&(1<<j) != 0 {
				return nil, &lineError{record: k.Name, field: k.Fields[j].Key, msg: "missing"}
			}
		}
	}
	if k.check != nil {
		if field, msg := k.check(rec); field != "" {
			return nil, &lineError{record: k.Name, field: field, msg: msg}
		}
	}
	return rec, nil
}

// foldMatch returns the declared key that key spells but for case, or "".
func (k *RecordKind) foldMatch(key []byte) string {
	for _, fd := range k.Fields {
		if len(fd.Key) == len(key) && strings.EqualFold(fd.Key, string(key)) {
			return fd.Key
		}
	}
	return ""
}

// str returns a string field's value; intern keeps one copy per value.
func (d *decoder) str(fd *jsonField, intern bool) string {
	if fd.escaped {
		var s string
		if json.Unmarshal(d.quoted(fd), &s) == nil {
			return s
		}
		return string(d.value(fd))
	}
	if intern {
		return d.intern.str(d.value(fd))
	}
	return string(d.value(fd))
}

// set reads fd's value into rec's field of decl; it returns what is wrong
// with the value, or "".
func (d *decoder) set(rec Record, decl *Field, fd *jsonField) string {
	if fd.kind == 'n' {
		if decl.Kind == KindNumber {
			return "null: the runner prints null for a NaN or infinite value"
		}
		return "null, want " + decl.Kind.String()
	}
	var target any
	if decl.target != nil {
		target = decl.target(rec)
	}
	switch decl.Kind {
	case KindString:
		if fd.kind != '"' {
			return "got " + jsonKindName(fd.kind) + ", want a string"
		}
		s := d.str(fd, decl.intern)
		if msg := checkString(decl, s); msg != "" {
			return msg
		}
		if p, ok := target.(*string); ok {
			*p = s
		}
	case KindInt:
		v, msg := integer(fd.kind, d.value(fd), target)
		if msg != "" {
			return msg
		}
		if msg := checkRange(decl, float64(v)); msg != "" {
			return fmt.Sprintf("%d: %s", v, msg)
		}
		switch p := target.(type) {
		case *int:
			*p = int(v)
		case *int64:
			*p = v
		case *uint32:
			*p = uint32(v)
		case *uint64:
			*p = uint64(v)
		}
	case KindNumber:
		if fd.kind != '0' {
			return "got " + jsonKindName(fd.kind) + ", want a number"
		}
		v, err := parseFloat(d.value(fd))
		if err != nil {
			return fmt.Sprintf("%s: out of range (a float64 holds up to %g)", d.value(fd), math.MaxFloat64)
		}
		if msg := checkRange(decl, v); msg != "" {
			return fmt.Sprintf("%s: %s", d.value(fd), msg)
		}
		switch p := target.(type) {
		case *float64:
			*p = v
		case **float64:
			x := v // only here on the heap
			*p = &x
		}
	case KindBool:
		if fd.kind != 't' && fd.kind != 'f' {
			return "got " + jsonKindName(fd.kind) + ", want true or false"
		}
		if p, ok := target.(*bool); ok {
			*p = fd.kind == 't'
		}
	case KindStrings:
		var v []string
		if fd.kind != '[' || json.Unmarshal(d.value(fd), &v) != nil {
			return "got " + jsonKindName(fd.kind) + ", want an array of strings"
		}
		if p, ok := target.(*[]string); ok {
			*p = v
		}
	case KindNumbers:
		var v []float64
		if fd.kind != '[' || json.Unmarshal(d.value(fd), &v) != nil {
			return "got " + jsonKindName(fd.kind) + ", want an array of numbers"
		}
		for i, x := range v {
			if msg := checkRange(decl, x); msg != "" {
				return fmt.Sprintf("element %d, %v: %s", i, x, msg)
			}
		}
		if p, ok := target.(*[]float64); ok {
			*p = v
		}
	}
	return ""
}

// integer reads an integer value into the range of target's Go type (of
// int64 for a dropped field; of int64 too for a uint64, the store's).
func integer(kind byte, value []byte, target any) (int64, string) {
	lo, hi, want := int64(math.MinInt64), int64(math.MaxInt64), "an integer"
	switch target.(type) {
	case *int:
		lo, hi = math.MinInt, math.MaxInt
	case *uint32:
		lo, hi, want = 0, math.MaxUint32, "an integer in 0..4294967295"
	case *uint64:
		lo, want = 0, "an integer in 0..9223372036854775807"
	}
	if kind != '0' {
		return 0, "got " + jsonKindName(kind) + ", want " + want
	}
	for _, c := range value {
		if c == '.' || c == 'e' || c == 'E' {
			return 0, fmt.Sprintf("got %s, want %s", value, want)
		}
	}
	v, ok := parseInt(value)
	if !ok || v < lo || v > hi {
		return 0, fmt.Sprintf("got %s, want %s", value, want)
	}
	return v, ""
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat is strconv.ParseFloat of a JSON number token, without the
// string it would allocate for the runner's numbers: up to 15 significant
// digits and no exponent, the mantissa and the power of ten are exact
// float64s, and their quotient is rounded once, as ParseFloat rounds
// (Clinger's fast path, which strconv takes too). Other tokens go to
// strconv.
func parseFloat(b []byte) (float64, error) {
	i, neg := 0, false
	if len(b) > 0 && b[0] == '-' {
		i, neg = 1, true
	}
	var mantissa uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if mantissa != 0 || c != '0' {
				digits++
			}
			mantissa = mantissa*10 + uint64(c-'0')
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return strconv.ParseFloat(string(b), 64)
		}
		if digits > 15 || frac >= len(pow10) {
			return strconv.ParseFloat(string(b), 64)
		}
	}
	v := float64(mantissa) / pow10[frac]
	if neg {
		v = -v
	}
	return v, nil
}

// parseInt reads a JSON integer token (digits, a leading '-'); ok is false
// when it overflows an int64.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' || v > (math.MaxUint64-9)/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case !neg && v <= math.MaxInt64:
		return int64(v), true
	case neg && v <= math.MaxInt64+1:
		return -int64(v-1) - 1, true
	}
	return 0, false
}

// checkRange says what is wrong with a number of decl, or "".
func checkRange(decl *Field, v float64) string {
	switch decl.Range {
	case NonNegative:
		if v < 0 {
			return "want a value >= 0"
		}
	case Positive:
		if v < 1 {
			return "want a value >= 1"
		}
	}
	return ""
}

// checkString says what is wrong with a string of decl, or "".
func checkString(decl *Field, s string) string {
	if len(decl.Values) > 0 {
		for _, v := range decl.Values {
			if s == v {
				return ""
			}
		}
		return fmt.Sprintf("%q: want one of %q", s, decl.Values)
	}
	switch decl.Range {
	case NonEmpty:
		if s == "" {
			return "empty"
		}
	case Hash8, Hash16:
		n := 8
		if decl.Range == Hash16 {
			n = 16
		}
		if !isHex(s, n) {
			return fmt.Sprintf("%q: want %d lowercase hex digits", s, n)
		}
	}
	return ""
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// jsonKindName names a splitObject kind for an error.
func jsonKindName(kind byte) string {
	switch kind {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "nothing"
}

// split splits the JSON object b (d.line) into its keys and values,
// appending them to fields. It checks the JSON grammar of the whole line:
// a value that is not JSON (NaN, a truncated line) is an error naming its
// key.
func (d *decoder) split(b []byte, fields []jsonField) ([]jsonField, *lineError) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fields, &lineError{msg: "not a JSON object"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		if skipSpace(b, i+1) != len(b) {
			return fields, &lineError{msg: "not a JSON object: bytes after its end"}
		}
		return fields, nil
	}
	var lastKey []byte // the string(lastKey) key read, for errors
	for {
		var fd jsonField
		if i >= len(b) {
			return fields, endsInside(string(lastKey))
		}
		if b[i] != '"' {
			return fields, &lineError{msg: fmt.Sprintf("not a JSON object: a key is not a string at byte %d", i+1)}
		}
		end, escaped, ok := scanString(b, i)
		if !ok {
			if end >= len(b) {
				return fields, endsInside(string(lastKey))
			}
			return fields, &lineError{msg: fmt.Sprintf("not a JSON object: a bad key at byte %d", i+1)}
		}
		fd.ks, fd.ke = int32(i+1), int32(end-1)
		if escaped {
			var k string
			if json.Unmarshal(b[i:end], &k) != nil {
				return fields, &lineError{msg: fmt.Sprintf("not a JSON object: a bad key at byte %d", i+1)}
			}
			fd.ks, fd.keyEscaped = int32(len(d.keys)), true
			d.keys = append(d.keys, k...)
			fd.ke = int32(len(d.keys))
		}
		lastKey = d.key(&fd)
		i = skipSpace(b, end)
		if i >= len(b) {
			return fields, &lineError{field: string(lastKey), msg: "the line ends before its value"}
		}
		if b[i] != ':' {
			return fields, &lineError{field: string(lastKey), msg: "not followed by ':'"}
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return fields, &lineError{field: string(lastKey), msg: "the line ends before its value"}
		}
		switch c := b[i]; {
		case c == '"':
			end, escaped, ok := scanString(b, i)
			if !ok {
				if end >= len(b) {
					return fields, &lineError{field: string(lastKey), msg: "the line ends inside its value"}
				}
				return fields, &lineError{field: string(lastKey), msg: "a string that is not JSON"}
			}
			fd.kind, fd.vs, fd.ve, fd.escaped, i = '"', int32(i+1), int32(end-1), escaped, end
		case c == '-' || c >= '0' && c <= '9':
			end := scanNumber(b, i)
			if end < 0 {
				return fields, &lineError{field: string(lastKey), msg: fmt.Sprintf("%s: not a JSON number", token(b, i))}
			}
			fd.kind, fd.vs, fd.ve, i = '0', int32(i), int32(end), end
		case c == '[' || c == '{':
			end := skipNested(b, i)
			if end < 0 {
				return fields, &lineError{field: string(lastKey), msg: "the line ends inside its value"}
			}
			if !json.Valid(b[i:end]) {
				return fields, &lineError{field: string(lastKey), msg: "an array or object that is not JSON"}
			}
			fd.kind, fd.vs, fd.ve, i = c, int32(i), int32(end), end
		default:
			lit := literal(c)
			if lit == "" || len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
				msg := fmt.Sprintf("%s is not a JSON value", token(b, i))
				if t := token(b, i); t == "NaN" || t == "Infinity" || t == "-Infinity" || t == "inf" || t == "nan" {
					msg += " (the runner prints null for a NaN or infinite value)"
				}
				return fields, &lineError{field: string(lastKey), msg: msg}
			}
			fd.kind, fd.vs, fd.ve, i = c, int32(i), int32(i+len(lit)), i+len(lit)
		}
		fields = append(fields, fd)
		i = skipSpace(b, i)
		if i >= len(b) {
			return fields, endsInside(string(lastKey))
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == '}' {
				return fields, &lineError{field: string(lastKey), msg: "followed by a trailing comma"}
			}
		case '}':
			if skipSpace(b, i+1) != len(b) {
				return fields, &lineError{msg: "not a JSON object: bytes after its end"}
			}
			return fields, nil
		default:
			return fields, &lineError{field: string(lastKey), msg: fmt.Sprintf("not followed by ',' or '}' but %q", b[i])}
		}
	}
}

// literal is the JSON literal that starts with c, or "".
func literal(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'n':
		return "null"
	}
	return ""
}

// endsInside is the error of a line cut short after the field last.
func endsInside(last string) *lineError {
	if last == "" {
		return &lineError{msg: "not a JSON object: the line ends inside it"}
	}
	return &lineError{field: last, whole: true,
		msg: fmt.Sprintf("not a JSON object: the line ends inside it, after field %q (a truncated line?)", last)}
}

// token returns the run of bytes at b[i] up to a delimiter, for errors.
func token(b []byte, i int) string {
	j := i
	for j < len(b) && j-i < 24 {
		c := b[j]
		if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' {
			break
		}
		j++
	}
	return string(b[i:j])
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanString reads the JSON string at b[i] ('"') and returns the index
// after it; escaped says whether it has escapes or bytes outside ASCII
// (encoding/json decodes those: it replaces invalid UTF-8). ok is false
// for a string that is not JSON (an unknown escape, a control
// character); end is then len(b) when the line ends inside it.
func scanString(b []byte, i int) (end int, escaped, ok bool) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, escaped, true
		case c < 0x20:
			return j, escaped, false
		case c >= utf8.RuneSelf:
			escaped = true
		case c == '\\':
			escaped = true
			j++
			if j >= len(b) {
				return len(b), escaped, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return len(b), escaped, false
				}
				for _, h := range b[j+1 : j+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return j, escaped, false
					}
				}
				j += 4
			default:
				return j, escaped, false
			}
		}
	}
	return len(b), escaped, false
}

// scanNumber returns the end of the JSON number at b[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
		if i < len(b) && b[i] >= '0' && b[i] <= '9' {
			return -1 // a leading zero
		}
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
	if i < len(b) && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] == '.') {
		return -1 // 1.5x, 1e5e
	}
	return i
}

// skipNested returns the index after the array or object at b[i], or -1
// when the line ends inside it (json.Valid then checks its grammar).
func skipNested(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, _, ok := scanString(b, j)
			if !ok {
				return -1
			}
			j = end - 1
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// interner returns one string for equal byte strings: a file's level lines
// repeat a handful of graph, implementation and aggregation names a
// million times. At most maxInterned strings are kept (a nil interner
// keeps none).
type interner map[string]string

const maxInterned = 4096

func (in interner) str(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	if in != nil && len(in) < maxInterned {
		in[s] = s
	}
	return s
}
