package dram

// Stats counts row-buffer hits and misses.
type Stats struct {
	// Hits counts accesses to an open row (RBH).
	Hits uint64
	// Misses counts accesses that opened a row (RBM): the bank activations.
	Misses uint64
}

// Accesses returns Hits + Misses.
func (s Stats) Accesses() uint64 { return s.Hits + s.Misses }

// HitRate returns Hits/Accesses, or 0 without accesses.
func (s Stats) HitRate() float64 {
	if s.Accesses() == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Accesses())
}
