package kernels

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// AlgorithmSwitch names a switching-BFS measurement in a manifest
// (GraphRecord.Algorithm) and in a switch sweep's jobs; a corpus does not
// ask for it: SweepOptions.Switch does.
const AlgorithmSwitch = "switch"

// ImplDOBFS is direction-optimizing BFS, the baseline a switching BFS
// must beat (issue 15).
const ImplDOBFS = "dobfs"

// SwitchImpls are the implementations a switch sweep runs per root, in
// one runner call: the switching BFS and, for a comparison measured in
// the same process, dobfs.
var SwitchImpls = []string{ImplSwitch, ImplDOBFS}

// SwitchOptions make a sweep measure the switching BFS (graphperf-bfs
// --impl switch,dobfs --decisions FILE; kernels/cuda/README.md "Switching
// BFS") instead of a corpus's implementations. Per graph of the corpus
// that asks for BFS, the sweep builds the graph and picks the roots as a
// BFS sweep does (props.RandomRoots(g, roots, seed), so the roots are a
// BFS sweep's of the same corpus entry), calls Decide, writes its
// decisions to RESULTS/NAME.decisions.txt, runs the runner with the
// entry's reps and warmup (the L2 flush on, the runner's default), checks
// every depth hash against the Go reference, and keeps the JSON lines as
// RESULTS/NAME.switch.jsonl.gz. Resuming, the time budget and the deadline
// are the sweep's.
type SwitchOptions struct {
	// Decide returns the decisions for g (called name) from roots, one
	// level line per (root, level), and what they predict.
	Decide func(g *graph.CSR, name string, roots []uint32) (*SwitchPlan, error)
}

func (o *SwitchOptions) check() error {
	if o.Decide == nil {
		return fmt.Errorf("kernels: a switch sweep needs a Decide function")
	}
	return nil
}

// SwitchPlan is what SwitchOptions.Decide returns for one graph.
type SwitchPlan struct {
	Decisions *Decisions
	// PredictedNs[i], when not nil, is the total the decisions predict for
	// the i-th root: the sum over its levels of the chosen implementation's
	// predicted time, conversions not counted.
	PredictedNs []float64
}

// SwitchRecord is what a manifest records of a switch measurement's
// decisions.
type SwitchRecord struct {
	Decisions     string    `json:"decisions"`      // the decision file in the results directory
	DecisionsHash string    `json:"decisions_hash"` // FNV-1a 64 of its bytes, as the runner reports it
	Source        string    `json:"source"`         // its source line
	PredictedNs   []float64 `json:"predicted_ns,omitempty"`
}

// DecisionsSuffix names a switch sweep's decision files:
// RESULTS/NAME.decisions.txt.
const DecisionsSuffix = ".decisions.txt"

// selectImpls returns the implementations a job runs.
func (s *sweep) selectImpls(g Graph, algorithm string) ([]string, error) {
	if algorithm == AlgorithmSwitch {
		return SwitchImpls, nil
	}
	return SelectImpls(g.Impls, s.universe[algorithm])
}

// measureSwitch makes g's graph, writes the decisions for its roots and
// runs the switching BFS and dobfs from them.
func (s *sweep) measureSwitch(ctx context.Context, j job) (*GraphRecord, error) {
	g := j.Graph
	t0 := time.Now()
	csr, rec, err := s.materialise(g)
	if err != nil {
		return nil, err
	}
	roots, err := props.RandomRoots(csr, g.Roots, g.Seed)
	if err != nil {
		return nil, err
	}
	plan, err := s.opt.Switch.Decide(csr, g.Name, roots)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", err)
	}
	if plan.PredictedNs != nil && len(plan.PredictedNs) != len(roots) {
		return nil, fmt.Errorf("decisions: %d predicted totals for %d roots", len(plan.PredictedNs), len(roots))
	}
	var b bytes.Buffer
	if _, err := plan.Decisions.WriteTo(&b); err != nil {
		return nil, err
	}
	decPath := filepath.Join(s.opt.ResultsDir, g.Name+DecisionsSuffix)
	if err := writeAtomic(decPath, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return nil, err
	}
	hashes := ReferenceHashes(csr, roots)
	rec.Algorithm = AlgorithmSwitch
	rec.N, rec.M, rec.Directed = int64(csr.NumVertices()), csr.NumEdges(), csr.Directed
	csr = nil // the runner reads the file; let the collector have it
	rec.Roots = roots
	rec.ReferenceHashes = make([]string, len(hashes))
	for i, h := range hashes {
		rec.ReferenceHashes[i] = FormatHash(h)
	}
	rec.Switch = &SwitchRecord{Decisions: filepath.Base(decPath), DecisionsHash: FormatHash(fnv1a64(b.Bytes())),
		Source: plan.Decisions.Source, PredictedNs: plan.PredictedNs}
	impls := SwitchCallImpls(plan.Decisions)
	run := func(log io.Writer, out string) error {
		return Runner{Path: s.opt.Runner, Stderr: log}.Run(ctx, RunOptions{
			Graph: s.gpgPath(g), Roots: roots, Impls: impls, Reps: g.Reps, Warmup: g.Warmup, Out: out,
			Args: []string{"--decisions", decPath},
		})
	}
	validate := func(res *Results) Validation {
		return Validate(res, Expect{N: rec.N, M: rec.M, Roots: roots, Hashes: hashes, Impls: impls})
	}
	out, err := s.runAndKeep(rec, g, AlgorithmSwitch, g.Name+"."+AlgorithmSwitch, t0, run, validate)
	if err != nil {
		os.Remove(decPath)
		return nil, err
	}
	out.Impls = impls
	return out, nil
}

// SwitchCallImpls are the implementations one switch measurement runs in
// its runner call: SwitchImpls, then every other implementation the
// decisions name (default included), sorted, so that the switch's picks
// are also timed alone in the same process: the offline Mix-and-Match of
// the same call, free of the day-to-day and call-to-call differences a
// separate sweep brings (docs/ACCURACY.md, "Mix-and-Match on the GPU").
func SwitchCallImpls(d *Decisions) []string {
	out := slices.Clone(SwitchImpls)
	var extra []string
	add := func(impl string) {
		if impl != "" && !slices.Contains(out, impl) && !slices.Contains(extra, impl) {
			extra = append(extra, impl)
		}
	}
	if d != nil {
		add(d.Default)
		for _, x := range d.Levels {
			add(x.Impl)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// fnv1a64 is FNV-1a 64 of b, the runner's decisions_hash.
func fnv1a64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}
