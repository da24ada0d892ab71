package kernels

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/workload/graph"
)

// RunTotal is one (implementation, root) of a runner call on one graph,
// its times in milliseconds, checked against the Go reference.
type RunTotal struct {
	Impl          string  `json:"impl"`
	Root          uint32  `json:"root"`
	Levels        int     `json:"levels"`
	Reached       int64   `json:"reached"`
	MedianMs      float64 `json:"median_ms"`
	MinMs         float64 `json:"min_ms"`
	MeanMs        float64 `json:"mean_ms"`
	MaxMs         float64 `json:"max_ms"`
	StddevMs      float64 `json:"stddev_ms"`
	WallMedianMs  float64 `json:"wall_median_ms"`
	DepthHash     string  `json:"depth_hash"`
	ReferenceHash string  `json:"reference_hash"`
	OK            bool    `json:"ok"`
}

// RunReport is what "graphperf bench run" reports: the graph, the device,
// the repetitions, whether every traversal agreed with the reference (the
// problems when not) and a RunTotal per (implementation, root).
type RunReport struct {
	Graph     string     `json:"graph"`
	Vertices  int64      `json:"vertices"`
	Edges     int64      `json:"edges"`
	Directed  bool       `json:"directed"`
	Device    string     `json:"device"`
	Reps      int        `json:"reps"`
	Warmup    int        `json:"warmup"`
	Validated bool       `json:"validated"`
	Problems  []string   `json:"problems"`
	Totals    []RunTotal `json:"totals"`
	// Roots is the number of roots run.
	Roots int `json:"-"`
}

// NewRunReport checks res, the output of one runner call on g (named
// name) from roots with reference depth hashes hashes (ReferenceHashes),
// against want (Validate), and converts its totals to milliseconds.
// mismatch says the runner exited with ErrMismatch: a problem when
// Validate found none. Problems lists the missing results, then the
// disagreements; it is never nil. Cost: one Validate and O(totals).
func NewRunReport(name string, g *graph.CSR, res *Results, roots []uint32, hashes []uint64, reps, warmup int, want Expect, mismatch bool) *RunReport {
	v := Validate(res, want)
	if mismatch && len(v.Problems) == 0 {
		v.Problems = append(v.Problems, "the runner exited with status 2: some result disagrees with its reference")
	}
	ref := map[uint32]string{}
	for i, r := range roots {
		ref[r] = FormatHash(hashes[i])
	}
	ms := func(ns float64) float64 { return ns / 1e6 }
	rows := make([]RunTotal, len(res.Totals))
	for i, t := range res.Totals {
		rows[i] = RunTotal{
			Impl: t.Impl, Root: t.Root, Levels: t.Levels, Reached: t.Reached,
			MedianMs: ms(t.MedianNs), MinMs: ms(t.MinNs), MeanMs: ms(t.MeanNs), MaxMs: ms(t.MaxNs), StddevMs: ms(t.StddevNs),
			WallMedianMs: ms(t.WallMedianNs), DepthHash: t.DepthHash, ReferenceHash: ref[t.Root],
			OK: t.DepthHash == ref[t.Root] && t.Verified,
		}
	}
	device := ""
	if res.Device != nil {
		device = res.Device.Name
	}
	return &RunReport{
		Graph: name, Vertices: int64(g.NumVertices()), Edges: g.NumEdges(), Directed: g.Directed,
		Device: device, Reps: reps, Warmup: warmup, Validated: v.OK(),
		Problems: append(append([]string{}, v.Missing...), v.Problems...), Totals: rows, Roots: len(roots),
	}
}

// Table is r's totals, a row per (implementation, root): levels, vertices
// reached, the median, min and max summed level time and the median wall
// time (ms), the depth hash and "ok" or "MISMATCH". Cost: O(totals).
func (r *RunReport) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("impl"), table.IntCol("root", "vertex"), table.IntCol("levels", "levels"), table.IntCol("reached", "vertices"),
		table.NumCol("median_ms", "ms"), table.NumCol("min_ms", "ms"), table.NumCol("max_ms", "ms"), table.NumCol("wall_median_ms", "ms"),
		table.TextCol("depth_hash"), table.TextCol("check"))
	for _, x := range r.Totals {
		check := "ok"
		if !x.OK {
			check = "MISMATCH"
		}
		t.Add(x.Impl, strconv.FormatUint(uint64(x.Root), 10), strconv.Itoa(x.Levels), strconv.FormatInt(x.Reached, 10),
			table.G6(x.MedianMs), table.G6(x.MinMs), table.G6(x.MaxMs), table.G6(x.WallMedianMs), x.DepthHash, check)
	}
	return t
}

