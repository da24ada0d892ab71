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

// MatchPlatform returns the one platform of platforms that is name or
// whose name contains it, ignoring case ("h200" for "NVIDIA H200"). It is
// an error when none or several do.
func MatchPlatform(name string, platforms []string) (string, error) {
	var match []string
	for _, p := range platforms {
		if p == name || strings.Contains(strings.ToLower(p), strings.ToLower(name)) {
			match = append(match, p)
		}
	}
	if len(match) != 1 {
		return "", fmt.Errorf("%q matches %d of the platforms %q", name, len(match), platforms)
	}
	return match[0], nil
}

// Machines returns the machine file of every platform: given[platform]
// where it has one, else MachineFor(platform). given is not changed.
func Machines(platforms []string, given map[string]*machine.Machine) (map[string]*machine.Machine, error) {
	out := map[string]*machine.Machine{}
	for p, m := range given {
		out[p] = m
	}
	for _, p := range platforms {
		if out[p] != nil {
			continue
		}
		m, err := MachineFor(p)
		if err != nil {
			return nil, err
		}
		out[p] = m
	}
	return out, nil
}
