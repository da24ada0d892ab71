package predict

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// OpenModel reads a time model: the embedded default for "" and
// "default", the embedded held-out models for "heldout-graphs" and
// "heldout-real" (HeldOutModel), else the JSON file at path (gzipped when
// it ends in .gz), as "predict train" writes it. It costs one read and
// decode of the model.
func OpenModel(path string) (*Model, error) {
	switch path {
	case "", "default":
		return DefaultModel()
	case "heldout-graphs", "heldout-real":
		return HeldOutModel(strings.TrimPrefix(path, "heldout-"))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	return ReadModel(r, path)
}

// WriteModel writes m to w as one line of JSON, gzipped at the best
// compression when gz (the file is NAME.gz); OpenModel reads it back. It
// costs one encoding of the model.
func WriteModel(w io.Writer, m *Model, gz bool) error {
	if !gz {
		return json.NewEncoder(w).Encode(m)
	}
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err := json.NewEncoder(zw).Encode(m); err != nil {
		return err
	}
	return zw.Close()
}

// LevelsHeader is the header of WriteLevelsCSV.
var LevelsHeader = []string{"split", "graph", "root", "level", "levels", "vertices", "edges", "frontier", "edges_frontier",
	"pick", "pick_pred_ns", "pick_ns", "pick_base_ns", "pick_rank", "candidates",
	"opt", "opt_pred_ns", "opt_ns", "bns", "bns_pred_ns", "bns_ns", "bns_base_ns"}

// WriteLevelsCSV writes rows as CSV ("predict evaluate --levels"): the
// LevelsHeader, then a row per held-out level: the model's pick, the
// per-level optimum and the input's best non-switching implementation,
// predicted and measured (ns, one decimal). It costs one pass over rows.
func WriteLevelsCSV(w io.Writer, rows []SplitLevel) error {
	cw := csv.NewWriter(w)
	cw.Write(LevelsHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range rows {
		cw.Write([]string{r.Split, r.Graph, i(r.Root), strconv.Itoa(r.Level), strconv.Itoa(r.Levels), i(r.Vertices), i(r.Edges),
			i(r.Frontier), i(r.EdgesFront), r.Pick, f(r.PickPred), f(r.PickNs), f(r.PickBase), strconv.Itoa(r.PickRank),
			strconv.Itoa(r.Candidates), r.Opt, f(r.OptPred), f(r.OptNs), r.BNS, f(r.BNSPred), f(r.BNSNs), f(r.BNSBase)})
	}
	cw.Flush()
	return cw.Error()
}
