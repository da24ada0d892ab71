package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDistBadInput: bad flags and graphs name the flag or the key at
// fault, return an error (exit 1 in main) and never panic.
func TestDistBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte(`{"alpha": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := "kronecker:scale=6"
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--procs", []string{g}},
		{"--procs", []string{g, "--procs", "0"}},
		{"--procs", []string{g, "--procs", "-3"}},
		{"--procs", []string{g, "--procs", "abc"}},
		{"--procs", []string{g, "--procs", "2.5"}},
		{"--procs", []string{g, "--procs", "100000"}},
		{"--id-bytes", []string{g, "--procs", "2", "--id-bytes", "0"}},
		{"--root", []string{g, "--procs", "2", "--root", "nope"}},
		{"--root", []string{g, "--procs", "2", "--root", "64"}},
		{"--alltoall", []string{g, "--procs", "2", "--alltoall", filepath.Join(dir, "missing.json")}},
		{"--alltoall", []string{g, "--procs", "2", "--alltoall", junk}},
		{"--machine", []string{g, "--procs", "2", "--machine", "h100"}},
		{"--json", []string{g, "--procs", "2", "--json", "--csv"}},
		{"scale", []string{"kronecker:scale=x", "--procs", "2"}},
		{"volts", []string{"kronecker:volts=3", "--procs", "2"}},
		{"missing.txt", []string{filepath.Join(dir, "missing.txt"), "--procs", "2"}},
		{"argument", []string{"--procs", "2"}},
		{"--scales", []string{"table", "--scales", "3-1"}},
		{"--scales", []string{"table", "--scales", "40"}},
		{"--procs", []string{"table", "--scales", "5", "--procs", "1,0"}},
		{"--level", []string{"table", "--scales", "5", "--level", "top"}},
		{"--predict-procs", []string{"table", "--scales", "5", "--procs", "1,2", "--predictions", filepath.Join(dir, "p.csv"), "--predict-procs", "3"}},
		{"--scale", []string{"messages", "--scale", "zero"}},
		{"-o", []string{"predict", "--scales", "5"}},
		{"--procs", []string{"predict", "--scales", "5", "--procs", "x", "-o", "-"}},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"model", "dist"}, c.args...)
		err := run(&stdout, &stderr, args)
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %q does not name %s", c.args, err, c.want)
		}
	}
}

func TestDistCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"model", "dist", "kronecker:scale=10", "--procs", "4", "--sort-unique", "--pairs"}); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{"4 processes, owner(v) = v mod 4", "with sort-unique, 4 bytes per vertex id", "nlfs_su_max", "level  src  dst", "times need a measured all-to-all"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// JSON: the same volumes, and with a synthetic all-to-all, times.
	dir := t.TempDir()
	a2a := filepath.Join(dir, "a2a.jsonl")
	var b strings.Builder
	b.WriteString(`{"type":"alltoall_device","gpu":"synthetic","nccl":"0.0.0","date":"2026-11-26","command":"test"}` + "\n")
	for s := int64(1024); s <= 1<<26; s *= 4 {
		fmt.Fprintf(&b, `{"type":"alltoall","ranks":4,"bytes_per_pair":%d,"median_us":%g}`+"\n", s, 10+3*float64(s)/1e5)
	}
	if err := os.WriteFile(a2a, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "kronecker:scale=10", "--procs", "4", "--sort-unique", "--json", "--alltoall", a2a}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Graph    string `json:"graph"`
		Procs    int    `json:"procs"`
		Timed    bool   `json:"timed"`
		TotalMs  float64
		AllToAll struct {
			AlphaUs float64 `json:"alpha_us"`
			BetaGBs float64 `json:"beta_gb_s"`
		} `json:"alltoall"`
		Levels []struct {
			SentBytes int64    `json:"sent_bytes"`
			CommMs    *float64 `json:"comm_ms"`
		} `json:"levels"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Procs != 4 || !got.Timed || len(got.Levels) == 0 || got.Levels[0].CommMs == nil {
		t.Errorf("JSON %+v", got)
	}
	// α = 10 µs, 1/β = 1e-5 µs per byte: β = 100 GB/s.
	if d := got.AllToAll.AlphaUs - 10; d > 1e-6 || d < -1e-6 || got.AllToAll.BetaGBs < 99.99 || got.AllToAll.BetaGBs > 100.01 {
		t.Errorf("fit α %g β %g, want 10 and 100", got.AllToAll.AlphaUs, got.AllToAll.BetaGBs)
	}
	// One process sends nothing.
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "kronecker:scale=8", "--procs", "1", "--csv"}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n")[1:] {
		if f := strings.Split(line, ","); f[5] != "0" || f[6] != "0" {
			t.Errorf("P=1 sends: %s", line)
		}
	}
}

