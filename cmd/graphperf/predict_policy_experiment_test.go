package main

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
	"gonum.org/v1/gonum/mat"
)

// TestPredictPolicyExperiment compares ways of turning the default model's
// per-level predictions into picks, on results directories the default
// model never trained on (docs/ACCURACY.md, issue 12):
//
//	GP_POLICY=kernels/measured/h100/unseen-2026-11-26,kernels/measured/h100/roads-wave6 go test ./cmd/graphperf -run TestPredictPolicyExperiment -v
//
// Policies: "mm" (Mix-and-Match: at every level the least predicted time),
// "single" (per input, the implementation with the least predicted total,
// at every level), "near T0 c" (per level the least predicted time, but
// the input's predicted best single implementation S wherever S's
// predicted time is below c·T_0) and "margin m" (S unless another
// implementation is predicted faster than (1-m)·S's prediction), "agg"
// (per level the kernel of least predicted time, in its aggregation variant
// of least predicted total over the input). Totals
// are against the per-level optimum, as Mix-and-Match's Total; "bns" is the
// oracle best non-switching implementation per input.
func TestPredictPolicyExperiment(t *testing.T) {
	dirs := os.Getenv("GP_POLICY")
	if dirs == "" {
		t.Skip("set GP_POLICY")
	}
	e, _, ph := experimentSetup(t)
	m, err := predict.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range strings.Split(dirs, ",") {
		ds, err := loadTimeData(e, "../../"+dir, "", "", "", "", ph)
		if err != nil {
			t.Fatal(err)
		}
		levels := ds.LevelsOf(ds.Graphs)
		pred := m.PredictDataset(ds, levels)
		policies := []string{"mm", "single", "agg"}
		for _, c := range []float64{1.05, 1.1, 1.2, 1.35, 1.5, 2} {
			policies = append(policies, fmt.Sprintf("nearT0 %.2f", c))
		}
		for _, mg := range []float64{0.02, 0.05, 0.1, 0.2} {
			policies = append(policies, fmt.Sprintf("margin %.2f", mg))
		}
		for _, fam := range []string{"", "road", "other"} {
			res := policyTotals(ds, levels, pred, ph.OverheadNs, policies, fam)
			fmt.Printf("%s [%s]: bns %.4f", dir, fam, res["bns"])
			for _, p := range policies {
				fmt.Printf(" | %s %.4f", p, res[p])
			}
			fmt.Println()
		}
	}
}

// policyTotals returns each policy's total time over the per-level
// optimum's on the inputs of levels (graphs of family fam: "" every one,
// "other" every one but road).
func policyTotals(ds *predict.Dataset, levels []int, pred []float64, t0 float64, policies []string, fam string) map[string]float64 {
	k := ds.K()
	type input struct{ rows []int } // indexes into levels
	var inputs []input
	for i, r := range levels {
		lr := ds.Levels[r]
		f := ds.Family(lr.Graph)
		if fam == "road" && f != "road" || fam == "other" && f == "road" {
			continue
		}
		if i == 0 || len(inputs) == 0 || ds.Levels[levels[inputs[len(inputs)-1].rows[0]]].Graph != lr.Graph ||
			ds.Levels[levels[inputs[len(inputs)-1].rows[0]]].Root != lr.Root {
			inputs = append(inputs, input{})
		}
		inputs[len(inputs)-1].rows = append(inputs[len(inputs)-1].rows, i)
	}
	sum := map[string]float64{}
	var opt float64
	for _, in := range inputs {
		predTot, measTot := make([]float64, k), make([]float64, k)
		for _, i := range in.rows {
			r := levels[i]
			best := math.Inf(1)
			for j := range k {
				predTot[j] += nanInf(pred[r*k+j])
				measTot[j] += nanInf(ds.Ns[r*k+j])
				best = min(best, nanInf(ds.Ns[r*k+j]))
			}
			opt += best
		}
		// agg: per kernel (the name before "/AGG"), the aggregation variant
		// of least predicted total over the input.
		aggOf := make([]int, k)
		bestOf := map[string]int{}
		for j := range k {
			b := strings.SplitN(ds.Kernels[j].Name, "/", 2)[0]
			if cur, ok := bestOf[b]; !ok || predTot[j] < predTot[cur] {
				bestOf[b] = j
			}
		}
		for j := range k {
			aggOf[j] = bestOf[strings.SplitN(ds.Kernels[j].Name, "/", 2)[0]]
		}
		s, bns := 0, 0
		for j := range k {
			if predTot[j] < predTot[s] {
				s = j
			}
			if measTot[j] < measTot[bns] {
				bns = j
			}
		}
		sum["bns"] += measTot[bns]
		for _, p := range policies {
			var c, mg float64
			kind := p
			if _, err := fmt.Sscanf(p, "nearT0 %g", &c); err == nil {
				kind = "nearT0"
			} else if _, err := fmt.Sscanf(p, "margin %g", &mg); err == nil {
				kind = "margin"
			}
			for _, i := range in.rows {
				r := levels[i]
				arg := 0
				for j := range k {
					if nanInf(pred[r*k+j]) < nanInf(pred[r*k+arg]) {
						arg = j
					}
				}
				pick := arg
				switch kind {
				case "single":
					pick = s
				case "agg":
					pick = aggOf[arg]
				case "nearT0":
					if pred[r*k+s] < c*t0 {
						pick = s
					}
				case "margin":
					if pred[r*k+arg] > (1-mg)*pred[r*k+s] {
						pick = s
					}
				}
				sum[p] += ds.Ns[r*k+pick]
			}
		}
	}
	for key := range sum {
		sum[key] /= opt
	}
	return sum
}

