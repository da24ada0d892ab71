package cost

import (
	"fmt"
	"strings"
)

// ParseKernel parses a PageRank kernel name as Kernel.String writes it
// ("edge-list", "vertex-pull-nodiv", "consolidate", ...). It returns an
// error wrapping ErrUnknownKernel for any other name.
func ParseKernel(name string) (Kernel, error) {
	for _, k := range Kernels() {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want one of %s)", ErrUnknownKernel, name, strings.Join(kernelNames[:], ", "))
}

// ParseModel parses "abstract" or "concrete".
func ParseModel(name string) (Model, error) {
	switch name {
	case "concrete":
		return Concrete, nil
	case "abstract":
		return Abstract, nil
	}
	return 0, fmt.Errorf("cost: unknown model %q (want abstract or concrete)", name)
}
