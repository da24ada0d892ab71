package gen

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Spec is a plain description of one generated graph, the form a corpus
// file or a command line gives: the family (Kind) and the parameters of
// every family, of which only those of Kind are read (Fields lists them).
// Field names follow the flags of "graphperf graph gen" and the YAML keys
// of a corpus file; DefaultSpec holds the flags' defaults.
//
//	kind        fields
//	rmat        scale, edge_factor, a, b, c, permute, undirected
//	kronecker   scale, edge_factor (Graph500: a, b, c = 0.57, 0.19, 0.19, permuted, undirected)
//	er          n, m, directed
//	ws          n, k, p
//	ba          n, attach
//	road        rows, cols, remove, shortcuts
//	config      n, dist and the target's own: min, max (uniform), lambda
//	            (exponential), mu, sigma (normal), alpha, min, max (powerlaw)
//	holmekim    n, attach, triad
//	forestfire  n, fwd, bwd
//	sbm         n, blocks, mix, alpha, min, max (power-law degrees)
type Spec struct {
	Kind string `yaml:"kind" json:"kind"`

	Scale      int     `yaml:"scale" json:"scale"`             // rmat, kronecker: log2 of the vertex count
	EdgeFactor int     `yaml:"edge_factor" json:"edge_factor"` // rmat, kronecker: listed edges per vertex
	A          float64 `yaml:"a" json:"a"`                     // rmat: top-left quadrant probability
	B          float64 `yaml:"b" json:"b"`                     // rmat: top-right quadrant probability
	C          float64 `yaml:"c" json:"c"`                     // rmat: bottom-left quadrant probability
	Permute    bool    `yaml:"permute" json:"permute"`         // rmat: relabel vertices pseudo-randomly
	Undirected bool    `yaml:"undirected" json:"undirected"`   // rmat: build undirected (directed by default)

	N        int   `yaml:"n" json:"n"`               // er, ws, ba, config, holmekim, forestfire, sbm: vertex count
	M        int64 `yaml:"m" json:"m"`               // er: edge count
	Directed bool  `yaml:"directed" json:"directed"` // er: directed edges

	K      int     `yaml:"k" json:"k"`           // ws: lattice degree (even)
	P      float64 `yaml:"p" json:"p"`           // ws: rewiring probability
	Attach int     `yaml:"attach" json:"attach"` // ba, holmekim: edges per new vertex
	Triad  float64 `yaml:"triad" json:"triad"`   // holmekim: probability of a triad formation step

	Fwd float64 `yaml:"fwd" json:"fwd"` // forestfire: forward burning probability p
	Bwd float64 `yaml:"bwd" json:"bwd"` // forestfire: backward burning probability

	Blocks int     `yaml:"blocks" json:"blocks"` // sbm: communities
	Mix    float64 `yaml:"mix" json:"mix"`       // sbm: fraction of each vertex's stubs leaving its community (LFR's mu)

	Rows      int     `yaml:"rows" json:"rows"`           // road: grid rows
	Cols      int     `yaml:"cols" json:"cols"`           // road: grid columns
	Remove    float64 `yaml:"remove" json:"remove"`       // road: probability of removing each grid edge
	Shortcuts int     `yaml:"shortcuts" json:"shortcuts"` // road: random long-range edges

	Dist   string  `yaml:"dist" json:"dist"`     // config: uniform, exponential, normal or powerlaw
	Min    int64   `yaml:"min" json:"min"`       // config (uniform, powerlaw), sbm: minimum degree
	Max    int64   `yaml:"max" json:"max"`       // config (uniform, powerlaw), sbm: maximum degree
	Lambda float64 `yaml:"lambda" json:"lambda"` // config: rate of the exponential target
	Mu     float64 `yaml:"mu" json:"mu"`         // config: mean of the normal target
	Sigma  float64 `yaml:"sigma" json:"sigma"`   // config: standard deviation of the normal target
	Alpha  float64 `yaml:"alpha" json:"alpha"`   // config, sbm: exponent of the power-law degrees
}

// DefaultSpec holds the defaults of every parameter, the same as the flags
// of "graphperf graph gen". Kind is empty: copy it and set Kind.
var DefaultSpec = Spec{
	Scale: 16, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19,
	N: 1 << 16, M: 1 << 20,
	K: 10, P: 0.1, Attach: 4, Triad: 0.5,
	Fwd: 0.35, Bwd: 0.32,
	Blocks: 64, Mix: 0.2,
	Rows: 1024, Cols: 1024, Remove: 0.1, Shortcuts: 16,
	Min: 0, Max: 100, Lambda: 0.1, Mu: 50, Sigma: 10, Alpha: 2.5,
}

