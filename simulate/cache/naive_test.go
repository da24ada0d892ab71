package cache

import "math/bits"

// naiveLRU is the reference for the fully-associative cache: a slice of
// lines ordered from most to least recently used, searched and shifted in
// O(lines) per access, with statistics counted directly in bytes.
type naiveLRU struct {
	lines                  []naiveLine // lines[0] is the most recently used
	capacity               int
	lineBytes, sectorBytes uint64
	stats                  Stats
}

type naiveLine struct {
	line         uint64
	valid, dirty uint8
}

func newNaiveLRU(capacity, lineBytes, sectorBytes int) *naiveLRU {
	return &naiveLRU{capacity: capacity, lineBytes: uint64(lineBytes), sectorBytes: uint64(sectorBytes)}
}

// access returns the outcome and the evicted line, if any.
func (n *naiveLRU) access(addr uint64, isStore bool) (Result, Eviction, bool) {
	line := addr / n.lineBytes
	bit := uint8(1) << (addr % n.lineBytes / n.sectorBytes)
	op := &n.stats.Load
	if isStore {
		op = &n.stats.Store
	}
	sector := Counter{1, n.sectorBytes}
	for i, l := range n.lines {
		if l.line != line {
			continue
		}
		copy(n.lines[1:i+1], n.lines[:i])
		result := Hit
		if l.valid&bit == 0 {
			result = SectorMiss
			op.Miss = op.Miss.Add(sector)
			op.SectorMiss = op.SectorMiss.Add(sector)
		} else {
			op.Hit = op.Hit.Add(sector)
		}
		l.valid |= bit
		if isStore {
			l.dirty |= bit
		}
		n.lines[0] = l
		return result, Eviction{}, false
	}
	op.Miss = op.Miss.Add(sector)
	var ev Eviction
	evicted := false
	if len(n.lines) == n.capacity {
		v := n.lines[len(n.lines)-1]
		n.lines = n.lines[:len(n.lines)-1]
		ev = Eviction{Addr: v.line * n.lineBytes, Valid: v.valid, Dirty: v.dirty}
		evicted = true
		op.Evict = op.Evict.Add(Counter{1, uint64(bits.OnesCount8(v.valid)) * n.sectorBytes})
		if v.dirty != 0 {
			op.WriteBack = op.WriteBack.Add(Counter{1, uint64(bits.OnesCount8(v.dirty)) * n.sectorBytes})
		}
	}
	l := naiveLine{line: line, valid: bit}
	if isStore {
		l.dirty = bit
	}
	n.lines = append(n.lines, naiveLine{})
	copy(n.lines[1:], n.lines)
	n.lines[0] = l
	return LineMiss, ev, evicted
}

// index returns the position of line in n.lines, or -1.
func (n *naiveLRU) index(line uint64) int {
	for i, l := range n.lines {
		if l.line == line {
			return i
		}
	}
	return -1
}

// find reports whether line is resident.
func (n *naiveLRU) find(line uint64) (int, bool) {
	i := n.index(line)
	return i, i >= 0
}
