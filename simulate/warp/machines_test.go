package warp

import "github.com/graphperf/graphperf/model/machine"

// h100Warps and k40cWarps are the physical warps of the embedded machine
// files: 132 SMs x 64 = 8448 on the H100 (h100.yaml), 15 x 64 = 960 on the
// Tesla K40c (k40c.yaml, seed 000 §6.5).
var h100Warps, k40cWarps = physicalWarps("h100"), physicalWarps("k40c")

func physicalWarps(name string) int {
	m, err := machine.Lookup(name)
	if err != nil {
		panic(err)
	}
	return m.PhysicalWarps()
}