// kindFields lists the fields each kind reads, in the order the flags of
// "graph gen" list them.
var kindFields = map[string][]string{
	"rmat":       {"scale", "edge_factor", "a", "b", "c", "permute", "undirected"},
	"kronecker":  {"scale", "edge_factor"},
	"er":         {"n", "m", "directed"},
	"ws":         {"n", "k", "p"},
	"ba":         {"n", "attach"},
	"road":       {"rows", "cols", "remove", "shortcuts"},
	"config":     {"n", "dist", "min", "max", "lambda", "mu", "sigma", "alpha"},
	"holmekim":   {"n", "attach", "triad"},
	"forestfire": {"n", "fwd", "bwd"},
	"sbm":        {"n", "blocks", "mix", "alpha", "min", "max"},
}

// distFields lists the fields each target distribution of config reads.
var distFields = map[string][]string{
	"uniform":     {"min", "max"},
	"exponential": {"lambda"},
	"normal":      {"mu", "sigma"},
	"powerlaw":    {"alpha", "min", "max"},
}

// Kinds returns the kinds a Spec may have, sorted.
func Kinds() []string {
	kinds := make([]string, 0, len(kindFields))
	for k := range kindFields {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// KindFields returns the YAML names of the fields a kind reads (for config
// all of the targets' fields), and false for an unknown kind.
func KindFields(kind string) ([]string, bool) {
	f, ok := kindFields[kind]
	return slices.Clone(f), ok
}

// ErrUnknownKind is a kind no generator has (see Kinds).
var ErrUnknownKind = errors.New("gen: unknown kind")

// FieldError is a field given for a kind that does not read it: Field is
// its YAML name, Fields those Kind reads (KindFields).
type FieldError struct {
	Kind, Field string
	Fields      []string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("gen: %s does not apply to %s (its fields: %s)", e.Field, e.Kind, strings.Join(e.Fields, ", "))
}

// CheckFields returns the fields kind reads (KindFields) and checks that
// every field of set (YAML names) is one of them: an error wrapping
// ErrUnknownKind for an unknown kind, a *FieldError for the first field of
// set that kind does not read. For config every target's fields count
// (KindFields, not Spec.Fields).
func CheckFields(kind string, set []string) ([]string, error) {
	fields, ok := KindFields(kind)
	if !ok {
		return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownKind, kind, strings.Join(Kinds(), ", "))
	}
	for _, f := range set {
		if !slices.Contains(fields, f) {
			return fields, &FieldError{Kind: kind, Field: f, Fields: fields}
		}
	}
	return fields, nil
}

// Fields returns the YAML names of the fields s reads: KindFields(s.Kind),
// narrowed for config to n, dist and the fields of its distribution. It
// returns nil for an unknown kind.
func (s Spec) Fields() []string {
	if s.Kind != "config" {
		f, _ := KindFields(s.Kind)
		return f
	}
	return append([]string{"n", "dist"}, distFields[s.Dist]...)
}

// SpecError is a Spec that makes no generator: Field is the YAML name of
// the field at fault ("scale", "dist"; "a+b+c" or "rows·cols" where a
// combination is out of range), Err says why. Err is the generator's own
// *ParamError (possibly wrapped) when a parameter is out of range.
type SpecError struct {
	Field string
	Err   error
}

func (e *SpecError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *SpecError) Unwrap() error { return e.Err }

const distChoices = "uniform, exponential, normal or powerlaw"

// Generator returns the generator s describes, validated: an error is a
// *SpecError naming the field. Kronecker is Graph500 with s's Scale and
// EdgeFactor. A power-law target's Min is raised to 1 (a degree of 0 has
// no power-law weight), as "graph gen" does.
func (s Spec) Generator() (Generator, error) {
	var g interface {
		Generator
		Validate() error
	}
	switch s.Kind {
	case "rmat":
		g = RMAT{Scale: s.Scale, EdgeFactor: s.EdgeFactor, A: s.A, B: s.B, C: s.C, Permute: s.Permute, Directed: !s.Undirected}
	case "kronecker":
		r := Graph500
		r.Scale, r.EdgeFactor = s.Scale, s.EdgeFactor
		g = r
	case "er":
		g = ErdosRenyi{N: s.N, M: s.M, Directed: s.Directed}
	case "ws":
		g = WattsStrogatz{N: s.N, K: s.K, P: s.P}
	case "ba":
		g = BarabasiAlbert{N: s.N, M: s.Attach}
	case "road":
		g = Road{Rows: s.Rows, Cols: s.Cols, RemoveProb: s.Remove, Shortcuts: s.Shortcuts}
	case "config":
		switch s.Dist {
		case "":
			return nil, &SpecError{"dist", errors.New("config needs a target distribution (" + distChoices + ")")}
		case "uniform", "exponential", "normal", "powerlaw":
		default:
			return nil, &SpecError{"dist", fmt.Errorf("unknown distribution %q (want %s)", s.Dist, distChoices)}
		}
		g = Configuration{N: s.N, Degree: s.Target()}
	case "holmekim":
		g = HolmeKim{N: s.N, M: s.Attach, Triad: s.Triad}
	case "forestfire":
		g = ForestFire{N: s.N, Fwd: s.Fwd, Bwd: s.Bwd}
	case "sbm":
		g = s.sbm()
	case "":
		return nil, &SpecError{"kind", fmt.Errorf("a kind is required (one of %s)", strings.Join(Kinds(), ", "))}
	default:
		return nil, &SpecError{"kind", fmt.Errorf("unknown kind %q (want one of %s)", s.Kind, strings.Join(Kinds(), ", "))}
	}
	if err := g.Validate(); err != nil {
		return nil, &SpecError{Field: s.fieldOf(err), Err: err}
	}
	return g, nil
}

// sbm returns the SBM of an sbm spec; Min is raised to 1 as for a
// power-law config target.
func (s Spec) sbm() SBM {
	return SBM{N: s.N, Blocks: s.Blocks, Mix: s.Mix, Degree: PowerLaw{Alpha: s.Alpha, Min: max(s.Min, 1), Max: s.Max}}
}

// Target returns the target degree distribution of a config spec, and nil
// for any other kind or an unknown Dist.
func (s Spec) Target() Distribution {
	if s.Kind != "config" {
		return nil
	}
	switch s.Dist {
	case "uniform":
		return Uniform{Min: s.Min, Max: s.Max}
	case "exponential":
		return Exponential{Lambda: s.Lambda}
	case "normal":
		return Normal{Mu: s.Mu, Sigma: s.Sigma}
	case "powerlaw":
		return PowerLaw{Alpha: s.Alpha, Min: max(s.Min, 1), Max: s.Max}
	}
	return nil
}

// paramFields maps a ParamError's Type.Param to a Spec field where the
// lower-cased Param is not the name.
var paramFields = map[string]string{
	"RMAT.EdgeFactor":      "edge_factor",
	"RMAT.A+B+C":           "a+b+c",
	"BarabasiAlbert.M":     "attach",
	"HolmeKim.M":           "attach",
	"SBM.Degree":           "alpha",
	"Road.RemoveProb":      "remove",
	"Road.Rows·Cols":       "rows·cols",
	"Configuration.N":      "n",
	"Configuration.Degree": "dist",
}

// fieldOf names the Spec field a validation error is about.
func (s Spec) fieldOf(err error) string {
	var pe *ParamError
	if !errors.As(err, &pe) {
		return "kind"
	}
	if f, ok := paramFields[pe.Type+"."+pe.Param]; ok {
		return f
	}
	return strings.ToLower(pe.Param)
}

// EstimatedVertices returns the vertex count s makes (exact for every kind).
func (s Spec) EstimatedVertices() int64 {
	switch s.Kind {
	case "rmat", "kronecker":
		if s.Scale < 0 || s.Scale > 62 {
			return 0
		}
		return 1 << s.Scale
	case "road":
		return int64(s.Rows) * int64(s.Cols)
	}
	return int64(s.N)
}

// EstimatedEdges returns about how many edges the CSR of s stores, an
// undirected edge counting twice, before self-loops and duplicates are
// dropped: what a kernel's work and a sweep's cost scale with.
//
//	rmat, kronecker  EdgeFactor·2^Scale, twice that when undirected
//	er               M, twice that when undirected
//	ws               N·K (N·K/2 undirected edges)
//	ba               2·(N-Attach)·Attach
//	road             2·((Rows·(Cols-1) + (Rows-1)·Cols)·(1-Remove) + Shortcuts)
//	config           N times the target's mean degree
//	holmekim         2·(N-Attach)·Attach
//	forestfire       simulated: seed 1's edge count up to 2^14 vertices,
//	                 extrapolated beyond (see forestFireEdges; an
//	                 underestimate near the critical point)
//	sbm              N·<d>·(1 - Mix·Σ_b (s_b/N)²), <d> the power law's mean:
//	                 stubs less the external pairs erased inside a community
//
// It is 0 for a spec that makes no generator.
func (s Spec) EstimatedEdges() int64 {
	if _, err := s.Generator(); err != nil {
		return 0
	}
	switch s.Kind {
	case "rmat":
		m := int64(s.EdgeFactor) << s.Scale
		if s.Undirected {
			m *= 2
		}
		return m
	case "kronecker":
		return 2 * (int64(s.EdgeFactor) << s.Scale)
	case "er":
		if s.Directed {
			return s.M
		}
		return 2 * s.M
	case "ws":
		return int64(s.N) * int64(s.K)
	case "ba":
		return 2 * int64(s.N-s.Attach) * int64(s.Attach)
	case "road":
		grid := float64(s.Rows)*float64(s.Cols-1) + float64(s.Rows-1)*float64(s.Cols)
		return int64(math.Round(2 * (grid*(1-s.Remove) + float64(s.Shortcuts))))
	case "config":
		return int64(math.Round(float64(s.N) * meanDegree(s.Target(), int64(s.N)-1)))
	case "holmekim":
		return 2 * int64(s.N-s.Attach) * int64(s.Attach)
	case "forestfire":
		return int64(math.Round(forestFireEdges(s.N, s.Fwd, s.Bwd)))
	case "sbm":
		b := s.sbm()
		return int64(math.Round(float64(s.N) * meanDegree(b.Degree, int64(s.N)-1) * (1 - s.Mix*b.crossFraction())))
	}
	return 0
}

// exactPowerLawTerms is how many terms of a power law's sums meanDegree
// adds one by one before it integrates the rest.
const exactPowerLawTerms = 1 << 16

// meanDegree returns the mean of a target distribution: closed forms for
// uniform (Min+Max)/2, exponential e^(λ/2)/(e^λ-1) and normal Mu (the
// clipping at 0 is ignored), and Σ k·k^-α / Σ k^-α for a power law, over
// Min..min(Max, maxDegree) (the generator redraws larger degrees), the
// terms beyond the first exactPowerLawTerms integrated: O(1) for any Max.
func meanDegree(d Distribution, maxDegree int64) float64 {
	switch d := d.(type) {
	case Uniform:
		return float64(d.Min+d.Max) / 2
	case Exponential:
		return math.Exp(d.Lambda/2) / math.Expm1(d.Lambda)
	case Normal:
		return max(d.Mu, 0)
	case PowerLaw:
		hi := min(d.Max, maxDegree)
		if hi < d.Min {
			return float64(d.Min)
		}
		var num, den float64
		k := d.Min
		for ; k <= hi && k < d.Min+exactPowerLawTerms; k++ {
			w := math.Pow(float64(k), -d.Alpha)
			num += float64(k) * w
			den += w
		}
		if k <= hi {
			// Σ_{j=k}^{hi} j^-s ≈ ∫_{k-1/2}^{hi+1/2} x^-s dx.
			a, b := float64(k)-0.5, float64(hi)+0.5
			num += powerIntegral(a, b, d.Alpha-1)
			den += powerIntegral(a, b, d.Alpha)
		}
		return num / den
	}
	return 0
}

// powerIntegral returns ∫_a^b x^-s dx, 0 < a < b.
func powerIntegral(a, b, s float64) float64 {
	if s == 1 {
		return math.Log(b / a)
	}
	return (math.Pow(b, 1-s) - math.Pow(a, 1-s)) / (1 - s)
}

// specFieldIndex maps a YAML name to the index of its Spec field.
var specFieldIndex = func() map[string]int {
	t := reflect.TypeOf(Spec{})
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		m[t.Field(i).Tag.Get("yaml")] = i
	}
	return m
}()

// Params returns kind and the fields s reads (Fields), by YAML name: the
// record of how to make the graph again.
func (s Spec) Params() map[string]any {
	v := reflect.ValueOf(s)
	p := map[string]any{"kind": s.Kind}
	for _, f := range s.Fields() {
		p[f] = v.Field(specFieldIndex[f]).Interface()
	}
	return p
}

// String returns the kind and the fields s reads as "rmat scale=12
// edge_factor=8 ...".
func (s Spec) String() string {
	v := reflect.ValueOf(s)
	parts := []string{s.Kind}
	for _, f := range s.Fields() {
		parts = append(parts, fmt.Sprintf("%s=%v", f, v.Field(specFieldIndex[f]).Interface()))
	}
	return strings.Join(parts, " ")
}
