package plot

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/model/predict"
)

// PredictScatterFigures draws "predict evaluate"'s figure: the time
// model's predicted against measured level times of pts (a split's
// held-out graphs), log-log, with the diagonal and the ±20 % band. Its
// cost is linear in the points; it fails as PredictedMeasured does
// (ErrNoData without a positive pair).
func PredictScatterFigures(pts *predict.LevelPoints) ([]Named, error) {
	p, err := PredictedMeasured(fmt.Sprintf("Time model on held-out graphs (%d of them)", len(pts.Split.Test)), pts.Predicted, pts.Measured, 0.2)
	if err != nil {
		return nil, err
	}
	return []Named{{Name: "predict-scatter", Title: "Predicted against measured level times on held-out graphs", Figure: p, W: StdW, H: 5 * vg.Inch}}, nil
}

// PredictLevelFigures draws "predict bfs"'s figure: the predicted time per
// BFS level of the implementations of p (Prediction.PlotSeries). Its cost
// is linear in the levels times the series; it fails as LevelTimes does.
func PredictLevelFigures(p *predict.Prediction) ([]Named, error) {
	fig, err := LevelTimes(p.PlotSeries(), nil, fmt.Sprintf("Predicted level times, %s from %d", p.Graph, p.Root))
	if err != nil {
		return nil, err
	}
	return []Named{{Name: "predict-levels", Title: "Predicted level times", Figure: fig, W: 6 * vg.Inch, H: 4 * vg.Inch}}, nil
}
