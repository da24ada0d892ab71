package kernels

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// DefaultMicrobench is where kernels/cuda/Makefile puts the microbenchmarks.
const DefaultMicrobench = "kernels/cuda/graphperf-microbench"

// Microbench is what graphperf-microbench measured (schema in
// kernels/cuda/MICROBENCH.md): the device, pointer-chase latency by working
// set, service time against memory-level parallelism per class (seed 000
// §6.5, figure 6), bandwidth ceilings and warp instruction throughput.
type Microbench struct {
	Device       *Device
	Latency      []LatencyPoint
	Service      map[string][]ServicePoint // by class: l2_hit, dram_row_hit, dram_row_miss
	Bandwidth    map[string]float64        // GB/s by kind: read, write, copy, l2_read
	Instructions map[string]float64        // warp GIPS by op: iadd, ffma
}

// LatencyPoint is one working-set size of the one-thread pointer chase.
type LatencyPoint struct {
	WorkingSetBytes int64   `json:"working_set_bytes"`
	CyclesPerLoad   float64 `json:"cycles_per_load"`
	NsPerLoad       float64 `json:"ns_per_load"`
}

// ServicePoint is one load of a service-time curve: with MLP requests in
// flight GPU-wide, each takes LatencyNs, and the server completes one every
// ServiceNs = LatencyNs / MLP (seed 000's S(m)).
type ServicePoint struct {
	MLP              int     `json:"mlp"`
	LatencyNs        float64 `json:"latency_ns"`
	ServiceNs        float64 `json:"service_ns"`
	ThroughputGTxnS  float64 `json:"throughput_gtxn_s"`
	CoalescedSectors int     `json:"coalesced_sectors"`
}

// ReadMicrobench parses graphperf-microbench's JSON lines; a malformed line is
// a *ParseError naming the file and line. The row-hit curve keeps only the
// points where a warp's 32 lanes read one 1 KB region together
// (coalesced_sectors == 32): below that the class is mostly row misses
// (MICROBENCH.md).
func ReadMicrobench(r io.Reader, name string) (*Microbench, error) {
	mb := &Microbench{Service: map[string][]ServicePoint{}, Bandwidth: map[string]float64{}, Instructions: map[string]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var head struct {
			Type  string  `json:"type"`
			Class string  `json:"class"`
			Kind  string  `json:"kind"`
			Op    string  `json:"op"`
			GBs   float64 `json:"gb_s"`
			GIPS  float64 `json:"warp_gips"`
		}
		if err := json.Unmarshal([]byte(text), &head); err != nil {
			return nil, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("not a JSON object: %v", err)}
		}
		var err error
		switch head.Type {
		case "device":
			mb.Device = new(Device)
			err = json.Unmarshal([]byte(text), mb.Device)
		case "latency":
			var p LatencyPoint
			if err = json.Unmarshal([]byte(text), &p); err == nil {
				mb.Latency = append(mb.Latency, p)
			}
		case "service":
			var p ServicePoint
			if err = json.Unmarshal([]byte(text), &p); err == nil {
				if p.MLP <= 0 || p.LatencyNs <= 0 {
					return nil, &ParseError{File: name, Line: line, Msg: "service point needs a positive mlp and latency_ns"}
				}
				if head.Class != "dram_row_hit" || p.CoalescedSectors == 32 {
					mb.Service[head.Class] = append(mb.Service[head.Class], p)
				}
			}
		case "bandwidth":
			mb.Bandwidth[head.Kind] = head.GBs
		case "instructions":
			mb.Instructions[head.Op] = head.GIPS
		}
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if mb.Device == nil {
		return nil, fmt.Errorf("%s: no device line: not graphperf-microbench output", name)
	}
	for _, pts := range mb.Service {
		sort.Slice(pts, func(i, j int) bool { return pts[i].MLP < pts[j].MLP })
	}
	return mb, nil
}

// ReadMicrobenchFile reads a microbenchmark output file.
func ReadMicrobenchFile(path string) (*Microbench, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMicrobench(f, path)
}

// RunMicrobench runs the microbenchmark binary, writing its JSON lines to out
// (created atomically) and its progress to stderr, and parses the result.
func RunMicrobench(binary, out string, quick bool, stderr io.Writer) (*Microbench, error) {
	if _, err := os.Stat(binary); err != nil {
		return nil, fmt.Errorf("%s: %w (graphperf bench build, or make -C kernels/cuda graphperf-microbench, makes it; it needs an NVIDIA GPU to run)", binary, err)
	}
	tmp := out + ".tmp"
	args := []string{"--out", tmp}
	if quick {
		args = append(args, "--quick")
	}
	cmd := exec.Command(binary, args...)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("%s: %w", filepath.Base(binary), err)
	}
	mb, err := ReadMicrobenchFile(tmp)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	return mb, os.Rename(tmp, out)
}
