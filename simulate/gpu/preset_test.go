package gpu

import (
	"errors"
	"testing"
)

// TestPresetConfig: a preset's Config carries its geometry and refuses
// the models it has no geometry for, and models that do not exist.
func TestPresetConfig(t *testing.T) {
	h100, _ := LookupPreset("h100")
	cfg, err := h100.Config("topo", L2Sectored, DRAMBanked)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kernel != "topo" || cfg.L2 != L2Sectored || cfg.DRAM != DRAMBanked || cfg.PhysicalWarps != h100.PhysicalWarps ||
		cfg.FullyAssociative != h100.FullyAssociative || cfg.RowBuffers != h100.RowBuffers || cfg.ColdLevels || cfg.L1 != (Config{}).L1 {
		t.Errorf("h100 config %+v", cfg)
	}
	k40c, ok := LookupPreset("k40c")
	if !ok {
		t.Fatal("no k40c preset")
	}
	if _, err := k40c.Config("topo", L2FullyAssociative, DRAMPaper); err != nil {
		t.Errorf("k40c fa/paper: %v", err)
	}
	for _, tt := range []struct {
		p        Preset
		l2, dram string
		want     ModelError
	}{
		{k40c, L2Sectored, DRAMPaper, ModelError{Model: "l2", Name: L2Sectored}},
		{k40c, L2FullyAssociative, DRAMBanked, ModelError{Model: "dram", Name: DRAMBanked}},
		{h100, "bogus", "bogus", ModelError{Model: "l2", Name: "bogus", Unknown: true}},
		{h100, L2Sectored, "bogus", ModelError{Model: "dram", Name: "bogus", Unknown: true}},
	} {
		_, err := tt.p.Config("topo", tt.l2, tt.dram)
		var me *ModelError
		if !errors.As(err, &me) || *me != tt.want {
			t.Errorf("l2 %s, dram %s: %v, want %+v", tt.l2, tt.dram, err, tt.want)
		}
	}
}
