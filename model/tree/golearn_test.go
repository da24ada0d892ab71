package tree

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sjwhitworth/golearn/base"
	"github.com/sjwhitworth/golearn/evaluation"
)

// irisLike builds an iris-shaped golearn dataset in code (reading golearn's
// bundled CSV from the module cache would be fragile): 3 species, 4 float
// measurements, rows per species, each a normal cloud around the species'
// mean. The means and spreads are those of Fisher's iris data rounded to
// one decimal (setosa 5.0 3.4 1.5 0.2, versicolor 5.9 2.8 4.3 1.3,
// virginica 6.6 3.0 5.6 2.0; spreads 0.4 0.3 0.4 0.2), so versicolor and
// virginica overlap a little, as in the real data.
func irisLike(perClass int, seed uint64, floatClass bool) *base.DenseInstances {
	r := &rng{seed}
	species := []string{"setosa", "versicolor", "virginica"}
	means := [][]float64{{5.0, 3.4, 1.5, 0.2}, {5.9, 2.8, 4.3, 1.3}, {6.6, 3.0, 5.6, 2.0}}
	spread := []float64{0.4, 0.3, 0.4, 0.2}
	grid := base.NewDenseInstances()
	var specs []base.AttributeSpec
	for _, name := range []string{"sepal_length", "sepal_width", "petal_length", "petal_width"} {
		specs = append(specs, grid.AddAttribute(base.NewFloatAttribute(name)))
	}
	var classAttr base.Attribute
	if floatClass {
		classAttr = base.NewFloatAttribute("species")
	} else {
		cat := base.NewCategoricalAttribute()
		cat.SetName("species")
		for _, s := range species {
			cat.GetSysValFromString(s)
		}
		classAttr = cat
	}
	classSpec := grid.AddAttribute(classAttr)
	if err := grid.AddClassAttribute(classAttr); err != nil {
		panic(err)
	}
	if err := grid.Extend(3 * perClass); err != nil {
		panic(err)
	}
	row := 0
	for k := range species {
		for range perClass {
			for f, spec := range specs {
				grid.Set(spec, row, base.PackFloatToBytes(means[k][f]+spread[f]*r.normal()))
			}
			if floatClass {
				grid.Set(classSpec, row, base.PackFloatToBytes(float64(10*k)))
			} else {
				grid.Set(classSpec, row, base.PackU64ToBytes(uint64(k)))
			}
			row++
		}
	}
	return grid
}

// TestGolearn trains through golearn's interface and evaluates with
// golearn's confusion matrix: a full tree learns its training data exactly
// (no two rows are equal), and separates the held-out species well
// (setosa perfectly; the overlap of the other two costs a few rows).
func TestGolearn(t *testing.T) {
	train, test := irisLike(50, 1, false), irisLike(200, 2, false)
	var g GolearnClassifier
	if _, err := g.Predict(test); !errors.Is(err, ErrNotFitted) {
		t.Errorf("Predict before Fit: %v", err)
	}
	if err := g.Fit(train); err != nil {
		t.Fatal(err)
	}
	predictions, err := g.Predict(train)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := evaluation.GetConfusionMatrix(train, predictions)
	if err != nil {
		t.Fatal(err)
	}
	if a := evaluation.GetAccuracy(cm); a != 1 {
		t.Errorf("training accuracy %v, want 1\n%s", a, evaluation.GetSummary(cm))
	}
	predictions, err = g.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	cm, err = evaluation.GetConfusionMatrix(test, predictions)
	if err != nil {
		t.Fatal(err)
	}
	if a := evaluation.GetAccuracy(cm); a < 0.85 {
		t.Errorf("test accuracy %v\n%s", a, evaluation.GetSummary(cm))
	}
	if p, r := evaluation.GetPrecision("setosa", cm), evaluation.GetRecall("setosa", cm); p < 0.98 || r < 0.98 {
		t.Errorf("setosa precision %v recall %v\n%s", p, r, evaluation.GetSummary(cm))
	}
	if !strings.Contains(g.String(), "petal_") {
		t.Errorf("String() does not show a petal split:\n%s", g.String())
	}

	// Save and Load through golearn's model file keep the predictions.
	path := filepath.Join(t.TempDir(), "tree.cls")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	var loaded GolearnClassifier
	if err := loaded.Load(path); err != nil {
		t.Fatal(err)
	}
	again, err := loaded.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	_, n := test.Size()
	for r := range n {
		if base.GetClass(again, r) != base.GetClass(predictions, r) {
			t.Fatalf("row %d: loaded model predicts %s, saved one %s", r, base.GetClass(again, r), base.GetClass(predictions, r))
		}
	}
	if md := loaded.GetMetadata(); md.ClassifierName != "graphperf/model/tree.CART" {
		t.Errorf("metadata %+v", md)
	}
}

// TestGolearnFloatClass: golearn's own CART wants a float class attribute;
// it works here too, and so do weights.
func TestGolearnFloatClass(t *testing.T) {
	train := irisLike(30, 3, true)
	_, n := train.Size()
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 + float64(i%3)
	}
	g := GolearnClassifier{Params: Params{MaxDepth: 4}, Weights: w}
	if err := g.Fit(train); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0", "10", "20"}; strings.Join(g.Tree.Classes, " ") != strings.Join(want, " ") {
		t.Errorf("classes %v, want %v", g.Tree.Classes, want)
	}
	predictions, err := g.Predict(train)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := evaluation.GetConfusionMatrix(train, predictions)
	if err != nil {
		t.Fatal(err)
	}
	if a := evaluation.GetAccuracy(cm); a < 0.9 {
		t.Errorf("accuracy %v\n%s", a, evaluation.GetSummary(cm))
	}
}

// TestGolearnUnlabelled: a grid without a class attribute gets the class
// attribute seen by Fit; a grid without a feature is refused.
func TestGolearnUnlabelled(t *testing.T) {
	train := irisLike(20, 4, false)
	var g GolearnClassifier
	if err := g.Fit(train); err != nil {
		t.Fatal(err)
	}
	features := base.NonClassAttributes(train)
	unlabelled := base.NewInstancesViewFromVisible(train, []int{0, 25, 50}, features)
	predictions, err := g.Predict(unlabelled)
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range []string{"setosa", "versicolor", "virginica"} {
		if got := base.GetClass(predictions, r); got != want {
			t.Errorf("row %d: %s, want %s", r, got, want)
		}
	}
	partial := base.NewInstancesViewFromVisible(train, []int{0}, features[1:])
	if _, err := g.Predict(partial); !errors.Is(err, ErrAttribute) {
		t.Errorf("missing feature: %v", err)
	}
	noClass := base.NewInstancesViewFromVisible(train, []int{0, 1}, features)
	if err := new(GolearnClassifier).Fit(noClass); !errors.Is(err, ErrAttribute) {
		t.Errorf("Fit without a class attribute: %v", err)
	}
}