func nanInf(v float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// TestPredictScanExperiment fits, per implementation, level time = a + b·n
// + c·m + d·m_f by least squares on the embedded dataset's levels whose
// frontier is at most 1 % of the vertices (the levels of a road BFS), and
// scores picking per input the implementation of least fitted total on the
// GP_POLICY directories (validation only).
func TestPredictScanExperiment(t *testing.T) {
	dirs := os.Getenv("GP_POLICY")
	if dirs == "" || os.Getenv("GP_SCAN") == "" {
		t.Skip("set GP_POLICY and GP_SCAN")
	}
	e, mach, ph := experimentSetup(t)
	train, err := timeData(e, nil, mach, dataFlags{})
	if err != nil {
		t.Fatal(err)
	}
	fi := map[string]int{}
	for i, n := range predict.FeatureNames {
		fi[n] = i
	}
	nf, k := len(predict.FeatureNames), train.K()
	cols := func(ds *predict.Dataset, i int) []float64 {
		x := ds.X[i*nf : (i+1)*nf]
		return []float64{1, x[fi["vertices"]] / 1e5, x[fi["edges"]] / 1e6, x[fi["edges_frontier"]] / 1e4}
	}
	coef := make([][]float64, k)
	for j := range k {
		var a, b []float64
		rows := 0
		for r := range train.Levels {
			i := r*k + j
			x := train.X[i*nf : (i+1)*nf]
			if math.IsNaN(train.Ns[i]) || x[fi["frontier_rel"]] > 0.01 {
				continue
			}
			a = append(a, cols(train, i)...)
			b = append(b, train.Ns[i])
			rows++
		}
		coef[j] = leastSquares(a, b, rows, 4)
		fmt.Printf("%-36s a %.0f ns, b %.0f ns/1e5 v, c %.0f ns/1e6 e, d %.0f ns/1e4 ef (%d levels)\n", train.Kernels[j].Name, coef[j][0], coef[j][1], coef[j][2], coef[j][3], rows)
	}
	for _, dir := range strings.Split(dirs, ",") {
		ds, err := loadTimeData(e, "../../"+dir, "", "", "", "", ph)
		if err != nil {
			t.Fatal(err)
		}
		levels := ds.LevelsOf(ds.Graphs)
		pred := make([]float64, len(ds.Ns))
		for _, r := range levels {
			for j := range k {
				c, s := cols(ds, r*k+j), 0.0
				for q := range c {
					s += c[q] * coef[j][q]
				}
				pred[r*k+j] = s
			}
		}
		for _, fam := range []string{"", "road", "other"} {
			res := policyTotals(ds, levels, pred, ph.OverheadNs, []string{"mm", "single"}, fam)
			fmt.Printf("%s [%s]: bns %.4f | linear mm %.4f | linear single %.4f\n", dir, fam, res["bns"], res["mm"], res["single"])
		}
	}
}

func leastSquares(a, b []float64, rows, cols int) []float64 {
	A := mat.NewDense(rows, cols, a)
	B := mat.NewVecDense(rows, b)
	var x mat.VecDense
	if err := x.SolveVec(A, B); err != nil {
		return make([]float64, cols)
	}
	return x.RawVector().Data
}

// experimentSetup is the environment, the H100 machine and its physics the
// experiments share.
func experimentSetup(t *testing.T) (*env, *machine.Machine, predict.Physics) {
	t.Helper()
	mach, err := loadMachine("h100")
	if err != nil {
		t.Fatal(err)
	}
	ph, err := predict.NewPhysics(mach)
	if err != nil {
		t.Fatal(err)
	}
	return &env{stdout: os.Stdout, stderr: os.Stderr}, mach, ph
}
