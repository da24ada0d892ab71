package plot

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/model/predict"
)

func TestPredictScatterFigures(t *testing.T) {
	pts := &predict.LevelPoints{Split: predict.Split{Test: []string{"a", "b"}},
		Predicted: []float64{10e3, 52e3, 1.1e6, 30e3}, Measured: []float64{12e3, 50e3, 0.9e6, 29e3}}
	figs, err := PredictScatterFigures(pts)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "predict-scatter")
	if figs[0].W != StdW || figs[0].H != 5*72 {
		t.Errorf("%v by %v, want the text width by 5 inches", figs[0].W, figs[0].H)
	}
	if _, err := PredictScatterFigures(&predict.LevelPoints{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no points: %v, want ErrNoData", err)
	}
}

func TestPredictLevelFigures(t *testing.T) {
	level := func(ns ...float64) predict.LevelPrediction {
		l := predict.LevelPrediction{}
		for i, impl := range []string{"queue", "dobfs", "edge-list/bulk"} {
			l.Times = append(l.Times, predict.ImplTime{Impl: impl, Ns: ns[i]})
		}
		return l
	}
	p := &predict.Prediction{Graph: "rmat-s16-e16", Root: 3, BestSingle: predict.ImplTime{Impl: "queue"},
		Levels: []predict.LevelPrediction{level(5e3, 9e3, 20e3), level(40e3, 35e3, 60e3), level(8e3, 9e3, 30e3)}}
	figs, err := PredictLevelFigures(p)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "predict-levels")
	if _, err := PredictLevelFigures(&predict.Prediction{}); err == nil {
		t.Error("a prediction without levels drew a figure")
	}
}
