package predict

import (
	"fmt"

	"github.com/graphperf/graphperf/model/machine"
)

// MachineMismatchError is a machine other than the one a model was
// trained with.
type MachineMismatchError struct {
	Machine string // the machine given
	Trained string // the model's
}

func (e *MachineMismatchError) Error() string {
	return fmt.Sprintf("machine %s: the model was trained with machine %s", e.Machine, e.Trained)
}

// PhysicsFor is NewPhysics of mach after checking that m was trained with
// mach: a *MachineMismatchError when not (a model that names no machine
// fits any).
func PhysicsFor(m *Model, mach *machine.Machine) (Physics, error) {
	if m.Machine != "" && mach.Name != m.Machine {
		return Physics{}, &MachineMismatchError{Machine: mach.Name, Trained: m.Machine}
	}
	return NewPhysics(mach)
}
