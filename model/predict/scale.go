package predict

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ErrScaleSplit is MakeScaleSplit's error when the size leaves one side of
// the split empty.
var ErrScaleSplit = errors.New("predict: no scale split")

// Vertices returns the vertex count of graph g from its properties (0
// when the dataset has none).
func (ds *Dataset) Vertices(g string) int64 { return ds.Data.Props[g].Vertices }

// DefaultMaxTrainVertices is the scale split's default size: the largest
// power of two below the largest graph's vertex count, so that at least
// one graph (the largest) is tested and the training side holds every
// graph up to that power. With the embedded H100 dataset (2^12 to 2^22
// vertices) it is 2^21: the 2^22 graphs are tested. It is an error
// (ErrScaleSplit) when no graph is at or below it.
func DefaultMaxTrainVertices(ds *Dataset) (int64, error) {
	var largest int64
	for _, g := range ds.Graphs {
		largest = max(largest, ds.Vertices(g))
	}
	if largest < 2 {
		return 0, fmt.Errorf("%w: no graph has two or more vertices", ErrScaleSplit)
	}
	n := int64(1) << (bits.Len64(uint64(largest-1)) - 1) // largest power of two < largest
	return n, nil
}

// VertexCount writes n as "2^K" when it is a power of two, else in
// decimal: how a scale split and a band name their sizes.
func VertexCount(n int64) string {
	if n > 0 && n&(n-1) == 0 {
		return "2^" + strconv.Itoa(bits.TrailingZeros64(uint64(n)))
	}
	return strconv.FormatInt(n, 10)
}

// ParseVertexCount reads a vertex count: a positive integer or "2^K"
// (K from 0 to 62).
func ParseVertexCount(s string) (int64, error) {
	if k, ok := strings.CutPrefix(strings.TrimSpace(s), "2^"); ok {
		e, err := strconv.Atoi(k)
		if err != nil || e < 0 || e > 62 {
			return 0, fmt.Errorf("%q: want 2^K with K from 0 to 62", s)
		}
		return int64(1) << e, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q: want a positive number of vertices or 2^K", s)
	}
	return n, nil
}

// MakeScaleSplit returns the scale split of ds at maxTrainVertices (0:
// DefaultMaxTrainVertices): every graph of at most that many vertices on
// the training side, ValidationShare of them (drawn with seed) set aside
// to choose the hyper-parameters, and every larger graph tested. The
// error wraps ErrScaleSplit when no graph is above the size or none is at
// or below it. A graph's size is its vertex count in the dataset's graph
// properties.
func MakeScaleSplit(ds *Dataset, maxTrainVertices int64, seed uint64) (Split, error) {
	if maxTrainVertices == 0 {
		var err error
		if maxTrainVertices, err = DefaultMaxTrainVertices(ds); err != nil {
			return Split{}, err
		}
	}
	if maxTrainVertices < 0 {
		return Split{}, fmt.Errorf("%w: %d vertices", ErrScaleSplit, maxTrainVertices)
	}
	var small, large []string
	smallest, largest := int64(math.MaxInt64), int64(0)
	for _, g := range ds.Graphs {
		n := ds.Vertices(g)
		smallest, largest = min(smallest, n), max(largest, n)
		if n <= maxTrainVertices {
			small = append(small, g)
		} else {
			large = append(large, g)
		}
	}
	at := VertexCount(maxTrainVertices)
	switch {
	case len(large) == 0:
		return Split{}, fmt.Errorf("%w: no graph has more than %s vertices (the largest of the %d graphs has %s): nothing to test on",
			ErrScaleSplit, at, len(ds.Graphs), VertexCount(largest))
	case len(small) == 0:
		return Split{}, fmt.Errorf("%w: no graph has at most %s vertices (the smallest of the %d graphs has %s): nothing to train on",
			ErrScaleSplit, at, len(ds.Graphs), VertexCount(smallest))
	}
	s := Split{Name: "scale-" + at, Kind: ByScale, Seed: seed, MaxTrainVertices: maxTrainVertices, Test: large}
	s.Train, s.Validation = carveValidation(shuffled(small, seed), seed)
	return s.sorted(), nil
}

// SizeBand is a range of vertex counts, Lo < n <= Hi.
type SizeBand struct {
	Lo, Hi int64
}

// BandOf returns the power-of-two band holding a graph of n >= 1
// vertices: (2^(k-1), 2^k] with 2^k the least power of two >= n ((0, 1]
// for n = 1).
func BandOf(n int64) SizeBand {
	if n <= 1 {
		return SizeBand{0, 1}
	}
	k := bits.Len64(uint64(n - 1))
	return SizeBand{Lo: int64(1) << (k - 1), Hi: int64(1) << k}
}

// String is "(2^20, 2^21]".
func (b SizeBand) String() string {
	return "(" + VertexCount(b.Lo) + ", " + VertexCount(b.Hi) + "]"
}

// BandScore is a split's score on the test graphs of one size band.
type BandScore struct {
	Band   SizeBand
	Graphs []string
	Score  Score
}

// ScoreBands scores the predictions pred (as PredictDataset returns them)
// on the test graphs of each power-of-two band (BandOf) that holds one,
// smallest band first: ScoreLevels on that band's levels, with bestFixed
// as the best fixed implementation. An input lies in one band, so the
// bands' Inputs, TimeNs and OptimalNs add up to those of the whole test
// set. It costs one ScoreLevels per band.
func ScoreBands(ds *Dataset, test []string, pred []float64, bestFixed string) ([]BandScore, error) {
	byBand := map[SizeBand][]string{}
	for _, g := range test {
		b := BandOf(ds.Vertices(g))
		byBand[b] = append(byBand[b], g)
	}
	bands := make([]SizeBand, 0, len(byBand))
	for b := range byBand {
		bands = append(bands, b)
	}
	sort.Slice(bands, func(i, j int) bool { return bands[i].Hi < bands[j].Hi })
	var out []BandScore
	for _, b := range bands {
		graphs := slices.Clone(byBand[b])
		sort.Strings(graphs)
		levels := ds.LevelsOf(graphs)
		if len(levels) == 0 {
			continue
		}
		sc, err := ScoreLevels(ds, levels, pred, bestFixed)
		if err != nil {
			return nil, fmt.Errorf("band %s: %w", b, err)
		}
		out = append(out, BandScore{Band: b, Graphs: graphs, Score: sc})
	}
	return out, nil
}
