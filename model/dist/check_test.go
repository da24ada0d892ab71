package dist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFakeRun writes what dist_bfs.cu prints for v (repetition 0 and 1,
// sort-unique volumes), as its rank*.jsonl files, with one message changed
// by delta when delta != 0.
func writeFakeRun(t *testing.T, dir string, v *Volumes, delta int64) {
	t.Helper()
	for r := range v.Procs {
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"type":"dist_device","rank":%d,"ranks":%d}`+"\n", r, v.Procs)
		for rep := range 2 {
			for i, l := range v.Levels {
				sent := make([]int64, v.Procs)
				for q := range v.Procs {
					sent[q] = l.Sent(r, q, true)
				}
				if delta != 0 && r == 0 && i == 1 && rep == 0 {
					sent[1] += delta
				}
				line, _ := json.Marshal(map[string]any{"type": "dist_level", "rank": r, "ranks": v.Procs, "rep": rep, "level": l.Level,
					"frontier": l.Procs[r].Frontier, "nlfs": l.Procs[r].EdgesScanned, "nlfs_unique": l.Procs[r].NLFSUnique,
					"kernel_ms": 0.1, "comm_ms": 0.2, "sent_vertices": sent})
				b.Write(append(line, '\n'))
			}
		}
		if r == 0 {
			fmt.Fprintf(&b, `{"type":"dist_total","ranks":%d,"root":%d,"reached":%d,"depth_hash":"%016x","verified":true,"ok":true}`+"\n",
				v.Procs, v.Root, v.Reached, v.DepthHash)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("rank%d.jsonl", r)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheckRun(t *testing.T) {
	run := smallRun(t, 9, []int{2, 4})
	var pb bytes.Buffer
	if err := WritePredictions(&pb, []*Run{run}, 4); err != nil {
		t.Fatal(err)
	}
	graphs, pairs, err := ReadPredictions(&pb)
	if err != nil {
		t.Fatal(err)
	}
	for _, delta := range []int64{0, 3} {
		dir := t.TempDir()
		v := run.Volumes[1] // 4 processes
		writeFakeRun(t, dir, v, delta)
		levels, total, err := ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		res := Check(levels, total, graphs[0], pairs, true)
		want := len(v.Levels) * 4 * 3
		if res.Ranks != 4 || res.Messages != want || !res.HashEqual {
			t.Fatalf("delta %d: %+v", delta, res)
		}
		if delta == 0 && (res.Equal != want || len(res.Mismatches) != 0) {
			t.Errorf("exact run: %d of %d equal, %v", res.Equal, want, res.Mismatches)
		}
		if delta != 0 && (len(res.Mismatches) != 1 || res.Mismatches[0].Measured-res.Mismatches[0].Predicted != delta) {
			t.Errorf("perturbed run: mismatches %+v", res.Mismatches)
		}
		// Raw volumes differ from unique ones somewhere on this graph.
		if raw := Check(levels, total, graphs[0], pairs, false); raw.Equal == want {
			t.Error("a sort-unique run matched the raw predictions everywhere")
		}
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "rank0.jsonl"), []byte(`{"type":"dist_level","rank":3,"ranks":2,"level":1,"sent_vertices":[0,1]}`+"\n"), 0o644)
	if _, _, err := ReadRun(bad); err == nil || !strings.Contains(err.Error(), "rank0.jsonl:1:") {
		t.Errorf("bad rank: %v", err)
	}
	if _, _, err := ReadRun(t.TempDir()); err == nil {
		t.Error("empty directory: want an error")
	}
}
