package dist

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// RunLevel is one "dist_level" line of kernels/cuda/dist_bfs.cu: one rank's
// share of one level of one timed repetition.
type RunLevel struct {
	Rank         int     `json:"rank"`
	Ranks        int     `json:"ranks"`
	Rep          int     `json:"rep"`
	Level        int     `json:"level"`
	Frontier     int64   `json:"frontier"`
	NLFS         int64   `json:"nlfs"`
	NLFSUnique   int64   `json:"nlfs_unique"`
	Received     int64   `json:"received"`
	Discovered   int64   `json:"discovered"`
	KernelMs     float64 `json:"kernel_ms"`
	CountsMs     float64 `json:"counts_ms"`
	VerticesMs   float64 `json:"vertices_ms"`
	CommMs       float64 `json:"comm_ms"`
	SentVertices []int64 `json:"sent_vertices"`
	SentBytes    []int64 `json:"sent_bytes"`
}

// RunTotal is rank 0's "dist_total" line.
type RunTotal struct {
	Ranks     int    `json:"ranks"`
	Root      uint32 `json:"root"`
	Reached   int64  `json:"reached"`
	DepthHash string `json:"depth_hash"`
	Verified  bool   `json:"verified"`
	OK        bool   `json:"ok"`
}

// ReadRun reads the rank*.jsonl files of one dist_bfs.cu run directory.
// Errors name the file and line.
func ReadRun(dir string) ([]RunLevel, *RunTotal, error) {
	files, err := filepath.Glob(filepath.Join(dir, "rank*.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s: no rank*.jsonl files", dir)
	}
	sort.Strings(files)
	var levels []RunLevel
	var total *RunTotal
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		ls, t, err := readRunFile(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%w", path, err)
		}
		levels = append(levels, ls...)
		if t != nil {
			total = t
		}
	}
	return levels, total, nil
}

func readRunFile(r io.Reader) ([]RunLevel, *RunTotal, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var levels []RunLevel
	var total *RunTotal
	for line := 1; sc.Scan(); line++ {
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &probe); err != nil {
			return nil, nil, fmt.Errorf("%d: %w", line, err)
		}
		switch probe.Type {
		case "dist_level":
			var l RunLevel
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return nil, nil, fmt.Errorf("%d: %w", line, err)
			}
			if l.Ranks < 1 || l.Rank < 0 || l.Rank >= l.Ranks || l.Level < 1 || len(l.SentVertices) != l.Ranks {
				return nil, nil, fmt.Errorf("%d: rank %d of %d, level %d, %d sent_vertices: not a level line of a %d-rank run", line, l.Rank, l.Ranks, l.Level, len(l.SentVertices), l.Ranks)
			}
			levels = append(levels, l)
		case "dist_total":
			var t RunTotal
			if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
				return nil, nil, fmt.Errorf("%d: %w", line, err)
			}
			total = &t
		}
	}
	return levels, total, sc.Err()
}

// Mismatch is one message whose measured size differs from the prediction
// (Measured or Predicted -1: absent on that side).
type Mismatch struct {
	Level, Src, Dst     int
	Measured, Predicted int64
}

// CheckResult compares one run with the predictions of its graph.
type CheckResult struct {
	Ranks      int        `json:"ranks"`
	Messages   int        `json:"messages"` // (level, src, dst) compared
	Equal      int        `json:"equal"`
	Mismatches []Mismatch `json:"mismatches"`
	HashEqual  bool       `json:"hash_equal"` // the run's depth hash is the graph line's
	Warnings   []string   `json:"warnings"`
}

// Check compares the vertices every rank sent to every other at every
// level of repetition 0 (sent_vertices) with the predictions (unique, or
// raw when sortUnique is false) of the same graph and rank count: issue
// 18's volume target is equality. O(messages).
func Check(levels []RunLevel, total *RunTotal, g PredictedGraph, pairs []PredictedPair, sortUnique bool) CheckResult {
	res := CheckResult{Warnings: []string{}}
	type key struct{ level, src, dst int }
	measured := map[key]int64{}
	for _, l := range levels {
		if l.Rep != 0 {
			continue
		}
		res.Ranks = l.Ranks
		for q, v := range l.SentVertices {
			if q != l.Rank {
				measured[key{l.Level, l.Rank, q}] = v
			}
		}
	}
	predicted := map[key]int64{}
	for _, p := range pairs {
		if p.Procs == res.Ranks && p.Scale == g.Scale {
			v := p.Unique
			if !sortUnique {
				v = p.Raw
			}
			predicted[key{p.Level, p.Src, p.Dst}] = v
		}
	}
	if len(predicted) == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no predictions for %d ranks on SCALE %d", res.Ranks, g.Scale))
	}
	keys := map[key]bool{}
	for k := range measured {
		keys[k] = true
	}
	for k := range predicted {
		keys[k] = true
	}
	var all []key
	for k := range keys {
		all = append(all, k)
	}
	slices.SortFunc(all, func(a, b key) int {
		if a.level != b.level {
			return a.level - b.level
		}
		if a.src != b.src {
			return a.src - b.src
		}
		return a.dst - b.dst
	})
	for _, k := range all {
		m, okM := measured[k]
		p, okP := predicted[k]
		if !okM {
			m = -1
		}
		if !okP {
			p = -1
		}
		res.Messages++
		if m == p {
			res.Equal++
		} else {
			res.Mismatches = append(res.Mismatches, Mismatch{k.level, k.src, k.dst, m, p})
		}
	}
	if total == nil {
		res.Warnings = append(res.Warnings, "no dist_total line: the depth hash is not checked")
	} else {
		res.HashEqual = total.DepthHash == g.DepthHash && total.Root == g.Root
	}
	return res
}
