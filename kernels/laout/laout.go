// Package laout reads what the linear-algebra runner graphperf-la prints
// (kernels/cuda/LINALG.md): its "total" JSON lines, the names of its
// implementations, and the names of the seed-001 sweep graphs of
// kernels/corpus/h100-la.yaml. It sits with the runners' readers so that
// both the analyses (analysis/la) and the time model (model/latime) read
// the measurement format without the model importing an analysis.
package laout

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Total is a graphperf-la "total" line (kernels/cuda/LINALG.md), the keys
// the analyses and the time model read.
type Total struct {
	Graph          string  `json:"graph"`
	GraphHash      string  `json:"graph_hash"`
	N              int64   `json:"n"`
	M              int64   `json:"m"`
	Root           *int64  `json:"root,omitempty"`
	Impl           string  `json:"impl"`
	Algorithm      string  `json:"algorithm"`
	Model          string  `json:"model"`
	Variant        string  `json:"variant"`
	Iterations     int64   `json:"iterations"`
	Reached        int64   `json:"reached"`
	Verified       bool    `json:"verified"`
	KernelLaunches int64   `json:"kernel_launches"`
	RowsVisited    uint64  `json:"rows_visited"`
	Changed        uint64  `json:"changed"`
	Reps           int     `json:"reps"`
	MedianNs       float64 `json:"median_ns"`
	MinNs          float64 `json:"min_ns"`
}

// ErrNoTotals is a runner output without total lines.
var ErrNoTotals = errors.New("la: no total lines")

// ReadTotals reads the total lines of graphperf-la's JSON lines in file
// order; other line types are skipped. A line that is not JSON is an error
// naming file and line.
func ReadTotals(r io.Reader, file string) ([]Total, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []Total
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if head.Type != "total" {
			continue
		}
		var t Total
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if t.Impl == "" || t.Graph == "" {
			return nil, fmt.Errorf("%s:%d: total line without graph or impl", file, line)
		}
		// The runner names a graph by its file's base name; the corpus by
		// the name without ".gpg" (sweep coordinates are parsed from it).
		t.Graph = strings.TrimSuffix(t.Graph, ".gpg")
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", file, ErrNoTotals)
	}
	return out, nil
}

// The implementations of graphperf-la the analyses and the time model
// name (kernels/cuda/LINALG.md).
const (
	BFSPush  = "bfs-push"
	BFSPull  = "bfs-pull"
	Worklist = "sssp-worklist"
	// Baseline is the unoptimised LinAlg SSSP, which seed 001's table 9
	// normalises by.
	Baseline = "sssp-la"
)

// OptimisedSSSP are seed 001's optimised LinAlg SSSP variants (§6.1.1,
// table 9).
var OptimisedSSSP = []string{"sssp-v1-atomic", "sssp-v1-shared", "sssp-v2", "sssp-v3"}

var sweepName = regexp.MustCompile(`^la-(b1|t10)-(ws|rmat)-d([0-9.]+)-(p|a)([0-9.]+)$`)

// ParseSweepName returns the sweep coordinates of a graph name, ok false
// for a graph of no sweep.
func ParseSweepName(name string) (sweep, family string, density float64, param string, value float64, ok bool) {
	m := sweepName.FindStringSubmatch(name)
	if m == nil {
		return "", "", 0, "", 0, false
	}
	d, err1 := strconv.ParseFloat(m[3], 64)
	v, err2 := strconv.ParseFloat(m[5], 64)
	if err1 != nil || err2 != nil {
		return "", "", 0, "", 0, false
	}
	return m[1], m[2], d, m[4], v, true
}
