package tree

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestTrainingRoundTrip: a tree's training provenance survives JSON, and a
// version 1 file written before Training existed still loads, with Training
// nil.
func TestTrainingRoundTrip(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}}
	c, err := Fit(X, []int{0, 0, 1, 1}, nil, []string{"a", "b"}, []string{"x"}, Params{})
	if err != nil {
		t.Fatal(err)
	}
	old, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(old), "training") {
		t.Errorf("a tree without Training writes %s", old)
	}
	c.Training = &Training{Source: "embedded:", Split: "variants", TrainFraction: 0.5, Seed: 7, Weight: "time",
		TrainRows: 3, HeldOutRows: 1, RowsSHA256: "ab"}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Classifier
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Training, c.Training) {
		t.Errorf("training %+v, want %+v", back.Training, c.Training)
	}
	var before Classifier
	if err := json.Unmarshal(old, &before); err != nil || before.Training != nil {
		t.Errorf("old file: err %v, training %+v", err, before.Training)
	}
	bad := strings.Replace(string(data), `"train_fraction":0.5`, `"train_fraction":1.5`, 1)
	if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ErrFormat) {
		t.Errorf("train fraction 1.5: err = %v, want ErrFormat", err)
	}
}
