package gen

import (
	"fmt"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/workload/graph"
)

// Summary describes a generated graph, as "graphperf graph gen" reports it
// (its JSON form is the command's --json output): what made it, its size
// and, for a target-degree kind (config), how well its out-degrees fit the
// target. Params, Output and Seconds are the caller's to fill: how it
// spells the parameters, where it wrote the graph ("" for nowhere), and how
// long generating and writing took.
type Summary struct {
	Kind     string     `json:"kind"`
	Params   string     `json:"params"`
	Seed     uint64     `json:"seed"`
	Output   string     `json:"output"`
	Vertices int        `json:"vertices"`
	Edges    int64      `json:"edges"`
	Directed bool       `json:"directed"`
	Seconds  float64    `json:"seconds"`
	KS       *KSSummary `json:"ks,omitempty"` // nil without a target
}

// KSSummary is the goodness of fit of a graph's degrees to a target
// distribution (seed 004 §5.3) in the form "graph gen --json" prints: the
// KS distance over Samples degrees and the table 5.1 critical value at each
// significance, keyed by the significance with two decimals ("0.05").
// Critical is empty for 35 samples or fewer, and RejectAt5 then false.
type KSSummary struct {
	Target    string             `json:"target"`
	Distance  float64            `json:"distance"`
	Samples   int                `json:"samples"`
	Critical  map[string]float64 `json:"critical"` // significance -> critical value, table 5.1
	RejectAt5 bool               `json:"reject_at_0.05"`
}

// Summarize returns the Summary of g, generated from spec with seed: kind,
// seed and size, and for a spec with a target (Spec.Target) the KS fit of
// g's out-degrees to it (FitDegrees, O(n log n)).
func Summarize(spec Spec, seed uint64, g *graph.CSR) Summary {
	s := Summary{Kind: spec.Kind, Seed: seed, Vertices: g.NumVertices(), Edges: g.NumEdges(), Directed: g.Directed}
	if target := spec.Target(); target != nil {
		ks := SummarizeFit(FitDegrees(g.OutDegrees(), target))
		s.KS = &ks
	}
	return s
}

// SummarizeFit returns fit as a KSSummary.
func SummarizeFit(fit GoodnessOfFit) KSSummary {
	ks := KSSummary{Target: fit.Target, Distance: fit.KS, Samples: fit.N, Critical: map[string]float64{}}
	for _, th := range fit.Critical {
		ks.Critical[significanceKey(th.Significance)] = th.Value
	}
	if th, ok := fit.At(0.05); ok {
		ks.RejectAt5 = th.Rejected
	}
	return ks
}

// significanceKey is a significance as KSSummary.Critical keys it.
func significanceKey(significance float64) string { return fmt.Sprintf("%.2f", significance) }

// Table is the "ks" table "graph gen" prints: Thresholds, one row per
// significance with its critical value and whether the distance exceeds it
// (seed 004 table 5.1); no rows for 35 samples or fewer.
func (k KSSummary) Table() table.Table {
	t := table.Table{Name: "ks",
		Title: fmt.Sprintf("KS distance %.4f of the degrees against %s: critical values (seed 004 table 5.1)", k.Distance, k.Target)}
	t.AddColumns(table.NumCol("significance", ""), table.NumCol("critical_value", ""), table.BoolCol("rejected"))
	for _, th := range k.Thresholds() {
		t.Add(fmt.Sprintf("%.2f", th.Significance), fmt.Sprintf("%.4f", th.Value), fmt.Sprint(th.Rejected))
	}
	return t
}

// Thresholds returns the critical values of k in the order of
// CriticalValues (highest significance first), each with whether the
// distance exceeds it; none for 35 samples or fewer.
func (k KSSummary) Thresholds() []Threshold {
	var out []Threshold
	for _, cv := range CriticalValues {
		v, ok := k.Critical[significanceKey(cv.Significance)]
		if !ok {
			continue
		}
		out = append(out, Threshold{Significance: cv.Significance, Value: v, Rejected: k.Distance > v})
	}
	return out
}
