package predict

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/split"
)

// BaselineName names the scikit-learn baseline's scores.
const BaselineName = "sklearn-hgb"

// WriteBaselineRows writes the baseline's input CSV (gzipped for a .gz name).
func WriteBaselineRows(w io.Writer, ds *Dataset, name string) error {
	var zw *gzip.Writer
	if strings.HasSuffix(name, ".gz") {
		zw = gzip.NewWriter(w)
		w = zw
	}
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"graph", "root", "level", "impl", "time_ns"}, split.FeatureNames...))
	k := ds.K()
	rec := make([]string, 5+len(split.FeatureNames))
	for r, l := range ds.Levels {
		for j := range k {
			ns := ds.Ns[r*k+j]
			if math.IsNaN(ns) {
				continue
			}
			rec = rec[:0]
			rec = append(rec, l.Graph, strconv.FormatInt(l.Root, 10), strconv.Itoa(l.Level), ds.Kernels[j].Name,
				strconv.FormatFloat(ns, 'g', -1, 64))
			for _, f := range l.Features {
				rec = append(rec, strconv.FormatFloat(f, 'g', -1, 64))
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// RunBaseline runs the scikit-learn script on every split and scores its
// predictions with the same code as the model's.
func RunBaseline(ds *Dataset, splits []Split, python, script string) (map[string]map[string]Score, error) {
	dir, err := os.MkdirTemp("", "graphperf-baseline-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rowsPath := filepath.Join(dir, "rows.csv")
	if err := writeBaselineFile(rowsPath, ds); err != nil {
		return nil, err
	}
	type splitDoc struct {
		Name       string   `json:"name"`
		Train      []string `json:"train"`
		Validation []string `json:"validation"`
		Test       []string `json:"test"`
	}
	var doc struct {
		Splits []splitDoc `json:"splits"`
	}
	for _, s := range splits {
		doc.Splits = append(doc.Splits, splitDoc{s.Name, s.Train, s.Validation, s.Test})
	}
	splitsPath := filepath.Join(dir, "splits.json")
	b, _ := json.Marshal(doc)
	if err := os.WriteFile(splitsPath, b, 0o644); err != nil {
		return nil, err
	}
	predsPath := filepath.Join(dir, "preds.csv")
	cmd := exec.Command(python, script, "--rows", rowsPath, "--splits", splitsPath, "--out", predsPath)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	// scikit-learn's OpenMP threads slow down badly when there are more of
	// them than cores (docs/baselines/README.md).
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(runtime.NumCPU()))
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	preds, err := readBaselinePreds(ds, predsPath)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]Score{}
	for _, s := range splits {
		p, ok := preds[s.Name]
		if !ok {
			return nil, fmt.Errorf("%s: no predictions for split %s", script, s.Name)
		}
		sc, err := ScoreLevels(ds, ds.LevelsOf(s.Test), p, "")
		if err != nil {
			return nil, err
		}
		out[s.Name] = map[string]Score{BaselineName: sc}
	}
	return out, nil
}

// readBaselinePreds reads split,graph,root,level,impl,pred_log_ns into one
// prediction array (as Model.PredictDataset's) per split.
func readBaselinePreds(ds *Dataset, path string) (map[string][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type key struct {
		graph       string
		root, level int64
	}
	rowOf := map[key]int{}
	for i, l := range ds.Levels {
		rowOf[key{l.Graph, l.Root, int64(l.Level)}] = i
	}
	kOf := map[string]int{}
	for j, k := range ds.Kernels {
		kOf[k.Name] = j
	}
	cr := csv.NewReader(bufio.NewReader(f))
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if strings.Join(header, ",") != "split,graph,root,level,impl,pred_log_ns" {
		return nil, fmt.Errorf("%s: header %q", path, strings.Join(header, ","))
	}
	out := map[string][]float64{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		root, err1 := strconv.ParseInt(rec[2], 10, 64)
		level, err2 := strconv.ParseInt(rec[3], 10, 64)
		v, err3 := strconv.ParseFloat(rec[5], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("%s:%d: bad number", path, line)
		}
		r, ok1 := rowOf[key{rec[1], root, level}]
		j, ok2 := kOf[rec[4]]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s:%d: unknown row %s", path, line, strings.Join(rec[1:5], ","))
		}
		p, ok := out[rec[0]]
		if !ok {
			p = make([]float64, len(ds.Ns))
			for i := range p {
				p[i] = math.NaN()
			}
			out[rec[0]] = p
		}
		p[r*ds.K()+j] = math.Exp(v)
	}
	return out, nil
}

func writeBaselineFile(path string, ds *Dataset) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriter(f)
	if err := WriteBaselineRows(w, ds, path); err != nil {
		return err
	}
	return w.Flush()
}

// BaselineScript is the scikit-learn baseline's script, relative to the
// repository's root.
const BaselineScript = "docs/baselines/sklearn_hgb.py"

// FindBaseline returns BaselineScript under the first of roots that holds
// it (joined with filepath.Join, so "." gives the relative path), when
// python imports scikit-learn; otherwise why the baseline cannot run.
func FindBaseline(python string, roots ...string) (script, why string) {
	for _, root := range roots {
		p := filepath.Join(root, BaselineScript)
		if _, err := os.Stat(p); err == nil {
			if err := exec.Command(python, "-c", "import sklearn").Run(); err != nil {
				return "", "python3 has no scikit-learn (Debian: apt-get install python3-sklearn)"
			}
			return p, ""
		}
	}
	return "", BaselineScript + " not found (run from the repository)"
}
