package dist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/graphperf/graphperf/internal/stats"
)

// AllToAll is a measured NCCL all-to-all: its provenance and, per rank
// count, the fitted latency and bandwidth of the exchange term (Fit).
//
// The file that holds it is JSON (AllToAllFormat):
//
//	{"format": "graphperf-alltoall/1",
//	 "provenance": {"gpu": "NVIDIA H200", "driver": "570.124.06", "cuda": "12.8",
//	                "nccl": "2.21.5", "date": "2026-11-27", "host": "...",
//	                "command": "kernels/measure-dist.sh"},
//	 "fits": [{"ranks": 2, "alpha_us": 11.9, "beta_gb_s": 143.2, "points": 19,
//	           "max_rel_residual": 0.08}],
//	 "points": [{"ranks": 2, "bytes_per_pair": 1024, "median_us": 12.1}, ...]}
//
// LoadAllToAll also reads the microbenchmark's own output
// (kernels/cuda/dist_bfs.cu --alltoall-bench, JSON lines with "type":
// "alltoall_device" and "type": "alltoall") and fits it on loading.
type AllToAll struct {
	Format     string        `json:"format"`
	Provenance Provenance    `json:"provenance"`
	Fits       []AllToAllFit `json:"fits"`
	Points     []Point       `json:"points,omitempty"`
}

// AllToAllFormat is the format tag of an AllToAll file.
const AllToAllFormat = "graphperf-alltoall/1"

// Provenance says where a measurement comes from. GPU, NCCL and Date are
// required: a file without them is not a measurement this package trusts.
type Provenance struct {
	GPU     string `json:"gpu"`
	Driver  string `json:"driver"`
	CUDA    string `json:"cuda"`
	NCCL    string `json:"nccl"`
	Date    string `json:"date"`
	Host    string `json:"host,omitempty"`
	Command string `json:"command"`
}

// Point is one measured all-to-all: every rank sends BytesPerPair bytes to
// every other rank in one ncclGroupStart/End of ncclSend/ncclRecv, and the
// median over the repetitions took MedianUs microseconds.
type Point struct {
	Ranks        int     `json:"ranks"`
	BytesPerPair int64   `json:"bytes_per_pair"`
	MedianUs     float64 `json:"median_us"`
}

// AllToAllFit is the exchange term's parameters for one rank count.
type AllToAllFit struct {
	Ranks int `json:"ranks"`
	// AlphaUs is α, the fixed time of one grouped exchange, in µs.
	AlphaUs float64 `json:"alpha_us"`
	// BetaGBs is β, the bandwidth one rank sends (and receives) at, in
	// GB/s (1e9 bytes per second).
	BetaGBs        float64 `json:"beta_gb_s"`
	Points         int     `json:"points"`
	MaxRelResidual float64 `json:"max_rel_residual"`
}

// ExchangeUs is the time of one grouped exchange in which the busiest rank
// sends out and receives in bytes: α + max(out, in)/β, in µs (Model's
// formula; 0 bytes still pay α).
func (f AllToAllFit) ExchangeUs(out, in int64) float64 {
	return f.AlphaUs + float64(max(out, in))/(f.BetaGBs*1e3)
}

// ErrTooFewPoints is returned by Fit for fewer than two message sizes.
var ErrTooFewPoints = errors.New("dist: an all-to-all fit needs at least two message sizes")

// Fit fits α and β of one rank count to measured points by weighted least
// squares: the model of an all-to-all of s bytes per pair on P ranks is
//
//	T(s) = α + (P-1)·s / β
//
// (each rank sends (P-1)s bytes and receives as many; NCCL runs the pairs
// of one group concurrently, so α is paid once; LogGP's L+o and G per byte,
// Alexandrov et al., SPAA 1995, with the per-message gap folded into α).
// The residuals are weighted by 1/T² so that 1 KiB and 256 MiB messages
// count alike (relative error). Closed form of the 2×2 normal equations;
// O(points). Errors: fewer than two distinct sizes, a non-positive time,
// or a fit with α < 0 or β ≤ 0 (the points are not of this model).
func Fit(ranks int, points []Point) (AllToAllFit, error) {
	if ranks < 2 {
		return AllToAllFit{}, fmt.Errorf("dist: all-to-all fit for %d ranks: want at least 2", ranks)
	}
	var sw, sx, sy, sxx, sxy float64
	sizes := map[int64]bool{}
	n := 0
	for _, p := range points {
		if p.Ranks != ranks {
			continue
		}
		if !(p.MedianUs > 0) || p.BytesPerPair < 0 {
			return AllToAllFit{}, fmt.Errorf("dist: all-to-all point %d bytes on %d ranks: time %g µs is not positive", p.BytesPerPair, ranks, p.MedianUs)
		}
		x := float64(ranks-1) * float64(p.BytesPerPair)
		w := 1 / (p.MedianUs * p.MedianUs)
		sw += w
		sx += w * x
		sy += w * p.MedianUs
		sxx += w * x * x
		sxy += w * x * p.MedianUs
		sizes[p.BytesPerPair] = true
		n++
	}
	if len(sizes) < 2 {
		return AllToAllFit{}, fmt.Errorf("%w (%d ranks: %d)", ErrTooFewPoints, ranks, len(sizes))
	}
	det := sw*sxx - sx*sx
	slope := (sw*sxy - sx*sy) / det // µs per byte = 1/β
	alpha := (sy - slope*sx) / sw
	if !(slope > 0) || alpha < 0 || math.IsNaN(alpha) {
		return AllToAllFit{}, fmt.Errorf("dist: all-to-all fit for %d ranks: α = %g µs, 1/β = %g µs/byte: not a latency-bandwidth curve", ranks, alpha, slope)
	}
	f := AllToAllFit{Ranks: ranks, AlphaUs: alpha, BetaGBs: 1 / slope / 1e3, Points: n}
	for _, p := range points {
		if p.Ranks == ranks {
			pred := f.ExchangeUs(int64(ranks-1)*p.BytesPerPair, 0)
			f.MaxRelResidual = max(f.MaxRelResidual, stats.RelError(pred, p.MedianUs))
		}
	}
	return f, nil
}

