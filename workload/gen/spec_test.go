package gen

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// spec returns DefaultSpec of kind with changes applied.
func spec(kind string, change func(*Spec)) Spec {
	s := DefaultSpec
	s.Kind = kind
	if change != nil {
		change(&s)
	}
	return s
}

// TestSpecGeneratorKinds builds every kind small and checks the generator's
// type, parameters and the graph it makes.
func TestSpecGeneratorKinds(t *testing.T) {
	tests := []struct {
		s          Spec
		want       Generator
		undirected bool
	}{
		{spec("rmat", func(s *Spec) { s.Scale, s.EdgeFactor, s.Permute = 8, 4, true }),
			RMAT{Scale: 8, EdgeFactor: 4, A: 0.57, B: 0.19, C: 0.19, Permute: true, Directed: true}, false},
		{spec("rmat", func(s *Spec) { s.Scale, s.EdgeFactor, s.Undirected, s.A, s.B, s.C = 8, 4, true, 0.45, 0.15, 0.15 }),
			RMAT{Scale: 8, EdgeFactor: 4, A: 0.45, B: 0.15, C: 0.15}, true},
		// Kronecker is Graph500 whatever a, b, c, permute and undirected say.
		{spec("kronecker", func(s *Spec) { s.Scale, s.EdgeFactor, s.A, s.Permute = 8, 4, 0.9, false }),
			RMAT{Scale: 8, EdgeFactor: 4, A: 0.57, B: 0.19, C: 0.19, Permute: true}, true},
		{spec("er", func(s *Spec) { s.N, s.M = 300, 900 }), ErdosRenyi{N: 300, M: 900}, true},
		{spec("er", func(s *Spec) { s.N, s.M, s.Directed = 300, 900, true }), ErdosRenyi{N: 300, M: 900, Directed: true}, false},
		{spec("ws", func(s *Spec) { s.N, s.K, s.P = 300, 6, 0.2 }), WattsStrogatz{N: 300, K: 6, P: 0.2}, true},
		{spec("ba", func(s *Spec) { s.N, s.Attach = 300, 3 }), BarabasiAlbert{N: 300, M: 3}, true},
		{spec("road", func(s *Spec) { s.Rows, s.Cols, s.Remove, s.Shortcuts = 10, 20, 0.2, 5 }),
			Road{Rows: 10, Cols: 20, RemoveProb: 0.2, Shortcuts: 5}, true},
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Min, s.Max = 400, "uniform", 2, 8 }),
			Configuration{N: 400, Degree: Uniform{Min: 2, Max: 8}}, true},
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Lambda = 400, "exponential", 0.2 }),
			Configuration{N: 400, Degree: Exponential{Lambda: 0.2}}, true},
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Mu, s.Sigma = 400, "normal", 10, 2 }),
			Configuration{N: 400, Degree: Normal{Mu: 10, Sigma: 2}}, true},
		// Min 0 becomes 1 for a power law, as in "graph gen".
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Alpha, s.Max = 400, "powerlaw", 2.2, 50 }),
			Configuration{N: 400, Degree: PowerLaw{Alpha: 2.2, Min: 1, Max: 50}}, true},
		{spec("holmekim", func(s *Spec) { s.N, s.Attach, s.Triad = 300, 3, 0.7 }), HolmeKim{N: 300, M: 3, Triad: 0.7}, true},
		{spec("forestfire", func(s *Spec) { s.N = 3000 }), ForestFire{N: 3000, Fwd: 0.35, Bwd: 0.32}, false},
		// Min 0 becomes 1, as for config.
		{spec("sbm", func(s *Spec) { s.N, s.Blocks, s.Mix, s.Alpha, s.Max = 4000, 8, 0.3, 2.2, 50 }),
			SBM{N: 4000, Blocks: 8, Mix: 0.3, Degree: PowerLaw{Alpha: 2.2, Min: 1, Max: 50}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.s.String(), func(t *testing.T) {
			g, err := tt.s.Generator()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, tt.want) {
				t.Fatalf("Generator() = %#v, want %#v", g, tt.want)
			}
			if g.Undirected() != tt.undirected {
				t.Errorf("Undirected() = %v, want %v", g.Undirected(), tt.undirected)
			}
			el, err := g.Generate(3, nil)
			if err != nil {
				t.Fatal(err)
			}
			csr, err := graph.Build(el, graph.BuildOptions{Undirected: g.Undirected(), DropSelfLoops: true, DropDuplicates: true})
			if err != nil {
				t.Fatal(err)
			}
			if int64(csr.NumVertices()) != tt.s.EstimatedVertices() {
				t.Errorf("%d vertices, EstimatedVertices says %d", csr.NumVertices(), tt.s.EstimatedVertices())
			}
			// The estimate counts edges before duplicates and self-loops
			// are dropped; these graphs lose at most a third of them (R-MAT
			// scale 8 the most).
			est, got := float64(tt.s.EstimatedEdges()), float64(csr.NumEdges())
			if got > est*1.05 || got < est*0.6 {
				t.Errorf("%v edges, EstimatedEdges says %v", got, est)
			}
			if (tt.s.Target() != nil) != (tt.s.Kind == "config") {
				t.Errorf("Target() = %v for kind %s", tt.s.Target(), tt.s.Kind)
			}
		})
	}
}

