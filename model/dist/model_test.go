package dist

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
)

func smallRun(t *testing.T, scale int, procs []int) *Run {
	t.Helper()
	r, err := RunGraph500(scale, procs, DefaultRootRule)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestModelVolumesOnly(t *testing.T) {
	run := smallRun(t, 10, []int{4})
	pr, err := Model(run.Volumes[0], Options{SortUnique: true})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Timed || pr.TotalMs != nil || len(pr.Warnings) != 1 || !strings.Contains(pr.Warnings[0], "--alltoall") {
		t.Fatalf("untimed prediction: %+v", pr.Warnings)
	}
	var sum int64
	for _, p := range pr.Pairs {
		if p.Bytes != 4*p.Vertices || p.Src == p.Dst {
			t.Fatalf("pair %+v", p)
		}
		sum += p.Bytes
	}
	if sum != pr.SentBytes {
		t.Errorf("pairs sum to %d bytes, total %d", sum, pr.SentBytes)
	}
	raw, err := Model(run.Volumes[0], Options{IDBytes: 8})
	if err != nil {
		t.Fatal(err)
	}
	if raw.SentBytes < 2*pr.SentBytes {
		t.Errorf("8-byte raw volume %d < twice the 4-byte sort-unique volume %d", raw.SentBytes, pr.SentBytes)
	}
	if _, err := Model(run.Volumes[0], Options{IDBytes: -1}); err == nil {
		t.Error("negative id size: want an error")
	}
}

// TestModelTimes checks the time formula on a synthetic all-to-all:
// comm = 2α + 16(P-1)/β + max(out, in)/β per level.
func TestModelTimes(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	a := &AllToAll{Format: AllToAllFormat, Provenance: Provenance{GPU: "synthetic", NCCL: "0", Date: "2026-11-26"},
		Fits: []AllToAllFit{{Ranks: 2, AlphaUs: 10, BetaGBs: 100}}}
	run := smallRun(t, 10, []int{1, 2, 4})
	for _, v := range run.Volumes {
		pr, err := Model(v, Options{SortUnique: true, Machine: m, AllToAll: a})
		if err != nil {
			t.Fatal(err)
		}
		if !pr.Timed || pr.TotalMs == nil || pr.GTEPS == nil {
			t.Fatalf("P=%d: not timed", v.Procs)
		}
		extrapolated := slices.ContainsFunc(pr.Warnings, func(w string) bool { return strings.Contains(w, "extrapolated") })
		if extrapolated != (v.Procs == 4) {
			t.Errorf("P=%d: extrapolation warning %v", v.Procs, extrapolated)
		}
		for _, r := range pr.Rows {
			want := 0.0
			if v.Procs > 1 {
				want = (2*10 + float64(16*(v.Procs-1))/1e5 + float64(max(r.MaxOutBytes, r.MaxInBytes))/1e5) / 1e3
			}
			if math.Abs(*r.CommMs-want) > 1e-12 {
				t.Errorf("P=%d level %d: comm %g ms, want %g", v.Procs, r.Level, *r.CommMs, want)
			}
			if *r.KernelMs <= 0 || math.Abs(*r.TotalMs-*r.KernelMs-*r.CommMs) > 1e-12 {
				t.Errorf("P=%d level %d: kernel %g total %g", v.Procs, r.Level, *r.KernelMs, *r.TotalMs)
			}
		}
	}
}

// TestPredictionsRoundTrip writes a small predictions file and reads it
// back; the committed file's format is checked in TestCommittedPredictions.
func TestPredictionsRoundTrip(t *testing.T) {
	run := smallRun(t, 9, []int{2, 4})
	var b bytes.Buffer
	if err := WritePredictions(&b, []*Run{run}, 4); err != nil {
		t.Fatal(err)
	}
	graphs, pairs, err := ReadPredictions(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(graphs) != 1 || graphs[0].Root != run.Root || graphs[0].Levels != len(run.Volumes[0].Levels) {
		t.Fatalf("graphs %+v", graphs)
	}
	want := 0
	for _, v := range run.Volumes {
		want += len(v.Levels) * v.Procs * (v.Procs - 1)
	}
	if len(pairs) != want {
		t.Errorf("%d pairs, want %d", len(pairs), want)
	}
	for _, bad := range []string{
		"",
		"# graphperf-dist-predictions/1\nscale,procs\n",
		"# graphperf-dist-predictions/1\nscale,procs,level,src,dst,raw,unique,bytes_su\n20,2,1,0,0,5,5,20\n",
		"# graphperf-dist-predictions/1\nscale,procs,level,src,dst,raw,unique,bytes_su\n20,2,1,0,1,5,6,24\n",
		"# graphperf-dist-predictions/1\nscale,procs,level,src,dst,raw,unique,bytes_su\n20,2,1,0,1,x,6,24\n",
		"# graphperf-dist-predictions/1\n# graph scale=20\n",
	} {
		if _, _, err := ReadPredictions(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

// TestCommittedPredictions checks the committed files of issue 18's
// predictions (kernels/measured/dist/predictions-sS.csv, one per Graph500
// scale): their format, 2, 4 and 8 processes in each, and regenerates the
// SCALE 20 file exactly (in long mode; about 10 s).
func TestCommittedPredictions(t *testing.T) {
	files, err := filepath.Glob("../../kernels/measured/dist/predictions-s*.csv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed predictions: %v", err)
	}
	var s20 []byte
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		graphs, pairs, err := ReadPredictions(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(graphs) != 1 || !strings.HasSuffix(path, fmt.Sprintf("-s%d.csv", graphs[0].Scale)) {
			t.Fatalf("%s: graphs %+v: want one, of the file's scale", path, graphs)
		}
		procs := map[int]bool{}
		for _, p := range pairs {
			procs[p.Procs] = true
			if p.BytesSU != 4*p.Unique || p.Scale != graphs[0].Scale || p.Level > graphs[0].Levels {
				t.Fatalf("%s: %+v does not fit the graph line %+v", path, p, graphs[0])
			}
		}
		for _, P := range []int{2, 4, 8} {
			if !procs[P] {
				t.Errorf("%s: no predictions for %d processes", path, P)
			}
		}
		if graphs[0].Scale == 20 {
			s20 = data
		}
	}
	if s20 == nil {
		t.Fatal("no SCALE 20 predictions")
	}
	if testing.Short() {
		t.Skip("regenerating SCALE 20 takes about 10 s; skipped in short mode")
	}
	run := smallRun(t, 20, []int{1, 2, 4, 8, 16, 32, 64})
	var b bytes.Buffer
	if err := WritePredictions(&b, SubsetRuns([]*Run{run}, []int{2, 4, 8}), 4); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), s20) {
		t.Error("SCALE 20: the regenerated predictions differ from the committed file")
	}
}

func TestTableSeedRows(t *testing.T) {
	run := smallRun(t, 10, []int{1, 2, 4})
	rows := Table(run, 0)
	if len(rows) != 3 || rows[0].Level != SeedLevel {
		t.Fatalf("%+v", rows)
	}
	if rows[0].NLFS0 != rows[0].NLFSMax || float64(rows[0].NLFSMax) != rows[0].NLFSMean {
		t.Errorf("P=1: proc 0, max and mean differ: %+v", rows[0])
	}
	for _, r := range rows {
		if r.Unique0 > r.NLFS0 || r.Cut < 0 || r.Cut >= 1 {
			t.Errorf("%+v", r)
		}
	}
	// The seed lists 3 messages at level 1, 12 at levels 2-5 and 11 at level 6.
	if len(SeedMessages) != 3+12*4+11 || SeedMessages[0].Bytes() != 64 || SeedMessages[15].Bytes() != 1e6 {
		t.Errorf("seed messages: %d, %v", len(SeedMessages), SeedMessages[15])
	}
}

func TestParseRange(t *testing.T) {
	got, err := ParseRange("--scales", "21-23,25")
	if err != nil || !slices.Equal(got, []int{21, 22, 23, 25}) {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", "a", "3-1", "1-b", "1,,2"} {
		if _, err := ParseRange("--scales", bad); err == nil || !strings.HasPrefix(err.Error(), "--scales: ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
