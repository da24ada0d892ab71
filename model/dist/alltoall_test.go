package dist

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synthetic returns the points of T(s) = alpha + (P-1) s / beta at the
// microbenchmark's sizes, 1 KiB .. 256 MiB per pair, each time multiplied
// by 1 + noise·(-1)^i.
func synthetic(ranks int, alphaUs, betaGBs, noise float64) []Point {
	var pts []Point
	for i, s := 0, int64(1024); s <= 256<<20; i, s = i+1, s*2 {
		t := alphaUs + float64(ranks-1)*float64(s)/(betaGBs*1e3)
		pts = append(pts, Point{Ranks: ranks, BytesPerPair: s, MedianUs: t * (1 + noise*math.Pow(-1, float64(i)))})
	}
	return pts
}

func TestFitSynthetic(t *testing.T) {
	for _, c := range []struct {
		ranks         int
		alpha, beta   float64
		noise, relTol float64
	}{
		{2, 12, 150, 0, 1e-9}, // exact points: α and β recovered to rounding
		{4, 25, 80, 0, 1e-9},
		{8, 40, 40, 0.03, 0.05}, // ±3 % alternating noise: within 5 %
	} {
		f, err := Fit(c.ranks, synthetic(c.ranks, c.alpha, c.beta, c.noise))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.AlphaUs-c.alpha)/c.alpha > c.relTol || math.Abs(f.BetaGBs-c.beta)/c.beta > c.relTol {
			t.Errorf("%d ranks: α %.4g β %.4g, want %g %g within %g", c.ranks, f.AlphaUs, f.BetaGBs, c.alpha, c.beta, c.relTol)
		}
		if f.Points != 19 || f.MaxRelResidual > c.noise*1.2+1e-9 {
			t.Errorf("%d ranks: %d points, residual %g", c.ranks, f.Points, f.MaxRelResidual)
		}
	}
	if _, err := Fit(2, synthetic(2, 10, 100, 0)[:1]); err == nil {
		t.Error("one size: want an error")
	}
	if _, err := Fit(1, nil); err == nil {
		t.Error("one rank: want an error")
	}
	// Times that fall with size are not a latency-bandwidth curve.
	if _, err := Fit(2, []Point{{2, 1024, 100}, {2, 1 << 20, 50}}); err == nil {
		t.Error("decreasing times: want an error")
	}
}

// TestLoadBenchLines writes the microbenchmark's JSON lines for two rank
// counts from known α and β and loads them back.
func TestLoadBenchLines(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"alltoall_device","rank":0,"gpu":"synthetic","driver":"0","cuda":"0","nccl":"0.0.0","date":"2026-11-26","command":"test"}` + "\n")
	for _, p := range append(synthetic(2, 10, 100, 0), synthetic(4, 20, 50, 0)...) {
		fmt.Fprintf(&b, `{"type":"alltoall","ranks":%d,"bytes_per_pair":%d,"reps":20,"median_us":%.6f}`+"\n", p.Ranks, p.BytesPerPair, p.MedianUs)
	}
	path := filepath.Join(t.TempDir(), "a2a.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAllToAll(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Fits) != 2 || a.Provenance.GPU != "synthetic" {
		t.Fatalf("%+v", a)
	}
	f, warn, ok := a.For(4)
	if !ok || warn != "" || math.Abs(f.AlphaUs-20) > 1e-3 || math.Abs(f.BetaGBs-50) > 1e-3 {
		t.Errorf("For(4) = %+v %q %v", f, warn, ok)
	}
	if _, warn, _ := a.For(8); !strings.Contains(warn, "extrapolated") {
		t.Errorf("For(8) warning %q", warn)
	}
	// The fitted file round-trips through the file format.
	js, _ := json.Marshal(a)
	back, err := ParseAllToAll(js)
	if err != nil || len(back.Fits) != 2 {
		t.Errorf("round trip: %v", err)
	}
}

func TestParseAllToAllErrors(t *testing.T) {
	for name, text := range map[string]string{
		"empty":       "",
		"not json":    "alpha 3",
		"no gpu":      `{"format":"graphperf-alltoall/1","provenance":{"nccl":"2","date":"d"},"fits":[{"ranks":2,"alpha_us":1,"beta_gb_s":1}]}`,
		"bad format":  `{"format":"x","provenance":{"gpu":"g","nccl":"2","date":"d"},"fits":[{"ranks":2,"alpha_us":1,"beta_gb_s":1}]}`,
		"zero beta":   `{"format":"graphperf-alltoall/1","provenance":{"gpu":"g","nccl":"2","date":"d"},"fits":[{"ranks":2,"alpha_us":1,"beta_gb_s":0}]}`,
		"no fits":     `{"format":"graphperf-alltoall/1","provenance":{"gpu":"g","nccl":"2","date":"d"},"fits":[]}`,
		"unknown key": `{"format":"graphperf-alltoall/1","alpha":3,"provenance":{"gpu":"g","nccl":"2","date":"d"},"fits":[{"ranks":2,"alpha_us":1,"beta_gb_s":1}]}`,
		"bad line":    "{\"type\":\"alltoall\",\"ranks\":2,\"bytes_per_pair\":1024,\"median_us\":5}\n{\"type\":\"alltoall\",\"ranks\":1}\n",
		"one size":    "{\"type\":\"alltoall_device\",\"gpu\":\"g\",\"nccl\":\"2\",\"date\":\"d\"}\n{\"type\":\"alltoall\",\"ranks\":2,\"bytes_per_pair\":1024,\"median_us\":5}\n",
	} {
		if _, err := ParseAllToAll([]byte(text)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}
