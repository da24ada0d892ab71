// Package porttest builds a measurement store holding two platforms for
// tests: a few graphs of the embedded H100 sweep, ingested once as they
// were measured (dataset h100) and once relabelled as a second GPU
// (dataset h200) whose memory-bound implementations run Factor times
// faster, everything else unchanged.
package porttest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels/measured"
)

// First is the embedded sweep's device name; Second the synthetic GPU's.
const (
	First  = "NVIDIA H100 80GB HBM3"
	Second = "NVIDIA H200 (synthetic)"
)

// Factor is the synthetic GPU's speedup of the memory-bound
// implementations: about the H200's bandwidth over the H100's (4.8 / 3.35
// TB/s by the datasheets, 1.43).
const Factor = 1.4

// Graphs are the graphs of the fixture: eight of the sweep's 4096-vertex
// graphs, five roots each, so forty inputs.
var Graphs = []string{"ba-s12-m16", "cfg-exp-s12", "cfg-normal-s12", "er-s12-e16", "er-s12-e4", "kron-s12-e16", "rmat-s12-e8", "ws-s12-k8-p0.1"}

// MemoryBound says whether the synthetic GPU speeds impl up by Factor: the
// four edge-list families, which read the whole edge array at every level.
func MemoryBound(impl string) bool {
	base, _, _ := strings.Cut(impl, "/")
	return strings.HasSuffix(base, "edge-list")
}

// timeKeys are the JSON-lines keys holding times.
var timeKeys = []string{"min_ns", "median_ns", "mean_ns", "max_ns", "stddev_ns",
	"wall_min_ns", "wall_median_ns", "wall_mean_ns", "wall_max_ns", "wall_stddev_ns"}

// Build writes the store dir/two.db and returns its path: Graphs' runner
// files from the embedded sweep, with its manifest, as dataset h100, and
// the same files relabelled as Second with the times of MemoryBound
// implementations divided by Factor, as dataset h200.
func Build(dir string) (string, error) {
	src, err := measured.Dir()
	if err != nil {
		return "", err
	}
	man, err := store.LoadManifest(filepath.Join(src, "manifest.json"))
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "two.db")
	db, err := store.Open(path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	second := filepath.Join(dir, "h200")
	if err := os.MkdirAll(second, 0o755); err != nil {
		return "", err
	}
	for _, g := range Graphs {
		file := filepath.Join(src, g+".jsonl.gz")
		if _, err := db.IngestRunnerJSONL(file, "h100", man); err != nil {
			return "", err
		}
		out := filepath.Join(second, g+".jsonl")
		if err := relabel(file, out); err != nil {
			return "", err
		}
		if _, err := db.IngestRunnerJSONL(out, "h200", man); err != nil {
			return "", err
		}
	}
	return path, db.Close()
}

// relabel writes in's lines to out with the device named Second and the
// times of MemoryBound implementations divided by Factor.
func relabel(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		var typ, impl string
		json.Unmarshal(line["type"], &typ)
		json.Unmarshal(line["impl"], &impl)
		if typ == "device" {
			line["name"], _ = json.Marshal(Second)
		}
		if (typ == "level" || typ == "total") && MemoryBound(impl) {
			for _, k := range timeKeys {
				if raw, ok := line[k]; ok {
					v, err := strconv.ParseFloat(string(raw), 64)
					if err != nil {
						return fmt.Errorf("%s: %s: %w", in, k, err)
					}
					line[k] = json.RawMessage(strconv.FormatFloat(v/Factor, 'g', -1, 64))
				}
			}
		}
		b, err := json.Marshal(line)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// Machine writes dir/h200-synthetic.yaml: the embedded h100.yaml renamed,
// with its peak and measured read bandwidths multiplied by Factor, and
// returns its path.
func Machine(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(), "model", "machine", "machines", "h100.yaml"))
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "name: "):
			line = "name: h200-synthetic\n"
		case strings.HasPrefix(trimmed, "peak_bandwidth:"):
			line = fmt.Sprintf("  peak_bandwidth: %.4g TB/s\n", 3.352*Factor) // h100.yaml's 3.352 TB/s
		case strings.HasPrefix(trimmed, "read_bandwidth:"):
			line = fmt.Sprintf("  read_bandwidth: %.4g TB/s\n", 3.065*Factor) // h100.yaml's 3.065 TB/s
		}
		out.WriteString(line)
	}
	path := filepath.Join(dir, "h200-synthetic.yaml")
	return path, os.WriteFile(path, []byte(out.String()), 0o644)
}

// moduleRoot is the directory holding go.mod, from this file's package
// directory (tests run in their package's directory).
func moduleRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
