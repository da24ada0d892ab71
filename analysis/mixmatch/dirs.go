package mixmatch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
)

// DeviceReport is a Report with the GPU the switch was measured on and the
// dataset it was compared with, as "graphperf bench switch --report
// --json" prints it.
type DeviceReport struct {
	Device    string `json:"device"`
	Reference string `json:"reference"`
	*Report
}

// EmbeddedDirs are the switch measurements embedded with the H100 dataset
// (kernels/measured/h100/switch: the SNAP graphs and 32 held-out
// synthetic graphs), unpacked into the dataset's cache directory.
func EmbeddedDirs() ([]string, error) {
	d, err := measured.Get("h100")
	if err != nil {
		return nil, err
	}
	dir, err := d.Dir()
	if err != nil {
		return nil, err
	}
	return []string{filepath.Join(dir, "switch", "real"), filepath.Join(dir, "switch", "graphs")}, nil
}

// ReportDirs reads switch results directories (LoadDir), measured on one
// GPU, as one measurement and compares it (Compare, then WithSameCall)
// with a reference dataset: the directory dataDir, or without it the
// embedded dataset of that GPU (Platform). The conversions' predicted cost
// is that of the GPU's embedded machine description, left out when there
// is none. The directories' warnings come first in the report's. No
// directories (nil or empty) are the switch measurements embedded with the
// H100 dataset (EmbeddedDirs).
func ReportDirs(dirs []string, dataDir string) (*DeviceReport, error) {
	if len(dirs) == 0 {
		var err error
		if dirs, err = EmbeddedDirs(); err != nil {
			return nil, err
		}
	}
	m, err := loadDirs(dirs)
	if err != nil {
		return nil, err
	}
	fsys, source, err := referenceFS(m.Device, dataDir)
	if err != nil {
		return nil, err
	}
	ref, w, err := ReferenceRuns(fsys, m.Graphs)
	if err != nil {
		return nil, err
	}
	warnings := append(m.Warnings, w...)
	rep, err := Compare(m.Totals, m.Predicted, deviceConversions(m), ref)
	if err != nil {
		return nil, err
	}
	rep.WithSameCall(m.SameCall)
	rep.Warnings = append(warnings, rep.Warnings...)
	return &DeviceReport{Device: m.Device, Reference: source, Report: rep}, nil
}

// DeviceMismatchError is a list of results directories measured on two
// GPUs: Dir on Device, an earlier one on Earlier.
type DeviceMismatchError struct{ Dir, Device, Earlier string }

func (e *DeviceMismatchError) Error() string {
	return fmt.Sprintf("%s was measured on %s, an earlier directory on %s", e.Dir, e.Device, e.Earlier)
}

// loadDirs reads every directory of dirs (LoadDir) into one Measurement;
// they must name the same GPU, where they name one.
func loadDirs(dirs []string) (*Measurement, error) {
	all := &Measurement{Predicted: map[aggregate.Input]float64{}}
	for _, dir := range dirs {
		m, err := LoadDir(dir)
		if err != nil {
			return nil, err
		}
		if all.Device != "" && m.Device != "" && m.Device != all.Device {
			return nil, &DeviceMismatchError{Dir: dir, Device: m.Device, Earlier: all.Device}
		}
		if all.Device == "" {
			all.Device = m.Device
		}
		all.Totals = append(all.Totals, m.Totals...)
		all.SwitchLevels = append(all.SwitchLevels, m.SwitchLevels...)
		all.SameCall = append(all.SameCall, m.SameCall...)
		for k, v := range m.Predicted {
			all.Predicted[k] = v
		}
		all.Graphs = append(all.Graphs, m.Graphs...)
		all.Warnings = append(all.Warnings, m.Warnings...)
	}
	return all, nil
}

// referenceFS is the reference dataset: the directory dataDir, or the
// embedded dataset of device; source names it.
func referenceFS(device, dataDir string) (fsys fs.FS, source string, err error) {
	if dataDir != "" {
		return os.DirFS(dataDir), dataDir, nil
	}
	p, err := Platform(device)
	if err != nil {
		return nil, "", err
	}
	d, err := measured.Get(p)
	if err != nil {
		return nil, "", err
	}
	return d.FS(), "embedded " + p, nil
}

// deviceConversions is PredictedConversions of m's switch levels with the
// physics of m's GPU's embedded machine description; nil when there is
// none.
func deviceConversions(m *Measurement) map[aggregate.Input]float64 {
	p, err := Platform(m.Device)
	if err != nil {
		return nil
	}
	mach, err := machine.Lookup(p)
	if err != nil {
		return nil
	}
	ph, err := predict.NewPhysics(mach)
	if err != nil {
		return nil
	}
	return PredictedConversions(m.SwitchLevels, ph)
}
