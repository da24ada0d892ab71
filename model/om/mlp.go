package om

import "github.com/graphperf/graphperf/model/machine"

// BytesInFlight returns the bytes that must be in flight to sustain
// bandwidth at latency, by Little's law: B = X R (seed 000 §7.3).
// O(1).
func BytesInFlight(bandwidth machine.BytesPerSecond, latency machine.Nanoseconds) float64 {
	return float64(bandwidth) * float64(latency) * 1e-9
}

// MLPGap compares the requests in flight that peak bandwidth needs with
// those a kernel achieves.
type MLPGap struct {
	// NeededBytes is BytesInFlight; NeededRequests the same in 32-byte
	// requests (machine.TransactionBytes).
	NeededBytes    float64 `json:"needed_bytes"`
	NeededRequests float64 `json:"needed_requests"`
	// Achieved is the achieved MLP in requests; Share Achieved /
	// NeededRequests.
	Achieved float64 `json:"achieved"`
	Share    float64 `json:"share"`
}

// CompareMLP returns the MLP gap of seed 000 §7.3: the 32-byte requests in
// flight needed for bandwidth at latency against achieved (for instance
// the DRAM MLP m_RBH + m_RBM of a GPUPrediction). O(1).
func CompareMLP(bandwidth machine.BytesPerSecond, latency machine.Nanoseconds, achieved float64) MLPGap {
	b := BytesInFlight(bandwidth, latency)
	g := MLPGap{NeededBytes: b, NeededRequests: b / machine.TransactionBytes, Achieved: achieved}
	if g.NeededRequests > 0 {
		g.Share = achieved / g.NeededRequests
	}
	return g
}
