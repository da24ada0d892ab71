package gpu

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
	"github.com/graphperf/graphperf/simulate/warp"
)

// Preset is a GPU the simulation knows by name: its physical warps and
// the default geometries of its cache and DRAM models (zero where none
// exists).
type Preset struct {
	// PhysicalWarps is W_max's resident warps; FullyAssociative and
	// RowBuffers the "fa" L2 and "paper" row-buffer geometries.
	PhysicalWarps    int
	FullyAssociative cache.FullyAssociativeConfig
	RowBuffers       dram.RowBufferConfig
	// Sectored and Banked say whether the "sectored" L2 and "banked" DRAM
	// models have a geometry for the machine.
	Sectored, Banked bool
	// L1 is the per-SM L1 the operator machine's simulation puts in front
	// of the L2 (zero: none, seed 000's K40c); Unroll the edge loops'
	// unrolling of the machine's measured kernels (warp.Config.Unroll).
	L1     cache.FullyAssociativeConfig
	Unroll int
	// Machine is the GPU whose geometry Simulate takes the models' other
	// sizes from (Config.Machine; nil: the H100).
	Machine *machine.Machine
}

// LookupPreset returns the Preset called name (case does not matter): the
// H100 of h100.yaml (DefaultGeometry), the H200 of h200.yaml (its
// GeometryOf: the same SM and L1, 60 MiB of L2), or seed 000's K40c (the
// physical warps of k40c.yaml, seed 000's 32-byte-line L2 and row buffers).
func LookupPreset(name string) (Preset, bool) {
	switch strings.ToLower(name) {
	case "h100":
		g := DefaultGeometry()
		return Preset{PhysicalWarps: g.PhysicalWarps, FullyAssociative: g.FullyAssociative, RowBuffers: g.RowBuffers,
			Sectored: true, Banked: true, L1: g.L1, Unroll: warp.NVCCUnroll}, true
	case "h200":
		h200, err := machine.Lookup("h200")
		if err != nil {
			return Preset{}, false
		}
		g, err := GeometryOf(h200)
		if err != nil {
			return Preset{}, false
		}
		return Preset{PhysicalWarps: g.PhysicalWarps, FullyAssociative: g.FullyAssociative, RowBuffers: g.RowBuffers,
			Sectored: true, Banked: true, L1: g.L1, Unroll: warp.NVCCUnroll, Machine: h200}, true
	case "k40c":
		k40c, err := machine.Lookup("k40c")
		if err != nil {
			return Preset{}, false
		}
		return Preset{PhysicalWarps: k40c.PhysicalWarps(), FullyAssociative: cache.K40cL2, RowBuffers: dram.K40cRowBuffers}, true
	}
	return Preset{}, false
}

// ModelError is an L2 or DRAM model a Preset cannot simulate: Model is
// "l2" or "dram", Name the model asked for; Unknown says no machine has
// it, otherwise the preset has no geometry for it.
type ModelError struct {
	Model, Name string
	Unknown     bool
}

func (e *ModelError) Error() string {
	if e.Unknown {
		return fmt.Sprintf("unknown %s model %q", e.Model, e.Name)
	}
	return fmt.Sprintf("no %s %s geometry for the machine", e.Name, e.Model)
}

// Config is the Config of kernel on p with the L2 model l2 (L2FullyAssociative
// or L2Sectored) and the DRAM model dramModel (DRAMPaper or DRAMBanked):
// its physical warps, the "fa" and "paper" geometries and its machine;
// ColdLevels, L1 and Warp are left zero. A model that does not exist, or
// that p has no geometry for, is a *ModelError (the L2's first). O(1).
func (p Preset) Config(kernel, l2, dramModel string) (Config, error) {
	cfg := Config{Kernel: kernel, L2: l2, DRAM: dramModel, PhysicalWarps: p.PhysicalWarps,
		FullyAssociative: p.FullyAssociative, RowBuffers: p.RowBuffers, Machine: p.Machine}
	switch l2 {
	case L2FullyAssociative:
	case L2Sectored:
		if !p.Sectored {
			return cfg, &ModelError{Model: "l2", Name: l2}
		}
	default:
		return cfg, &ModelError{Model: "l2", Name: l2, Unknown: true}
	}
	switch dramModel {
	case DRAMPaper:
	case DRAMBanked:
		if !p.Banked {
			return cfg, &ModelError{Model: "dram", Name: dramModel}
		}
	default:
		return cfg, &ModelError{Model: "dram", Name: dramModel, Unknown: true}
	}
	return cfg, nil
}
