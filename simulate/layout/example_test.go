package layout_test

import (
	"fmt"

	"github.com/graphperf/graphperf/simulate/layout"
)

// Where the loads of seed 000 figure 4 land: the row offsets of nodes B
// (1) and E (4) of the figure 2 graph.
func ExampleLayout_Addr() {
	l, err := layout.New(layout.Lengths(6, 6, layout.Offsets, layout.Targets, layout.Depth), layout.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	base := l.Region(layout.Offsets).Base
	for _, v := range []int64{1, 2, 4, 5} {
		a := l.Addr(layout.Offsets, v)
		fmt.Printf("off[%d]: byte %d, sector %d, line %d\n", v, a-base, layout.Sector(a)-layout.Sector(base), layout.Line(a)-layout.Line(base))
	}
	// Output:
	// off[1]: byte 8, sector 0, line 0
	// off[2]: byte 16, sector 0, line 0
	// off[4]: byte 32, sector 1, line 0
	// off[5]: byte 40, sector 1, line 0
}