// TestSpecGeneratorErrors checks that every bad spec names its field.
func TestSpecGeneratorErrors(t *testing.T) {
	tests := []struct {
		s       Spec
		field   string
		message string
	}{
		{spec("", nil), "kind", "a kind is required"},
		{spec("lattice", nil), "kind", `unknown kind "lattice"`},
		{spec("rmat", func(s *Spec) { s.Scale = 0 }), "scale", "RMAT.Scale = 0"},
		{spec("kronecker", func(s *Spec) { s.Scale = 32 }), "scale", "RMAT.Scale = 32"},
		{spec("rmat", func(s *Spec) { s.EdgeFactor = 0 }), "edge_factor", "RMAT.EdgeFactor = 0"},
		{spec("rmat", func(s *Spec) { s.B = -0.1 }), "b", "RMAT.B = -0.1"},
		{spec("rmat", func(s *Spec) { s.A = 0.9 }), "a+b+c", "must be at most 1"},
		{spec("er", func(s *Spec) { s.N = 0 }), "n", "ErdosRenyi.N = 0"},
		{spec("er", func(s *Spec) { s.N, s.M = 10, 46 }), "m", "exceeds the 45 possible edges"},
		{spec("ws", func(s *Spec) { s.K = 7 }), "k", "must be even"},
		{spec("ws", func(s *Spec) { s.P = 2 }), "p", "WattsStrogatz.P = 2"},
		{spec("ba", func(s *Spec) { s.Attach = 0 }), "attach", "BarabasiAlbert.M = 0"},
		{spec("ba", func(s *Spec) { s.N, s.Attach = 4, 4 }), "n", "BarabasiAlbert.N = 4"},
		{spec("road", func(s *Spec) { s.Rows = 0 }), "rows", "Road.Rows = 0"},
		{spec("road", func(s *Spec) { s.Cols = -1 }), "cols", "Road.Cols = -1"},
		{spec("road", func(s *Spec) { s.Rows, s.Cols = 1<<20, 1<<20 }), "rows·cols", "must be at most"},
		{spec("road", func(s *Spec) { s.Remove = 1.5 }), "remove", "Road.RemoveProb = 1.5"},
		{spec("road", func(s *Spec) { s.Shortcuts = -2 }), "shortcuts", "Road.Shortcuts = -2"},
		{spec("config", nil), "dist", "config needs a target distribution"},
		{spec("config", func(s *Spec) { s.Dist = "zipf" }), "dist", `unknown distribution "zipf"`},
		{spec("config", func(s *Spec) { s.Dist, s.N = "uniform", 1 }), "n", "Configuration.N = 1"},
		{spec("config", func(s *Spec) { s.Dist, s.Min = "uniform", -1 }), "min", "Uniform.Min = -1"},
		{spec("config", func(s *Spec) { s.Dist, s.Min, s.Max = "uniform", 5, 4 }), "max", "Uniform.Max = 4"},
		{spec("config", func(s *Spec) { s.Dist, s.Lambda = "exponential", 0 }), "lambda", "Exponential.Lambda = 0"},
		{spec("config", func(s *Spec) { s.Dist, s.Mu = "normal", math.NaN() }), "mu", "Normal.Mu = NaN"},
		{spec("config", func(s *Spec) { s.Dist, s.Sigma = "normal", 0 }), "sigma", "Normal.Sigma = 0"},
		{spec("config", func(s *Spec) { s.Dist, s.Alpha = "powerlaw", 1 }), "alpha", "PowerLaw.Alpha = 1"},
		// A target with mass above n-1 cannot be a simple graph's degrees.
		{spec("config", func(s *Spec) { s.Dist, s.N = "uniform", 50 }), "dist", "of its mass above N-1"},
		{spec("holmekim", func(s *Spec) { s.N = -5 }), "n", "HolmeKim.N = -5"},
		{spec("holmekim", func(s *Spec) { s.Attach = 0 }), "attach", "HolmeKim.M = 0"},
		{spec("holmekim", func(s *Spec) { s.Triad = 1.2 }), "triad", "HolmeKim.Triad = 1.2"},
		{spec("forestfire", func(s *Spec) { s.N = 1 }), "n", "ForestFire.N = 1"},
		{spec("forestfire", func(s *Spec) { s.Fwd = 1 }), "fwd", "ForestFire.Fwd = 1"},
		{spec("forestfire", func(s *Spec) { s.Bwd = -0.1 }), "bwd", "ForestFire.Bwd = -0.1"},
		{spec("sbm", func(s *Spec) { s.Blocks = 1 }), "blocks", "SBM.Blocks = 1"},
		{spec("sbm", func(s *Spec) { s.Mix = 1.5 }), "mix", "SBM.Mix = 1.5"},
		{spec("sbm", func(s *Spec) { s.Alpha = 0.9 }), "alpha", "PowerLaw.Alpha = 0.9"},
		{spec("sbm", func(s *Spec) { s.N, s.Blocks = 50, 4 }), "max", "SBM.Max = 100"},
	}
	for _, tt := range tests {
		t.Run(tt.field+"/"+tt.message, func(t *testing.T) {
			_, err := tt.s.Generator()
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SpecError", err)
			}
			if se.Field != tt.field {
				t.Errorf("Field = %q, want %q (%v)", se.Field, tt.field, err)
			}
			if !strings.HasPrefix(err.Error(), tt.field+": ") || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q, want %q: ...%s...", err, tt.field, tt.message)
			}
			if tt.s.EstimatedEdges() != 0 {
				t.Errorf("EstimatedEdges() = %d for an invalid spec", tt.s.EstimatedEdges())
			}
		})
	}
}

