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
// hyper-parameters, validation scores, date and version).
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
	switch split {
	case "graphs":
		b = heldOutGraphs
	case "real":
		b = heldOutReal
	default:
		return nil, fmt.Errorf("predict: no embedded held-out model %q (graphs or real)", split)
	}
	return readGzipModel(b, "the embedded held-out model "+split)
}

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
