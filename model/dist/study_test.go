package dist

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// NewWeakScaling holds Table's rows of each run at each level, in the
// order of the levels, and its JSON is each run's fields plus "rows".
func TestNewWeakScaling(t *testing.T) {
	runs, err := RunGraph500s([]int{8, 9}, []int{1, 2, 4}, DefaultRootRule, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws := NewWeakScaling(runs, []int{3, -1})
	if len(ws.Runs) != 2 || len(ws.Rows()) != 2*2*3 {
		t.Fatalf("%d runs, %d rows; want 2 and 12", len(ws.Runs), len(ws.Rows()))
	}
	for i, r := range runs {
		want := append(Table(r, 3), Table(r, -1)...)
		if !reflect.DeepEqual(ws.Runs[i].Rows, want) {
			t.Errorf("scale %d: rows differ from Table's", r.Scale)
		}
	}
	data, err := json.Marshal(ws.Runs)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"graph", "scale", "root", "root_rule", "build_seconds", "rows"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, data)
		}
	}
	var scales []int
	// Root 100 exists at SCALE 7 (128 vertices), not at 6.
	if _, err := RunGraph500s([]int{7, 6}, []int{2}, "100", func(r *Run) { scales = append(scales, r.Scale) }); err == nil ||
		!strings.Contains(err.Error(), "scale 6") || !reflect.DeepEqual(scales, []int{7}) {
		t.Errorf("scale 6: err %v, done for %v", err, scales)
	}
}

// SeedPattern lists every pair of every level with sort-unique's bytes,
// and the seed's messages beside those of the same (level, src, dst).
func TestSeedPattern(t *testing.T) {
	run := smallRun(t, 10, []int{4})
	m := SeedPattern(run, 4)
	v := run.Volumes[0]
	if len(m.Rows) != len(v.Levels)*4*3 || m.Graph != run.Graph || m.Root != run.Root {
		t.Fatalf("%d rows, want %d", len(m.Rows), len(v.Levels)*12)
	}
	seeded := 0
	for _, r := range m.Rows {
		if want := 4 * v.Levels[r.Level-1].Sent(r.Src, r.Dst, true); r.Bytes != want {
			t.Errorf("%+v: bytes want %d", r, want)
		}
		ratio, ok := r.Ratio()
		if ok {
			seeded++
			if math.Abs(ratio*r.SeedBytes-float64(r.Bytes)) > 1e-6*float64(r.Bytes) {
				t.Errorf("%+v: ratio %g", r, ratio)
			}
		} else if r.SeedPrinted != "-" {
			t.Errorf("%+v: printed without bytes", r)
		}
	}
	if seeded == 0 {
		t.Error("no row beside a seed message")
	}
}

// BytesPerLevel is TotalSent times the id size, and sort-unique never
// sends more.
func TestBytesPerLevel(t *testing.T) {
	v := smallRun(t, 9, []int{4}).Volumes[0]
	raw, unique := BytesPerLevel(v, 4)
	for i := range v.Levels {
		if raw[i] != 4*v.Levels[i].TotalSent(false) || unique[i] != 4*v.Levels[i].TotalSent(true) || unique[i] > raw[i] {
			t.Errorf("level %d: raw %d unique %d", v.Levels[i].Level, raw[i], unique[i])
		}
	}
}

// AtScale sorts the rank counts and gives NaN for none; Passed needs
// messages, all equal, and the hash.
func TestTimeReportSharesAndPassed(t *testing.T) {
	rep := TimeReport{Levels: 4, Within: 3, LevelsAtScale: map[int]int{4: 2, 2: 5, 8: 0}, WithinAtScale: map[int]int{4: 1, 2: 5}}
	got := rep.AtScale()
	if len(got) != 3 || got[0].Ranks != 2 || got[1].Ranks != 4 || got[2].Ranks != 8 ||
		got[0].SharePct != 100 || got[1].SharePct != 50 || !math.IsNaN(got[2].SharePct) || rep.SharePct() != 75 {
		t.Errorf("AtScale %+v, share %g", got, rep.SharePct())
	}
	for _, c := range []struct {
		res  CheckResult
		want bool
	}{
		{CheckResult{Messages: 3, Equal: 3, HashEqual: true}, true},
		{CheckResult{Messages: 3, Equal: 2, HashEqual: true}, false},
		{CheckResult{Messages: 3, Equal: 3}, false},
		{CheckResult{HashEqual: true}, false},
	} {
		if c.res.Passed() != c.want {
			t.Errorf("%+v: Passed %v", c.res, !c.want)
		}
	}
}