// TestSpecEstimatedEdges checks the closed forms.
func TestSpecEstimatedEdges(t *testing.T) {
	tests := []struct {
		s    Spec
		want int64
	}{
		{spec("rmat", func(s *Spec) { s.Scale, s.EdgeFactor = 20, 16 }), 16 << 20},
		{spec("rmat", func(s *Spec) { s.Scale, s.EdgeFactor, s.Undirected = 20, 16, true }), 32 << 20},
		{spec("kronecker", func(s *Spec) { s.Scale, s.EdgeFactor = 22, 8 }), 64 << 20},
		{spec("er", func(s *Spec) { s.N, s.M = 1000, 4000 }), 8000},
		{spec("er", func(s *Spec) { s.N, s.M, s.Directed = 1000, 4000, true }), 4000},
		{spec("ws", func(s *Spec) { s.N, s.K = 1000, 8 }), 8000},
		{spec("ba", func(s *Spec) { s.N, s.Attach = 1000, 4 }), 2 * 996 * 4},
		{spec("holmekim", func(s *Spec) { s.N, s.Attach = 1000, 4 }), 2 * 996 * 4},
		// Power law on 1..2 has mean 1.2 (below); 4 equal blocks: Σ(s_b/N)² =
		// 1/4, so 1000·1.2·(1 - 0.4/4) = 1080.
		{spec("sbm", func(s *Spec) { s.N, s.Blocks, s.Mix, s.Alpha, s.Min, s.Max = 1000, 4, 0.4, 2, 1, 2 }), 1080},
		// 2·((10·9 + 9·10)·0.5 + 3) = 186.
		{spec("road", func(s *Spec) { s.Rows, s.Cols, s.Remove, s.Shortcuts = 10, 10, 0.5, 3 }), 186},
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Min, s.Max = 1000, "uniform", 0, 100 }), 50000},
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Mu, s.Sigma = 1000, "normal", 50, 10 }), 50000},
		// e^0.05/(e^0.1-1) = 1.051271/0.105171 = 9.9958 (the Exponential doc
		// comment: 10.0 to 3 digits).
		{spec("config", func(s *Spec) { s.N, s.Dist = 1000, "exponential" }), 9996},
		// Σ_{k=1}^{2} k·k^-2 / Σ k^-2 = (1 + 1/2)/(1 + 1/4) = 1.2.
		{spec("config", func(s *Spec) { s.N, s.Dist, s.Alpha, s.Min, s.Max = 1000, "powerlaw", 2, 1, 2 }), 1200},
	}
	for _, tt := range tests {
		if got := tt.s.EstimatedEdges(); got != tt.want {
			t.Errorf("%v: EstimatedEdges() = %d, want %d", tt.s, got, tt.want)
		}
	}
}

