package dist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTimedRun writes the rank*.jsonl of a sort-unique run of v in which
// every rank's kernels take fixedUs + KernelBytes/gbs and every exchange
// commMs, over reps repetitions.
func writeTimedRun(t *testing.T, dir string, v *Volumes, fixedUs, gbs, commMs float64, reps int) {
	t.Helper()
	for r := range v.Procs {
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"type":"dist_device","rank":%d,"ranks":%d,"vertices":%d,"edges":%d,"root":%d,"sort_unique":true}`+"\n",
			r, v.Procs, v.Vertices, v.Edges, v.Root)
		for rep := range reps {
			for i := range v.Levels {
				l := &v.Levels[i]
				sent := make([]int64, v.Procs)
				for q := range v.Procs {
					sent[q] = l.Sent(r, q, true)
				}
				ms := (fixedUs*1e3 + KernelBytes(v, l, r, true)/gbs) / 1e6
				line, _ := json.Marshal(map[string]any{"type": "dist_level", "rank": r, "ranks": v.Procs, "rep": rep, "level": l.Level,
					"frontier": l.Procs[r].Frontier, "nlfs": l.Procs[r].EdgesScanned, "nlfs_unique": l.Procs[r].NLFSUnique,
					"discovered": l.Procs[r].Discovered, "kernel_ms": ms, "comm_ms": commMs, "sent_vertices": sent})
				b.Write(append(line, '\n'))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("rank%d.jsonl", r)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The run's own counts give back the traversal's Volumes (the sort-unique
// side), and a kernel fit on runs made with a known fixed cost and rate
// recovers them.
func TestRunVolumesAndKernelFit(t *testing.T) {
	run := smallRun(t, 10, []int{2, 4})
	for _, v := range run.Volumes {
		dir := t.TempDir()
		writeTimedRun(t, dir, v, 120, 900, 0.05, 3)
		rd, err := ReadRunData(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := rd.Volumes(0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Levels) != len(v.Levels) {
			t.Fatalf("%d procs: %d levels, want %d", v.Procs, len(got.Levels), len(v.Levels))
		}
		for i := range v.Levels {
			for p := range v.Procs {
				if got.Levels[i].Procs[p] != v.Levels[i].Procs[p] {
					t.Errorf("%d procs level %d proc %d: %+v, want %+v", v.Procs, i+1, p, got.Levels[i].Procs[p], v.Levels[i].Procs[p])
				}
				for q := range v.Procs {
					if got.Levels[i].Unique[p][q] != v.Levels[i].Unique[p][q] {
						t.Errorf("%d procs level %d unique[%d][%d] = %d, want %d", v.Procs, i+1, p, q, got.Levels[i].Unique[p][q], v.Levels[i].Unique[p][q])
					}
				}
				if a, b := KernelBytes(got, &got.Levels[i], p, true), KernelBytes(v, &v.Levels[i], p, true); a != b {
					t.Errorf("%d procs level %d proc %d: KernelBytes %g, want %g", v.Procs, i+1, p, a, b)
				}
			}
		}
		f, err := FitKernel([]*RunData{rd})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.FixedUs-120) > 0.01 || math.Abs(f.GBs-900)/900 > 1e-6 || f.MaxRelResidual > 1e-6 {
			t.Errorf("%d procs: fit %+v, want 120 µs and 900 GB/s exactly", v.Procs, f)
		}
	}
}

func TestCheckTimes(t *testing.T) {
	run := smallRun(t, 10, []int{2})
	v := run.Volumes[0]
	calib, scored := t.TempDir(), t.TempDir()
	writeTimedRun(t, calib, v, 100, 1000, 0.05, 2)
	writeTimedRun(t, scored, v, 100, 1000, 0.05, 3)
	a := &AllToAll{Fits: []AllToAllFit{{Ranks: 2, AlphaUs: 25, BetaGBs: 100}}}
	read := func(d string) *RunData {
		rd, err := ReadRunData(d)
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
	c, s := read(calib), read(scored)
	if _, err := CheckTimes([]*RunData{s}, []*RunData{read(scored)}, Options{AllToAll: a}, 0); err == nil || !strings.Contains(err.Error(), "both calibrated on and scored") {
		t.Errorf("a run calibrated on and scored: err %v", err)
	}
	rep, err := CheckTimes([]*RunData{s}, []*RunData{c}, Options{AllToAll: a}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kernel == nil || len(rep.Runs) != 1 || rep.Levels != len(v.Levels) {
		t.Fatalf("report %+v", rep)
	}
	for _, r := range rep.Runs[0].Rows {
		// Kernels exact; the measured exchange (0.05 ms) against two
		// exchanges of 25 µs + bytes/100 GB/s.
		if math.Abs(r.KernelErrPct) > 1e-6 {
			t.Errorf("level %d: kernel error %.3g %%", r.Level, r.KernelErrPct)
		}
		if r.PredCommMs < 0.05 || r.PredCommMs > 0.06 {
			t.Errorf("level %d: predicted exchange %.4g ms, want 0.05 plus bytes", r.Level, r.PredCommMs)
		}
		want := math.Abs(r.ErrPct) <= 25
		if r.WithinTolerance != want {
			t.Errorf("level %d: within %v at %.1f %%", r.Level, r.WithinTolerance, r.ErrPct)
		}
	}
	// Without calibration and without a machine there are no times.
	if _, err := CheckTimes([]*RunData{s}, nil, Options{AllToAll: a}, 0); err == nil {
		t.Error("no machine and no calibration: want an error")
	}
}

func TestReadRunDataErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRunData(dir); err == nil || !strings.Contains(err.Error(), "no rank*.jsonl") {
		t.Errorf("empty dir: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "rank0.jsonl"), []byte(`{"type":"dist_level","rank":0,"ranks":1,"rep":0,"level":1,"sent_vertices":[0]}`+"\n"), 0o644)
	if _, err := ReadRunData(dir); err == nil || !strings.Contains(err.Error(), "no dist_device line") {
		t.Errorf("no device line: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "rank0.jsonl"), []byte(`{"type":"dist_device","rank":0,"ranks":1,"vertices":4}`+"\n{oops\n"), 0o644)
	if _, err := ReadRunData(dir); err == nil || !strings.Contains(err.Error(), "rank0.jsonl:2") {
		t.Errorf("bad line: %v", err)
	}
}

// The measured H100 runs (kernels/measured/dist): the kernel term fitted on
// the 2-GPU SCALE 20 and 21 runs, scored on the 2-GPU SCALE 22-25 runs of
// the same machine. Issue 18's target is 80 % of the levels within ±25 %;
// measured 2026-11-26: 25 of 29 (and 0 of 29 with the machine file's
// bandwidth bound, the model committed before the runs).
func TestMeasuredDistTimes(t *testing.T) {
	base := filepath.Join("..", "..", "kernels", "measured", "dist", "h100-x2")
	a, err := LoadAllToAll(filepath.Join(base, "alltoall.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var calib, scored []*RunData
	for s := 20; s <= 25; s++ {
		rd, err := ReadRunData(filepath.Join(base, fmt.Sprintf("s%d-p2", s)))
		if err != nil {
			t.Fatal(err)
		}
		if s <= 21 {
			calib = append(calib, rd)
		} else {
			scored = append(scored, rd)
		}
	}
	rep, err := CheckTimes(scored, calib, Options{AllToAll: a}, 22)
	if err != nil {
		t.Fatal(err)
	}
	if rep.LevelsAtScale[2] != 29 {
		t.Fatalf("%d levels at SCALE >= 22, want 29", rep.LevelsAtScale[2])
	}
	if share := float64(rep.WithinAtScale[2]) / float64(rep.LevelsAtScale[2]); share < 0.8 {
		t.Errorf("%d of %d levels within ±25 %% (%.0f %%): below issue 18's 80 %%", rep.WithinAtScale[2], rep.LevelsAtScale[2], 100*share)
	}
	t.Logf("kernel %.1f µs + bytes / %.0f GB/s; %d of %d levels within ±25 %%", rep.Kernel.FixedUs, rep.Kernel.GBs, rep.WithinAtScale[2], rep.LevelsAtScale[2])
}
