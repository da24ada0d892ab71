package roofline

import (
	"os"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/model/machine"
)

// TestReport checks a report's ceilings, that every launch of the H100's
// rmat-s18-e8 profile (kernels/measured/h100/ncu) is placed, and that both
// tables declare every column with the kinds their cells have.
func TestReport(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ForMachine(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(m, r)
	tabletest.Declared(t, rep.CeilingsTable(), map[string]string{"ceiling": "text", "bandwidth_GB/s": "number GB/s", "ridge_point": "number warp instructions per transaction"})
	if len(rep.Ceilings) != 1+len(r.Memory) || rep.Ceilings[0].Ceiling != string(Compute) || rep.Ceilings[0].WarpGIPS == nil {
		t.Fatalf("ceilings %+v: want compute first, then %d memory levels", rep.Ceilings, len(r.Memory))
	}
	const file = "../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz"
	f, err := os.Open(file)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	launches, warnings, err := ReadNCU(f, file)
	if err != nil {
		t.Fatal(err)
	}
	as, err := rep.AddLaunches(r, file, launches, warnings)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != len(launches) || len(rep.Launches) != len(launches) || rep.NCU != file {
		t.Fatalf("%d analyses, %d rows of %d launches", len(as), len(rep.Launches), len(launches))
	}
	if len(rep.LevelsUsed()) == 0 {
		t.Error("no memory level used by any launch")
	}
	for _, l := range rep.Launches {
		if l.Level(rep.LevelsUsed()[0]) == nil {
			t.Errorf("launch %s: no row at %s", l.ID, rep.LevelsUsed()[0])
		}
	}
	tabletest.Declared(t, rep.LaunchesTable(), map[string]string{"id": "text", "time_us": "number µs", "L2_txn": "number transactions",
		"II_L2": "number warp instructions per transaction", "pct_of_bound": "number %"})
}
