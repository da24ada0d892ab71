package cache

import (
	"fmt"
	"math/bits"
)

// geometry is the line and sector layout shared by every cache type.
type geometry struct {
	lineBytes, sectorBytes uint64
	lineShift, sectorShift uint
	// sectorIndexMask is sectors per line minus one.
	sectorIndexMask uint64
}

// newGeometry validates a line and sector size; sectorBytes 0 means
// lineBytes (one sector per line).
func newGeometry(lineBytes, sectorBytes int) (geometry, error) {
	// A 1-byte line is refused: the last line of the address space would
	// have key line+1 = 0, the empty-slot marker.
	if lineBytes < 2 || lineBytes&(lineBytes-1) != 0 {
		return geometry{}, fmt.Errorf("line size %d: %w", lineBytes, ErrLineBytes)
	}
	if sectorBytes == 0 {
		sectorBytes = lineBytes
	}
	if sectorBytes < 0 || sectorBytes&(sectorBytes-1) != 0 || sectorBytes > lineBytes ||
		lineBytes/sectorBytes > MaxSectors {
		return geometry{}, fmt.Errorf("sector size %d for %d-byte lines (at most %d sectors): %w",
			sectorBytes, lineBytes, MaxSectors, ErrSectorBytes)
	}
	return geometry{
		lineBytes:       uint64(lineBytes),
		sectorBytes:     uint64(sectorBytes),
		lineShift:       uint(bits.TrailingZeros(uint(lineBytes))),
		sectorShift:     uint(bits.TrailingZeros(uint(sectorBytes))),
		sectorIndexMask: uint64(lineBytes/sectorBytes) - 1,
	}, nil
}

// split returns the line number of addr and the bit of its sector.
func (g *geometry) split(addr uint64) (line uint64, bit uint8) {
	return addr >> g.lineShift, uint8(1) << ((addr >> g.sectorShift) & g.sectorIndexMask)
}
