package queue

import (
	"strconv"
	"testing"
)

// gpuLike is a closed network shaped like seed 000 §6.4's GPU memory model:
// warps (jobs) alternate between issue (think time) and visits to three
// load-dependent memory servers (L2 hit, row-buffer hit, row-buffer miss).
// Visits 0.62 and 0.31 are seed 000 §6.4's V_L2H and V_RBM for figure 4
// (V_RBH = 0 there; 0.1 here so that all three centers count); the latency
// curves are illustrative. Only the shape matters for timing.
func gpuLike(b *testing.B) Network {
	curve := func(points ...CurvePoint) func(float64) float64 {
		c, err := NewLatencyCurve(points)
		if err != nil {
			b.Fatal(err)
		}
		return c.ServiceTime
	}
	return Network{ThinkTime: 500, Centers: []Center{
		{Name: "L2H", Kind: LoadDependent, Visits: 0.62, ServiceAt: curve(CurvePoint{1, 150}, CurvePoint{1024, 600})},
		{Name: "RBH", Kind: LoadDependent, Visits: 0.1, ServiceAt: curve(CurvePoint{1, 300}, CurvePoint{512, 900})},
		{Name: "RBM", Kind: LoadDependent, Visits: 0.31, ServiceAt: curve(CurvePoint{1, 350}, CurvePoint{256, 1500})},
	}}
}

func BenchmarkMVALoadDependent(b *testing.B) {
	for _, N := range []int{256, 2048} {
		b.Run("N="+strconv.Itoa(N), func(b *testing.B) {
			net := gpuLike(b)
			for b.Loop() {
				if _, err := MVA(net, N); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMVAQueueing(b *testing.B) {
	for b.Loop() {
		if _, err := MVA(lazowska(), 2048); err != nil {
			b.Fatal(err)
		}
	}
}