// TestSpecFields checks that every field a kind reads is a YAML key of Spec,
// and the Params and String renderings.
func TestSpecFields(t *testing.T) {
	for _, kind := range Kinds() {
		fields, ok := KindFields(kind)
		if !ok || len(fields) == 0 {
			t.Fatalf("KindFields(%q) = %v, %v", kind, fields, ok)
		}
		for _, f := range fields {
			if _, ok := specFieldIndex[f]; !ok {
				t.Errorf("kind %s reads %q, which is no Spec field", kind, f)
			}
		}
	}
	if _, ok := KindFields("lattice"); ok {
		t.Error("KindFields accepts an unknown kind")
	}
	s := spec("config", func(s *Spec) { s.N, s.Dist, s.Mu, s.Sigma = 100, "normal", 8, 2 })
	if got, want := fmt.Sprint(s.Fields()), "[n dist mu sigma]"; got != want {
		t.Errorf("Fields() = %s, want %s", got, want)
	}
	if got, want := s.String(), "config n=100 dist=normal mu=8 sigma=2"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	want := map[string]any{"kind": "config", "n": 100, "dist": "normal", "mu": 8.0, "sigma": 2.0}
	if got := s.Params(); !reflect.DeepEqual(got, want) {
		t.Errorf("Params() = %v, want %v", got, want)
	}
	r := spec("rmat", nil)
	if got, want := r.String(), "rmat scale=16 edge_factor=16 a=0.57 b=0.19 c=0.19 permute=false undirected=false"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// A Spec is what a corpus file or "graph gen" gives; Generator validates it.
func ExampleSpec_Generator() {
	s := DefaultSpec
	s.Kind, s.Scale, s.EdgeFactor = "kronecker", 10, 8
	g, err := s.Generator()
	if err != nil {
		fmt.Println(err)
		return
	}
	el, _ := g.Generate(1, nil)
	fmt.Println(s, "->", el.Len(), "listed edges, undirected:", g.Undirected(), "estimate:", s.EstimatedEdges())

	s.Kind, s.N, s.Dist = "config", 1000, "powerlaw"
	s.Alpha = 0.5
	_, err = s.Generator()
	fmt.Println(err)
	// Output:
	// kronecker scale=10 edge_factor=8 -> 8192 listed edges, undirected: true estimate: 16384
	// alpha: gen: Configuration.Degree: gen: PowerLaw.Alpha = 0.5: must be finite and greater than 1
}

// TestMeanDegreePowerLawTail checks the integrated tail against the exact
// sum, and that a huge Max costs no time.
func TestMeanDegreePowerLawTail(t *testing.T) {
	d := PowerLaw{Alpha: 2.1, Min: 2, Max: 300000}
	var num, den float64
	for k := d.Min; k <= d.Max; k++ {
		w := math.Pow(float64(k), -d.Alpha)
		num += float64(k) * w
		den += w
	}
	exact, got := num/den, meanDegree(d, math.MaxInt64)
	if math.Abs(got-exact) > 1e-4*exact {
		t.Errorf("mean %v, exact %v", got, exact)
	}
	// Degrees above n-1 are redrawn: the mean stops there.
	if capped := meanDegree(d, 1000); capped >= exact {
		t.Errorf("mean capped at degree 1000 is %v, not below %v", capped, exact)
	}
	s := spec("config", func(s *Spec) { s.N, s.Dist, s.Alpha, s.Min, s.Max = 100, "powerlaw", 40, 1, math.MaxInt64 })
	if e := s.EstimatedEdges(); e != 100 {
		t.Errorf("EstimatedEdges() = %d, want 100 (almost every degree is 1)", e)
	}
}

func TestCheckFields(t *testing.T) {
	tests := []struct {
		kind      string
		set       []string
		wantField string // the field a *FieldError names; "" for none
		unknown   bool
	}{
		{kind: "rmat", set: []string{"scale", "edge_factor", "a", "undirected"}},
		{kind: "er", set: nil},
		{kind: "er", set: []string{"n", "edge_factor", "k"}, wantField: "edge_factor"}, // the first bad one
		{kind: "kronecker", set: []string{"scale", "a"}, wantField: "a"},               // Graph500 fixes a, b, c
		{kind: "config", set: []string{"n", "dist", "lambda", "mu"}},                   // every target's fields count
		{kind: "config", set: []string{"k"}, wantField: "k"},
		{kind: "bogus", set: []string{"n"}, unknown: true},
		{kind: "", unknown: true},
	}
	for _, tt := range tests {
		fields, err := CheckFields(tt.kind, tt.set)
		switch {
		case tt.unknown:
			if !errors.Is(err, ErrUnknownKind) || fields != nil {
				t.Errorf("CheckFields(%q): %v, %v; want ErrUnknownKind", tt.kind, fields, err)
			}
			continue
		case tt.wantField != "":
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tt.wantField || fe.Kind != tt.kind {
				t.Errorf("CheckFields(%q, %v) = %v, want a *FieldError for %s", tt.kind, tt.set, err, tt.wantField)
			}
		case err != nil:
			t.Errorf("CheckFields(%q, %v) = %v", tt.kind, tt.set, err)
		}
		if want, _ := KindFields(tt.kind); !reflect.DeepEqual(fields, want) {
			t.Errorf("CheckFields(%q) fields = %v, want %v", tt.kind, fields, want)
		}
	}
}
