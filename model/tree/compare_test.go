package tree

import (
	"bufio"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var (
	compareCSV     = flag.String("compare-csv", "", "write the synthetic level data of BenchmarkFit as train.csv and test.csv into `dir` (for testdata/sklearn_compare.py)")
	compareRows    = flag.Int("compare-rows", 1000000, "training rows written by -compare-csv")
	compareInteger = flag.Bool("compare-integer", false, "with -compare-csv: write round(1000 log(1+|v|)) sign(v) for every feature value v, integers that scikit-learn's float32 holds exactly")
)

// TestWriteCompareCSV writes, when -compare-csv is given, the training set
// of BenchmarkFit (levelData(rows, 1)) and its held-out set
// (levelData(100000, 2)) as CSV: the 27 features, then class and weight.
// testdata/sklearn_compare.py fits scikit-learn to the same rows:
//
//	go test ./model/tree/ -run TestWriteCompareCSV -compare-csv /tmp/cmp
//	python3 model/tree/testdata/sklearn_compare.py /tmp/cmp
//
// It logs what Fit makes of the same rows (nodes, depth, accuracy), for the
// settings the script uses. With -compare-integer the features are first
// mapped, order-preserving, to integers below 2^24: scikit-learn converts X
// to float32 and does not split between values closer than 1e-7, and on
// such integers neither matters, so the two trees should agree node for
// node (up to which of two identical columns a split names).
func TestWriteCompareCSV(t *testing.T) {
	if *compareCSV == "" {
		t.Skip("no -compare-csv")
	}
	if err := os.MkdirAll(*compareCSV, 0o755); err != nil {
		t.Fatal(err)
	}
	train := compareData(*compareRows, 1)
	test := compareData(100000, 2)
	for name, s := range map[string]levelSet{"train.csv": train, "test.csv": test} {
		if err := writeLevelCSV(filepath.Join(*compareCSV, name), s); err != nil {
			t.Fatal(err)
		}
	}
	nf := len(levelFeatures)
	for _, n := range []int{min(20000, *compareRows), *compareRows} {
		for _, depth := range []int{0, 20} {
			c, err := FitFlat(train.X[:n*nf], nf, train.y[:n], train.w[:n], nil, nil, Params{MaxDepth: depth})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("rows=%d max_depth=%d: accuracy %.4f, nodes %d, depth %d", n, depth, accuracy(c, test), len(c.Nodes), c.Depth())
		}
	}
}

func compareData(n int, seed uint64) levelSet {
	X, y, w := levelData(n, seed)
	if *compareInteger {
		for i, v := range X {
			X[i] = math.Copysign(math.Round(1000*math.Log1p(math.Abs(v))), v)
		}
	}
	return levelSet{X, y, w}
}

func writeLevelCSV(path string, s levelSet) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	bw := bufio.NewWriter(f)
	bw.WriteString(strings.Join(levelFeatures, ",") + ",class,weight\n")
	nf := len(levelFeatures)
	var line []byte
	for r := range s.y {
		line = line[:0]
		for _, v := range s.X[r*nf : (r+1)*nf] {
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(s.y[r]), 10)
		line = append(line, ',')
		line = strconv.AppendFloat(line, s.w[r], 'g', -1, 64)
		line = append(line, '\n')
		bw.Write(line)
	}
	return bw.Flush()
}
