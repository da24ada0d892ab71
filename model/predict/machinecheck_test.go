package predict

import (
	"errors"
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
)

func TestPhysicsFor(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	h200, err := machine.Lookup("h200")
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewPhysics(h100)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*Model{{Machine: "h100"}, {}} { // the model's machine, or a model that names none
		got, err := PhysicsFor(m, h100)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("model of %q on h100: %+v, %v; want NewPhysics(h100)", m.Machine, got, err)
		}
	}
	_, err = PhysicsFor(&Model{Machine: "h100"}, h200)
	var mm *MachineMismatchError
	if !errors.As(err, &mm) || mm.Machine != "h200" || mm.Trained != "h100" ||
		err.Error() != "machine h200: the model was trained with machine h100" {
		t.Errorf("h100 model on h200: %v", err)
	}
}
