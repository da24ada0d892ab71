package gen

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/workload/graph"
)

// Source is a generated graph named on a command line in place of a file:
//
//	KIND:key=value,key=value,...
//
// with KIND one of Kinds, the keys the YAML names of the kind's fields
// (KindFields, the flags of "graphperf graph gen" with - spelt _, either
// accepted) plus seed (default 1, as "graph gen") and multigraph (default
// false: self-loops and repeated edges dropped, as "graph gen"). Unnamed
// fields take DefaultSpec's values. "kronecker:scale=20" is the graph of
// "graphperf graph gen kronecker --scale 20 --seed 1".
type Source struct {
	Spec       Spec
	Seed       uint64
	Multigraph bool
}

// IsSource reports whether s has the form of a Source: a known kind and a
// colon ("kronecker:scale=20", "er:"), so a file path is never taken for one.
func IsSource(s string) bool {
	kind, _, ok := strings.Cut(s, ":")
	return ok && slices.Contains(Kinds(), kind)
}

// ParseSource parses a Source; errors name the key at fault.
func ParseSource(s string) (Source, error) {
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || !slices.Contains(Kinds(), kind) {
		return Source{}, fmt.Errorf("gen: %q: want KIND:key=value,... with KIND one of %s", s, strings.Join(Kinds(), ", "))
	}
	src := Source{Spec: DefaultSpec, Seed: 1}
	src.Spec.Kind = kind
	allowed, _ := KindFields(kind)
	v := reflect.ValueOf(&src.Spec).Elem()
	for _, kv := range strings.Split(rest, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		key, val, ok := strings.Cut(kv, "=")
		key = strings.ReplaceAll(strings.TrimSpace(key), "-", "_")
		val = strings.TrimSpace(val)
		if !ok {
			return Source{}, fmt.Errorf("gen: %q: %q is not key=value", s, kv)
		}
		switch key {
		case "seed":
			x, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return Source{}, fmt.Errorf("gen: %q: seed=%q is not an unsigned integer", s, val)
			}
			src.Seed = x
			continue
		case "multigraph":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return Source{}, fmt.Errorf("gen: %q: multigraph=%q is not true or false", s, val)
			}
			src.Multigraph = b
			continue
		}
		if !slices.Contains(allowed, key) {
			return Source{}, fmt.Errorf("gen: %q: %s has no parameter %q (want %s, seed, multigraph)", s, kind, key, strings.Join(allowed, ", "))
		}
		f := v.Field(specFieldIndex[key])
		var err error
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			var x int64
			x, err = strconv.ParseInt(val, 10, 64)
			f.SetInt(x)
		case reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(val, 64)
			f.SetFloat(x)
		case reflect.Bool:
			var x bool
			x, err = strconv.ParseBool(val)
			f.SetBool(x)
		case reflect.String:
			f.SetString(val)
		}
		if err != nil {
			return Source{}, fmt.Errorf("gen: %q: %s=%q is not a %s", s, key, val, f.Kind())
		}
	}
	if _, err := src.Spec.Generator(); err != nil {
		return Source{}, fmt.Errorf("gen: %q: %w", s, err)
	}
	return src, nil
}

// String returns the canonical form: every field of the kind, the seed and
// the multigraph flag.
func (s Source) String() string {
	v := reflect.ValueOf(s.Spec)
	parts := []string{}
	for _, f := range s.Spec.Fields() {
		parts = append(parts, fmt.Sprintf("%s=%v", f, v.Field(specFieldIndex[f]).Interface()))
	}
	parts = append(parts, fmt.Sprintf("seed=%d", s.Seed))
	if s.Multigraph {
		parts = append(parts, "multigraph=true")
	}
	return s.Spec.Kind + ":" + strings.Join(parts, ",")
}

// Build generates the graph: R-MAT and Kronecker through RMAT.BuildCSR
// (no edge list held), the others through BuildGraph; the CSR is the same
// as BuildGraph's in every case.
func (s Source) Build(progress func(done, total int64)) (*graph.CSR, error) {
	g, err := s.Spec.Generator()
	if err != nil {
		return nil, err
	}
	if r, ok := g.(RMAT); ok {
		return r.BuildCSR(s.Seed, s.Multigraph, progress)
	}
	return BuildGraph(g, s.Seed, s.Multigraph, progress)
}
