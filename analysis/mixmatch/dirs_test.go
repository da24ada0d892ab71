package mixmatch

import (
	"strings"
	"testing"
)

// TestReportDirs reports the SNAP part of the H100 switch measurement
// (kernels/measured/h100/switch/real, 5 graphs x 5 roots) against the
// embedded H100 dataset, then its synthetic part (graphs) alone and both
// as one report (the same GPU), which has the inputs of both.
func TestReportDirs(t *testing.T) {
	const real, graphs = "../../kernels/measured/h100/switch/real", "../../kernels/measured/h100/switch/graphs"
	rep, err := ReportDirs([]string{real}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Device, "H100") || rep.Reference != "embedded h100" || len(rep.Inputs) != 25 {
		t.Errorf("device %q, reference %q, %d inputs; want an H100, embedded h100, 25", rep.Device, rep.Reference, len(rep.Inputs))
	}
	if rep.WithinSameCall == nil {
		t.Error("no same-call comparison, although the call ran the picks alone")
	}
	synthetic, err := ReportDirs([]string{graphs}, "")
	if err != nil {
		t.Fatal(err)
	}
	both, err := ReportDirs([]string{real, graphs}, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rep.Inputs) + len(synthetic.Inputs); len(both.Inputs) != n {
		t.Errorf("%d inputs from both directories, want %d", len(both.Inputs), n)
	}
}
