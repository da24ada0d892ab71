package predict

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"sync"
)

// defaultModel is the model "graphperf predict train --split all -o
// model/predict/default-h100.json.gz" made from the embedded H100 dataset
// (kernels/measured/h100); its file records the training (graphs, chosen
// hyper-parameters, validation scores, date and version). The three
// embedded models were trained before model files recorded the vertex
// counts of their training graphs: their size range (Training.Range) was
// derived afterwards from the manifest's n and m of their training and
// validation graphs, without refitting, and says so in its note
// (TestEmbeddedModelRanges checks it; -update-range rewrites it).
//
//go:embed default-h100.json.gz
var defaultModel []byte

// heldOutGraphs and heldOutReal are models trained on one side of a split
// only ("predict train --split graphs --seed 1", "--split real"), with
// their test graphs recorded: "predict evaluate --model heldout-graphs"
// scores them on graphs they never saw, in seconds, which is what the
// default report shows.
//
//go:embed heldout-graphs-h100.json.gz
var heldOutGraphs []byte

//go:embed heldout-real-h100.json.gz
var heldOutReal []byte

// HeldOutModel returns the embedded held-out model of the split "graphs"
// or "real".
func HeldOutModel(split string) (*Model, error) {
	var b []byte
	var once *heldOut
	switch split {
	case "graphs":
		b, once = heldOutGraphs, &heldOutOnce[0]
	case "real":
		b, once = heldOutReal, &heldOutOnce[1]
	default:
		return nil, fmt.Errorf("predict: no embedded held-out model %q (graphs or real)", split)
	}
	once.Do(func() { once.m, once.err = readGzipModel(b, "the embedded held-out model "+split) })
	return once.m, once.err
}

// heldOut is one embedded held-out model, read once per process (as
// DefaultModel is; callers must not modify it), so that the report's
// summary and its "predict evaluate --model" cells score the same *Model
// and EvaluateModel's memo serves the second.
type heldOut struct {
	sync.Once
	m   *Model
	err error
}

var heldOutOnce [2]heldOut

func readGzipModel(b []byte, name string) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("predict: %s: %w", name, err)
	}
	return ReadModel(zr, name)
}

var (
	defaultOnce sync.Once
	defaultM    *Model
	defaultErr  error
)

// DefaultModel returns the embedded default model, trained on every graph
// of the embedded H100 dataset. It is read once; callers must not modify it.
func DefaultModel() (*Model, error) {
	defaultOnce.Do(func() {
		defaultM, defaultErr = readGzipModel(defaultModel, "the embedded default model")
	})
	return defaultM, defaultErr
}