// FitAll fits every rank count present in points, in increasing order.
func FitAll(points []Point) ([]AllToAllFit, error) {
	var ranks []int
	for _, p := range points {
		if !slices.Contains(ranks, p.Ranks) {
			ranks = append(ranks, p.Ranks)
		}
	}
	slices.Sort(ranks)
	fits := make([]AllToAllFit, 0, len(ranks))
	for _, r := range ranks {
		f, err := Fit(r, points)
		if err != nil {
			return nil, err
		}
		fits = append(fits, f)
	}
	if len(fits) == 0 {
		return nil, ErrTooFewPoints
	}
	return fits, nil
}

// For returns the fit for P ranks, or the one of the nearest rank count
// with a warning saying it is extrapolated; ok is false when there is none.
func (a *AllToAll) For(P int) (f AllToAllFit, warning string, ok bool) {
	if a == nil || len(a.Fits) == 0 {
		return AllToAllFit{}, "", false
	}
	best := a.Fits[0]
	for _, c := range a.Fits {
		if c.Ranks == P {
			return c, "", true
		}
		if abs(c.Ranks-P) < abs(best.Ranks-P) {
			best = c
		}
	}
	return best, fmt.Sprintf("all-to-all α and β were measured on %d ranks, not %d: the exchange times are extrapolated, a prediction", best.Ranks, P), true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Validate checks the format tag, the provenance and the fits.
func (a *AllToAll) Validate() error {
	if a.Format != AllToAllFormat {
		return fmt.Errorf("format %q: want %q", a.Format, AllToAllFormat)
	}
	p := a.Provenance
	for _, f := range []struct{ name, v string }{{"gpu", p.GPU}, {"nccl", p.NCCL}, {"date", p.Date}} {
		if strings.TrimSpace(f.v) == "" {
			return fmt.Errorf("provenance.%s is missing: a measurement must say where it comes from", f.name)
		}
	}
	if len(a.Fits) == 0 {
		return errors.New("no fits")
	}
	for i, f := range a.Fits {
		if f.Ranks < 2 || !(f.AlphaUs >= 0) || !(f.BetaGBs > 0) {
			return fmt.Errorf("fits[%d]: ranks %d, alpha_us %g, beta_gb_s %g: want ranks >= 2, alpha_us >= 0, beta_gb_s > 0", i, f.Ranks, f.AlphaUs, f.BetaGBs)
		}
	}
	return nil
}

// LoadAllToAll reads an AllToAll file, or the microbenchmark's JSON lines
// (fitted here). Errors name the file (and the line for JSON lines).
func LoadAllToAll(path string) (*AllToAll, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := ParseAllToAll(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// ParseAllToAll parses what LoadAllToAll reads.
func ParseAllToAll(data []byte) (*AllToAll, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("empty all-to-all file")
	}
	var probe struct {
		Format string `json:"format"`
		Type   string `json:"type"`
	}
	first, _, _ := bytes.Cut(trimmed, []byte("\n"))
	if json.Unmarshal(first, &probe) == nil && probe.Type != "" {
		return parseBenchLines(trimmed)
	}
	var a AllToAll
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("not an all-to-all file (%s) nor the microbenchmark's JSON lines: %w", AllToAllFormat, err)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return &a, nil
}

// benchLine is one line of the microbenchmark's output.
type benchLine struct {
	Type         string  `json:"type"`
	Ranks        int     `json:"ranks"`
	BytesPerPair int64   `json:"bytes_per_pair"`
	MedianUs     float64 `json:"median_us"`
	GPU          string  `json:"gpu"`
	Driver       string  `json:"driver"`
	CUDA         string  `json:"cuda"`
	NCCL         string  `json:"nccl"`
	Date         string  `json:"date"`
	Host         string  `json:"host"`
	Command      string  `json:"command"`
}

func parseBenchLines(data []byte) (*AllToAll, error) {
	a := &AllToAll{Format: AllToAllFormat}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var l benchLine
		if err := json.Unmarshal(text, &l); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch l.Type {
		case "alltoall_device":
			a.Provenance = Provenance{GPU: l.GPU, Driver: l.Driver, CUDA: l.CUDA, NCCL: l.NCCL, Date: l.Date, Host: l.Host, Command: l.Command}
		case "alltoall":
			if l.Ranks < 2 || l.BytesPerPair < 0 || !(l.MedianUs > 0) {
				return nil, fmt.Errorf("line %d: ranks %d, bytes_per_pair %d, median_us %g: want ranks >= 2 and a positive time", line, l.Ranks, l.BytesPerPair, l.MedianUs)
			}
			a.Points = append(a.Points, Point{Ranks: l.Ranks, BytesPerPair: l.BytesPerPair, MedianUs: l.MedianUs})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	fits, err := FitAll(a.Points)
	if err != nil {
		return nil, err
	}
	a.Fits = fits
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}
