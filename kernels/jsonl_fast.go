package kernels

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// levelPrefix is how graphperf-bfs begins every level line.
const levelPrefix = `{"type":"level",`

// fastLevel decodes a level line written the way graphperf-bfs writes it:
// one flat object whose keys are all Level's JSON keys spelled exactly,
// whose strings have no escapes and whose numbers fit their fields. For
// anything else it reports false and decodeLine takes encoding/json's path,
// so the two agree on every line where fastLevel answers (the fuzz target
// FuzzFastLevel checks that). A dataset read is almost all level lines
// (1.2 million in the embedded H100 dataset), and encoding/json's
// reflection made reading them most of a report's time.
func fastLevel(b []byte, in interner) (*Level, bool) {
	if len(b) < len(levelPrefix) || string(b[:len(levelPrefix)]) != levelPrefix {
		return nil, false
	}
	l := &Level{}
	p := flatParser{b: b, i: len(levelPrefix) - 1, in: in} // at the comma after "type"
	for {
		p.space()
		switch p.next() {
		case '}':
			p.space()
			return l, p.i == len(p.b)
		case ',':
		default:
			return nil, false
		}
		p.space()
		key, ok := p.raw()
		if !ok {
			return nil, false
		}
		p.space()
		if p.next() != ':' {
			return nil, false
		}
		p.space()
		if !setLevelField(l, string(key), &p) {
			return nil, false
		}
	}
}

// setLevelField reads the value of key from p into l; false for an unknown
// key or a value encoding/json would treat differently.
func setLevelField(l *Level, key string, p *flatParser) bool {
	switch key {
	case "type":
		s, ok := p.str()
		return ok && s == "level"
	case "graph":
		return p.strInto(&l.Graph)
	case "graph_hash":
		return p.strInto(&l.GraphHash)
	case "impl":
		return p.strInto(&l.Impl)
	case "algorithm":
		return p.strInto(&l.Algorithm)
	case "aggregation":
		return p.strInto(&l.Aggregation)
	case "claim":
		return p.strInto(&l.Claim)
	case "direction":
		return p.strInto(&l.Direction)
	case "convert":
		return p.strInto(&l.Convert)
	case "switch_impl":
		return p.strInto(&l.SwitchImpl)
	case "form":
		return p.strInto(&l.Form)
	case "n":
		return p.int64Into(&l.N)
	case "m":
		return p.int64Into(&l.M)
	case "frontier":
		return p.int64Into(&l.Frontier)
	case "discovered":
		return p.int64Into(&l.Discovered)
	case "device_count":
		return p.int64Into(&l.DeviceCount)
	case "grid":
		return p.int64Into(&l.Grid)
	case "root":
		return p.uint32Into(&l.Root)
	case "warp_width":
		return p.intInto(&l.WarpWidth)
	case "chunk":
		return p.intInto(&l.Chunk)
	case "level":
		return p.intInto(&l.Level)
	case "block_size":
		return p.intInto(&l.BlockSize)
	case "reps":
		return p.intInto(&l.Reps)
	}
	if f := levelFloatField(l, key); f != nil {
		return p.floatInto(f)
	}
	return false
}

// levelFloatField is the float64 field of l that key names, nil if none.
func levelFloatField(l *Level, key string) *float64 {
	switch key {
	case "min_ns":
		return &l.MinNs
	case "median_ns":
		return &l.MedianNs
	case "mean_ns":
		return &l.MeanNs
	case "max_ns":
		return &l.MaxNs
	case "stddev_ns":
		return &l.StddevNs
	case "convert_min_ns":
		return &l.ConvertMinNs
	case "convert_median_ns":
		return &l.ConvertMedianNs
	case "convert_mean_ns":
		return &l.ConvertMeanNs
	case "convert_max_ns":
		return &l.ConvertMaxNs
	case "convert_stddev_ns":
		return &l.ConvertStddevNs
	}
	return nil
}

// flatParser walks one flat JSON object; b[i] is the next byte; in keeps
// one copy of each string value.
type flatParser struct {
	b  []byte
	i  int
	in interner
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

// next returns the next byte and steps over it; 0 at the end.
func (p *flatParser) next() byte {
	if p.i >= len(p.b) {
		return 0
	}
	c := p.b[p.i]
	p.i++
	return c
}

func (p *flatParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// str reads a string without escapes or control characters, in valid
// UTF-8 (encoding/json would rewrite invalid bytes).
func (p *flatParser) str() (string, bool) {
	b, ok := p.raw()
	return string(b), ok
}

// raw is str's bytes, without a copy.
func (p *flatParser) raw() ([]byte, bool) {
	if p.next() != '"' {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

func (p *flatParser) strInto(dst *string) bool {
	b, ok := p.raw()
	*dst = p.in.str(b)
	return ok
}

// number reads a token of JSON's number grammar, without a copy:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *flatParser) number() ([]byte, bool) {
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return nil, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, false
		}
	}
	return p.b[start:p.i], true
}

// integer reads a number token that is an integer in [lo, hi]: digits
// only (encoding/json rejects 1.0 and 1e3 for an integer field too).
func (p *flatParser) integer(lo, hi int64) (int64, bool) {
	b, ok := p.number()
	if !ok {
		return 0, false
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (math.MaxUint64-9)/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case !neg && v <= uint64(hi):
		return int64(v), true
	case neg && lo < 0 && v <= uint64(-(lo+1))+1:
		return -int64(v-1) - 1, true
	}
	return 0, false
}

func (p *flatParser) digits() int {
	n := 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

func (p *flatParser) int64Into(dst *int64) bool {
	v, ok := p.integer(math.MinInt64, math.MaxInt64)
	*dst = v
	return ok
}

func (p *flatParser) intInto(dst *int) bool {
	v, ok := p.integer(math.MinInt, math.MaxInt)
	*dst = int(v)
	return ok
}

func (p *flatParser) uint32Into(dst *uint32) bool {
	v, ok := p.integer(0, math.MaxUint32)
	*dst = uint32(v)
	return ok
}

func (p *flatParser) floatInto(dst *float64) bool {
	b, ok := p.number()
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	*dst = v
	return err == nil
}
