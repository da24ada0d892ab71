package split

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// DefaultTolerance is the level-time slack within which a wrong pick is a
// soft error: 5 %, above the run-to-run spread of the H100 dataset's level
// medians (max/median 1.03 in the median total line, analysis/aggregate's
// package comment), so that two implementations within noise of each other
// are not counted as a real miss.
const DefaultTolerance = 0.05

// Confusion is a confusion matrix: Counts[a][p] rows whose fastest
// implementation is Classes[a] were predicted Classes[p].
type Confusion struct {
	Classes []string `json:"classes"`
	Counts  [][]int  `json:"counts"`
}

// Validation is how well a per-level predictor picks the fastest
// implementation on a set of rows (graphperf's "tree validate"; Belewitte's
// "model validate" counts right, wrong and unknown predictions and their
// error rate, seed 004 §3.3.3).
//
// Seed 004 defines no error rates beyond that one. graphperf splits the
// wrong predictions in two by what they cost at the level:
//
//	soft error: predicted p != fastest f, and t_p <= (1 + Tolerance) t_f
//	hard error: predicted p != fastest f, and t_p > (1 + Tolerance) t_f,
//	            or p was not measured at that level (Unmeasured)
//
// where t_i is implementation i's measured time at the row's level, so
// Correct + Soft + Hard = Rows: the exact-label error rate 1 - accuracy is
// SoftErrorRate + HardErrorRate. Rows without level times (those of a CSV)
// cannot tell soft from hard: every wrong prediction counts as hard and
// SoftKnown is false.
type Validation struct {
	Rows, Correct, Soft, Hard int
	// Unmeasured counts the hard errors whose prediction has no time at
	// the level.
	Unmeasured int
	Tolerance  float64
	SoftKnown  bool
	// Confusion counts every row by fastest (row) and predicted (column)
	// implementation, over the labels passed to Validate followed by any
	// other predicted name, in first-seen order.
	Confusion Confusion
}

// Accuracy is Correct / Rows (0 for no rows).
func (v *Validation) Accuracy() float64 { return share(v.Correct, v.Rows) }

// SoftErrorRate is Soft / Rows.
func (v *Validation) SoftErrorRate() float64 { return share(v.Soft, v.Rows) }

// HardErrorRate is Hard / Rows.
func (v *Validation) HardErrorRate() float64 { return share(v.Hard, v.Rows) }

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// Validate compares predict's choice with the fastest implementation
// (labels[r.Label]) on the chosen rows; tolerance is the slack of a soft
// error (DefaultTolerance when negative or NaN). It takes O(len(chosen) +
// K^2) time for K classes.
func Validate(rows []Row, chosen []int, labels []string, predict func(*Row) string, tolerance float64) Validation {
	if math.IsNaN(tolerance) || tolerance < 0 {
		tolerance = DefaultTolerance
	}
	v := Validation{Tolerance: tolerance, SoftKnown: true}
	classes := append([]string(nil), labels...)
	index := map[string]int{}
	for i, name := range classes {
		index[name] = i
	}
	type cell struct{ a, p int }
	counts := map[cell]int{}
	for _, i := range chosen {
		r := &rows[i]
		fastest := labels[r.Label]
		p := predict(r)
		if _, ok := index[p]; !ok {
			index[p] = len(classes)
			classes = append(classes, p)
		}
		counts[cell{r.Label, index[p]}]++
		v.Rows++
		if p == fastest {
			v.Correct++
			continue
		}
		if r.LevelNs == nil {
			v.SoftKnown = false
			v.Hard++
			continue
		}
		tp, measured := r.LevelNs[p]
		switch {
		case !measured:
			v.Hard++
			v.Unmeasured++
		case tp <= (1+tolerance)*r.LevelNs[fastest]:
			v.Soft++
		default:
			v.Hard++
		}
	}
	if !v.SoftKnown {
		v.Hard += v.Soft
		v.Soft = 0
	}
	v.Confusion = Confusion{Classes: classes, Counts: make([][]int, len(classes))}
	for a := range classes {
		v.Confusion.Counts[a] = make([]int, len(classes))
	}
	for c, n := range counts {
		v.Confusion.Counts[c.a][c.p] = n
	}
	return v
}

// RowsHash is the hex SHA-256 of rows in order: per row its graph, root,
// level, features, label name and weight (not the level times). Two loads
// of the same data give the same hash, so a saved model can record the
// rows it was split from and a later reader can tell whether it rebuilt
// them. It panics if a label is outside labels (a programmer error).
func RowsHash(rows []Row, labels []string) string {
	h := sha256.New()
	var buf [8]byte
	num := func(v float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		h.Write(buf[:])
	}
	str := func(s string) {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	for i := range rows {
		r := &rows[i]
		str(r.Graph)
		num(float64(r.Root))
		num(float64(r.Level))
		num(float64(len(r.Features)))
		for _, x := range r.Features {
			num(x)
		}
		str(labels[r.Label])
		num(r.Weight)
	}
	return hex.EncodeToString(h.Sum(nil))
}