func TestDistTableAndPredict(t *testing.T) {
	var stdout, stderr bytes.Buffer
	p := filepath.Join(t.TempDir(), "p.csv")
	if err := run(&stdout, &stderr, []string{"model", "dist", "table", "--scales", "8-9", "--procs", "1,2,4", "--predictions", p, "--predict-procs", "2,4"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 1+2*2*3 {
		t.Errorf("%d lines, want a header and 12 rows:\n%s", n, stdout.String())
	}
	data, err := os.ReadFile(p)
	if err != nil || !strings.HasPrefix(string(data), "# graphperf-dist-predictions/1") || strings.Count(string(data), "# graph scale=") != 2 {
		t.Errorf("predictions file: %v\n%.300s", err, data)
	}
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "predict", "--scales", "8-9", "--procs", "2,4", "-o", "-"}); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(data) {
		t.Error("predict and table --predictions write different files for the same runs")
	}
}

// TestDistCheck writes the rank files dist_bfs.cu would print for the
// predicted volumes (from "model dist --pairs --json") and checks them, then
// changes one message.
func TestDistCheck(t *testing.T) {
	dir := t.TempDir()
	pred := filepath.Join(dir, "p.csv")
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"model", "dist", "predict", "--scales", "9", "--procs", "2", "-o", pred}); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "kronecker:scale=9", "--procs", "2", "--sort-unique", "--pairs", "--json"}); err != nil {
		t.Fatal(err)
	}
	var pr struct {
		Root      uint32 `json:"root"`
		DepthHash string `json:"depth_hash"`
		Levels    []struct {
			Level int `json:"level"`
		} `json:"levels"`
		Pairs []struct {
			Level, Src, Dst int
			Vertices        int64
		} `json:"pairs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &pr); err != nil {
		t.Fatal(err)
	}
	write := func(delta int64) string {
		d := t.TempDir()
		for r := range 2 {
			var b strings.Builder
			for _, l := range pr.Levels {
				sent := []int64{0, 0}
				for _, p := range pr.Pairs {
					if p.Level == l.Level && p.Src == r {
						sent[p.Dst] = p.Vertices
					}
				}
				if r == 1 && l.Level == 2 {
					sent[0] += delta
				}
				fmt.Fprintf(&b, `{"type":"dist_level","rank":%d,"ranks":2,"rep":0,"level":%d,"sent_vertices":[%d,%d]}`+"\n", r, l.Level, sent[0], sent[1])
			}
			if r == 0 {
				fmt.Fprintf(&b, `{"type":"dist_total","ranks":2,"root":%d,"depth_hash":"%s"}`+"\n", pr.Root, pr.DepthHash)
			}
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("rank%d.jsonl", r)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "check", "--predictions", pred, write(0)}); err != nil {
		t.Fatalf("exact run: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "depth hash and root equal: true") {
		t.Errorf("output: %s", stdout.String())
	}
	stdout.Reset()
	err := run(&stdout, &stderr, []string{"model", "dist", "check", "--predictions", pred, write(5)})
	if err == nil || !strings.Contains(stdout.String(), "measured") {
		t.Errorf("perturbed run: err %v\n%s", err, stdout.String())
	}
	if err := run(&stdout, &stderr, []string{"model", "dist", "check", write(0)}); err == nil || !strings.Contains(err.Error(), "--predictions") {
		t.Errorf("no --predictions: %v", err)
	}
}

// model dist times on the committed H100 runs: the table, the summary, the
// JSON, and its errors.
func TestModelDistTimes(t *testing.T) {
	base := filepath.Join("..", "..", "kernels", "measured", "dist", "h100-x2")
	a2a := filepath.Join(base, "alltoall.jsonl")
	calib := filepath.Join(base, "s20-p2") + "," + filepath.Join(base, "s21-p2")
	scored := filepath.Join(base, "s22-p2")
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"model", "dist", "times", "--alltoall", a2a, "--calibrate", calib, scored}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"pred_total_ms", "kernel time: ", "2 ranks, SCALE >= 22: ", "levels within +-25 %"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	if err := run(&stdout, &stderr, []string{"model", "dist", "times", "--json", "--alltoall", a2a, scored}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct {
			Levels []struct {
				PredTotalMs float64 `json:"pred_total_ms"`
				TotalMs     float64 `json:"total_ms"`
			} `json:"levels"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Runs) != 1 || len(rep.Runs[0].Levels) != 7 {
		t.Fatalf("json: %v, %+v", err, rep)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{scored}, "--alltoall"},
		{[]string{"--alltoall", a2a}, "want at least 1 argument"},
		{[]string{"--alltoall", a2a, filepath.Join(base, "nope")}, "no rank*.jsonl"},
		{[]string{"--alltoall", a2a, "--calibrate", scored, scored}, "both calibrated on and scored"},
		{[]string{"--alltoall", filepath.Join(base, "s22-p2", "rank0.jsonl"), scored}, "--alltoall"},
	} {
		err := run(&stdout, &stderr, append([]string{"model", "dist", "times"}, c.args...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want one naming %q", c.args, err, c.want)
		}
	}
}
