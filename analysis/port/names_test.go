package port_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/model/machine"
)

func TestShortNamesAndLegend(t *testing.T) {
	tests := []struct {
		platforms []string
		short     []string
		legend    string
	}{
		{[]string{"NVIDIA H100 80GB HBM3", "NVIDIA H200 (synthetic)"}, []string{"H100", "H200"},
			"H100 = NVIDIA H100 80GB HBM3, H200 = NVIDIA H200 (synthetic)"},
		// Two H100s: the model numbers do not tell them apart.
		{[]string{"NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe"}, []string{"NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe"},
			"NVIDIA H100 80GB HBM3, NVIDIA H100 PCIe"},
		// One name without a model number: every name stays whole.
		{[]string{"NVIDIA H100 80GB HBM3", "my gpu"}, []string{"NVIDIA H100 80GB HBM3", "my gpu"},
			"NVIDIA H100 80GB HBM3, my gpu"},
		// A name that is its own model number stands alone in the legend.
		{[]string{"K40c", "Tesla P100-PCIE-16GB"}, []string{"K40c", "P100"}, "K40c, P100 = Tesla P100-PCIE-16GB"},
		{nil, []string{}, ""},
	}
	for _, tt := range tests {
		if got := port.ShortNames(tt.platforms); !slices.Equal(got, tt.short) {
			t.Errorf("ShortNames(%q) = %q, want %q", tt.platforms, got, tt.short)
		}
		if got := port.Legend(tt.platforms); got != tt.legend {
			t.Errorf("Legend(%q) = %q, want %q", tt.platforms, got, tt.legend)
		}
	}
}

func TestMatchPlatform(t *testing.T) {
	platforms := []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200 (synthetic)"}
	tests := []struct {
		name, want string
		err        string
	}{
		{"h200", "NVIDIA H200 (synthetic)", ""},
		{"SYNTHETIC", "NVIDIA H200 (synthetic)", ""},
		{"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", ""},
		{"nvidia", "", `"nvidia" matches 2 of the platforms ["NVIDIA H100 80GB HBM3" "NVIDIA H200 (synthetic)"]`},
		{"a100", "", `"a100" matches 0 of the platforms ["NVIDIA H100 80GB HBM3" "NVIDIA H200 (synthetic)"]`},
	}
	for _, tt := range tests {
		got, err := port.MatchPlatform(tt.name, platforms)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("MatchPlatform(%q) = %q, %v; want %q, %q", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestMachines(t *testing.T) {
	k40, err := machine.Lookup("k40c")
	if err != nil {
		t.Fatal(err)
	}
	platforms := []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200 (synthetic)"}
	given := map[string]*machine.Machine{platforms[1]: k40}
	got, err := port.Machines(platforms, given)
	if err != nil {
		t.Fatal(err)
	}
	// The H100's is the embedded h100.yaml its device name names; the
	// second platform's the one given.
	if len(got) != 2 || got[platforms[0]].Name != "h100" || got[platforms[1]] != k40 {
		t.Errorf("Machines = %v", got)
	}
	if len(given) != 1 {
		t.Errorf("Machines changed given: %v", given)
	}
	// A device name naming no embedded machine needs one given.
	if _, err := port.Machines([]string{"NVIDIA A100"}, nil); !errors.Is(err, machine.ErrUnknownMachine) {
		t.Errorf("Machines(A100) error %v, want %v", err, machine.ErrUnknownMachine)
	}
	if got, err := port.Machines([]string{"NVIDIA A100"}, map[string]*machine.Machine{"NVIDIA A100": k40}); err != nil || got["NVIDIA A100"] != k40 {
		t.Errorf("Machines(A100 given) = %v, %v", got, err)
	}
}
