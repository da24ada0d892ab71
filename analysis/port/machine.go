package port

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
)

// MachineFor returns the embedded machine file of a platform: the one whose
// name ("h100") the platform's device name contains, ignoring case ("NVIDIA
// H100 80GB HBM3"). The error wraps machine.ErrUnknownMachine when no
// embedded machine's name is in the device name, or several are.
func MachineFor(platform string) (*machine.Machine, error) {
	var found []string
	for _, n := range machine.Names() {
		if strings.Contains(strings.ToLower(platform), n) {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("%w for platform %q (embedded: %s): give its machine file", machine.ErrUnknownMachine, platform, strings.Join(machine.Names(), ", "))
	}
	return machine.Lookup(found[0])
}