// PlanTable is the plan of a sweep (Plan) as a table, a row per item: its
// number, name, source (the generator, or the file), estimated vertices
// ("-" for a file) and edges, roots, repetitions, implementations and
// "done" or "to measure"; with the number of items to measure and their
// estimated edges. Cost: O(items).
func PlanTable(items []PlanItem) (t table.Table, todo, edges int64) {
	t.AddColumns(table.IntCol("#", ""), table.TextCol("name"), table.TextCol("source"), table.IntCol("est_vertices", "vertices").OrMissing("-"),
		table.IntCol("est_edges", "edges"), table.IntCol("roots", ""), table.IntCol("reps", ""), table.TextCol("impls"), table.TextCol("status"))
	for i, it := range items {
		source, n := it.File, "-"
		if it.Gen != nil {
			source, n = it.Gen.String(), strconv.FormatInt(it.Gen.EstimatedVertices(), 10)
		}
		status := "to measure"
		if it.Done {
			status = "done"
		} else {
			todo++
			edges += it.Edges
		}
		t.Add(strconv.Itoa(i+1), it.Name, source, n, strconv.FormatInt(it.Edges, 10), strconv.Itoa(it.Roots), strconv.Itoa(it.Reps),
			strings.Join(it.Impls, ","), status)
	}
	return t, todo, edges
}

// MicrobenchJSON is a microbenchmark run as "graphperf bench microbench
// --json" prints it (keys in this order).
type MicrobenchJSON struct {
	Bandwidth    map[string]float64        `json:"bandwidth_gb_s"`
	Device       *Device                   `json:"device"`
	Latency      []LatencyPoint            `json:"latency"`
	Service      map[string][]ServicePoint `json:"service"`
	Instructions map[string]float64        `json:"warp_gips"`
}

// JSON is mb as MicrobenchJSON.
func (mb *Microbench) JSON() MicrobenchJSON {
	return MicrobenchJSON{Bandwidth: mb.Bandwidth, Device: mb.Device, Latency: mb.Latency, Service: mb.Service, Instructions: mb.Instructions}
}

// ServiceTable is mb's service-time curves, a row per class (sorted) and
// memory-level parallelism: latency (ns), service time S(m) (ns) and
// throughput (G transactions/s). Cost: O(points).
func (mb *Microbench) ServiceTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("class"), table.IntCol("mlp", "transactions in flight"), table.NumCol("latency_ns", "ns"), table.NumCol("service_ns", "ns"),
		table.NumCol("gtxn_s", "GTXN/s"))
	for _, class := range sortedKeys(mb.Service) {
		for _, p := range mb.Service[class] {
			t.Add(class, strconv.Itoa(p.MLP), table.G6(p.LatencyNs), table.G6(p.ServiceNs), table.G6(p.ThroughputGTxnS))
		}
	}
	return t
}

// LatencyTable is mb's pointer-chase latency, a row per working set (MB):
// cycles and ns per load. Cost: O(points).
func (mb *Microbench) LatencyTable() table.Table {
	var t table.Table
	t.AddColumns(table.NumCol("working_set_MB", "MiB"), table.NumCol("cycles", "cycles"), table.NumCol("ns", "ns"))
	for _, p := range mb.Latency {
		t.Add(table.G6(float64(p.WorkingSetBytes)/(1<<20)), table.G6(p.CyclesPerLoad), table.G6(p.NsPerLoad))
	}
	return t
}

// CeilingTable is mb's ceilings: bandwidths (TB/s) and warp instruction
// throughputs (GIPS), each sorted by name, 4 significant digits.
func (mb *Microbench) CeilingTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("ceiling"), table.TextUnitCol("value", "TB/s or GIPS"))
	for _, k := range sortedKeys(mb.Bandwidth) {
		t.Add(k+" bandwidth", fmt.Sprintf("%.4g TB/s", mb.Bandwidth[k]/1000))
	}
	for _, k := range sortedKeys(mb.Instructions) {
		t.Add(k+" warp instructions", fmt.Sprintf("%.4g GIPS", mb.Instructions[k]))
	}
	return t
}

// WriteMachineYAML writes the measured sections of a machine file
// (ceilings and service_curves) in the format model/machine reads: units
// inside the values, 4 significant digits, source naming the device and
// source (the file the run wrote or was read from).
func (mb *Microbench) WriteMachineYAML(w io.Writer, source string) error {
	src := fmt.Sprintf("measured on %s by graphperf-microbench, %s", mb.Device.Name, source)
	fmt.Fprintf(w, "ceilings:\n  source: %q\n", src)
	for _, k := range []struct{ kind, field string }{
		{"read", "read_bandwidth"}, {"write", "write_bandwidth"}, {"copy", "copy_bandwidth"}, {"l2_read", "l2_bandwidth"},
	} {
		if v, ok := mb.Bandwidth[k.kind]; ok {
			fmt.Fprintf(w, "  %s: %.4g TB/s\n", k.field, v/1000)
		}
	}
	if v, ok := mb.Instructions["ffma"]; ok {
		fmt.Fprintf(w, "  warp_instructions: %.4g GIPS\n", v)
	}
	if v, ok := mb.Instructions["iadd"]; ok {
		fmt.Fprintf(w, "  warp_instructions_integer: %.4g GIPS\n", v)
	}
	fmt.Fprintln(w, "service_curves:")
	for _, class := range sortedKeys(mb.Service) {
		fmt.Fprintf(w, "  - class: %s\n    source: %q\n    points:\n", class, src)
		for _, p := range mb.Service[class] {
			if _, err := fmt.Fprintf(w, "      - [%d, %.4g ns]\n", p.MLP, p.ServiceNs); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedKeys is m's keys in increasing order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
