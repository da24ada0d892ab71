package layout

import (
	"errors"
	"fmt"
	"math/bits"
)

// SectorBytes and LineBytes are the GPU memory granules: an L1/L2
// transaction moves one 32-byte sector; a cache line of 128 bytes holds four
// (NVIDIA, CUDA C++ Best Practices Guide, "Coalesced Access to Global
// Memory"; seed 000 §6.4 counts 32-byte lines per warp instruction).
const (
	SectorBytes = 32
	LineBytes   = 128
	sectorShift = 5
	lineShift   = 7
)

// Array names one buffer of a BFS kernel. The comment of each constant gives
// the element type and the name the CUDA runner uses for it
// (kernels/cuda/runner.cu).
type Array int

const (
	// Offsets: CSR row offsets off[0..n], int64.
	Offsets Array = iota
	// Targets: CSR edge targets tgt[0..m-1], uint32; also the destinations
	// dst[] of the struct-of-arrays edge list (the runner passes tgt_).
	Targets
	// RevOffsets: reverse (in-edge) CSR offsets roff[0..n], int64.
	RevOffsets
	// RevTargets: reverse CSR targets rtgt[0..m-1] (the in-neighbours),
	// uint32; also the sources of the reverse edge list.
	RevTargets
	// EdgeSrc: the edge list's origins el_src[0..m-1], uint32, ordered by
	// source as the CSR.
	EdgeSrc
	// EdgesAoS: the struct edge list el_aos[0..m-1], 8-byte {src, dst}.
	EdgesAoS
	// RevEdgeDst: the reverse edge list's destinations rel_dst[0..m-1],
	// uint32, ordered by destination (the reverse CSR's row of each edge).
	RevEdgeDst
	// RevEdgesAoS: the reverse struct edge list rel_aos[0..m-1], 8-byte
	// {src, dst} ordered by destination.
	RevEdgesAoS
	// Depth: depth[0..n-1], int32, -1 for unreached.
	Depth
	// Counters: the per-level LevelStats struct, counted in 4-byte words:
	// word 0 count (topo: the changed flag), 1 tail, 2 conv_tail, 3 pad,
	// words 4-5 the 64-bit mf.
	Counters
	// Queue and QueueNext: the two frontier queues q_[0], q_[1], uint32,
	// n entries each.
	Queue
	QueueNext
	// QueueDeg and QueueDegNext: the out-degrees beside each queue,
	// qdeg_[0], qdeg_[1], int64.
	QueueDeg
	QueueDegNext
	// QueueOffsets: qoff_, the exclusive scan of the frontier's degrees,
	// int64, n entries.
	QueueOffsets
	// Bitmap and BitmapNext: the dobfs frontier bitmaps bm_[0], bm_[1],
	// uint32 words, ceil(n/32) each.
	Bitmap
	BitmapNext
	// NumArrays is the number of Array values.
	NumArrays
)

var arrayNames = [NumArrays]string{
	"offsets", "targets", "rev-offsets", "rev-targets", "edge-src", "edges-aos",
	"rev-edge-dst", "rev-edges-aos", "depth", "counters", "queue", "queue-next",
	"queue-deg", "queue-deg-next", "queue-offsets", "bitmap", "bitmap-next",
}

// String returns the array's name, "offsets", "depth", ...
func (a Array) String() string {
	if a < 0 || a >= NumArrays {
		return fmt.Sprintf("Array(%d)", int(a))
	}
	return arrayNames[a]
}

// ElemBytes returns the element size the CUDA kernels use for the array.
// It is 0 for a value that names no array.
func (a Array) ElemBytes() uint64 {
	switch {
	case a < 0 || a >= NumArrays:
		return 0
	case a == Offsets || a == RevOffsets || a == EdgesAoS || a == RevEdgesAoS ||
		a == QueueDeg || a == QueueDegNext || a == QueueOffsets:
		return 8
	}
	return 4
}

// CounterWords is the length of the Counters array in 4-byte words
// (sizeof(LevelStats) = 24 bytes).
const CounterWords = 6

// Counter word indices inside Counters.
const (
	CountWord    = 0 // LevelStats.count
	TailWord     = 1 // LevelStats.tail
	ConvTailWord = 2 // LevelStats.conv_tail
	MFWord       = 4 // LevelStats.mf (8 bytes: words 4 and 5)
)

// Region is one array's place in the address space.
type Region struct {
	Array    Array
	Base     uint64 // byte address of element 0, a multiple of Options.Align
	ElemSize uint64 // bytes per element
	Len      int64  // elements
}

// Bytes returns the region's size in bytes.
func (r Region) Bytes() uint64 { return uint64(r.Len) * r.ElemSize }

// End returns the first byte address after the region.
func (r Region) End() uint64 { return r.Base + r.Bytes() }

// Addr returns the byte address of element i. It does not check i.
func (r Region) Addr(i int64) uint64 { return r.Base + uint64(i)*r.ElemSize }

// Options say where the arrays go. The zero value means DefaultBase and
// DefaultAlign with every element size as the CUDA kernels have it.
type Options struct {
	// Base is the address of the first region; 0 means DefaultBase. It is
	// rounded up to Align.
	Base uint64
	// Align is the alignment of every region's base, a power of two of at
	// least 256 (the cudaMalloc guarantee); 0 means DefaultAlign.
	Align uint64
	// ElemBytes overrides the element size of an array (0 keeps
	// Array.ElemBytes): seed 000 figure 4 draws 32-bit row offsets, which
	// ElemBytes[Offsets] = 4 reproduces. Sizes must be 1, 2, 4 or 8.
	ElemBytes [NumArrays]uint64
}

// DefaultBase and DefaultAlign place the first array at 1 TiB, each array
// on a 2 MiB boundary (cudaMalloc hands out large allocations 2 MiB
// aligned). Only the alignment matters to sector and line counts; the base
// matters to a DRAM model that hashes addresses.
const (
	DefaultBase  = 1 << 40
	DefaultAlign = 2 << 20
	minAlign     = 256
)

// ErrBadOptions is returned (wrapped) for an alignment or element size
// that is out of range.
var ErrBadOptions = errors.New("layout: bad options")

// Layout is an immutable placement of arrays.
type Layout struct {
	regions [NumArrays]Region
	present [NumArrays]bool
	opt     Options
}

// New places the arrays with a positive length in lens (indexed by Array;
// a zero length leaves the array out) and returns the layout. O(NumArrays).
func New(lens [NumArrays]int64, opt Options) (*Layout, error) {
	if opt.Align == 0 {
		opt.Align = DefaultAlign
	}
	if opt.Base == 0 {
		opt.Base = DefaultBase
	}
	if opt.Align < minAlign || bits.OnesCount64(opt.Align) != 1 {
		return nil, fmt.Errorf("%w: alignment %d is not a power of two >= %d", ErrBadOptions, opt.Align, minAlign)
	}
	for a, o := range opt.ElemBytes {
		if o != 0 && o != 1 && o != 2 && o != 4 && o != 8 {
			return nil, fmt.Errorf("%w: element size %d for %v is not 1, 2, 4 or 8", ErrBadOptions, o, Array(a))
		}
	}
	l := &Layout{opt: opt}
	next := roundUp(opt.Base, opt.Align)
	for a := Array(0); a < NumArrays; a++ {
		if lens[a] < 0 {
			return nil, fmt.Errorf("%w: %v has negative length %d", ErrBadOptions, a, lens[a])
		}
		if lens[a] == 0 {
			continue
		}
		size := a.ElemBytes()
		if o := opt.ElemBytes[a]; o != 0 {
			size = o
		}
		r := Region{Array: a, Base: next, ElemSize: size, Len: lens[a]}
		l.regions[a] = r
		l.present[a] = true
		next = roundUp(r.End(), opt.Align)
	}
	return l, nil
}

// Lengths returns the length of every array a BFS kernel may need on a graph
// of n vertices and m edges: the arrays named in need get their CUDA
// runner sizes (kernels/cuda/README.md "Limits and notes"), the others 0.
func Lengths(n, m int64, need ...Array) [NumArrays]int64 {
	var lens [NumArrays]int64
	for _, a := range need {
		if a < 0 || a >= NumArrays {
			continue
		}
		switch a {
		case Offsets, RevOffsets:
			lens[a] = n + 1
		case Targets, RevTargets, EdgeSrc, EdgesAoS, RevEdgeDst, RevEdgesAoS:
			lens[a] = m
		case Depth, Queue, QueueNext, QueueDeg, QueueDegNext, QueueOffsets:
			lens[a] = n
		case Counters:
			lens[a] = CounterWords
		case Bitmap, BitmapNext:
			lens[a] = (n + 31) / 32
		}
		if lens[a] == 0 {
			lens[a] = 1 // an empty array still gets an allocation
		}
	}
	return lens
}

// Has reports whether the layout holds the array.
func (l *Layout) Has(a Array) bool { return a >= 0 && a < NumArrays && l.present[a] }

// Region returns the array's region. It panics if the layout does not hold
// the array (a programmer error: the simulator asks for what it needs when
// it builds the layout).
func (l *Layout) Region(a Array) Region {
	if !l.Has(a) {
		panic(fmt.Sprintf("layout: no region for %v", a))
	}
	return l.regions[a]
}

// Regions returns the regions in address order.
func (l *Layout) Regions() []Region {
	var rs []Region
	for a := Array(0); a < NumArrays; a++ {
		if l.present[a] {
			rs = append(rs, l.regions[a])
		}
	}
	return rs
}

// Addr returns the byte address of element i of array a; see Region.Addr.
func (l *Layout) Addr(a Array, i int64) uint64 { return l.Region(a).Addr(i) }

// Find returns the region holding a byte address, and false if none does.
// O(NumArrays).
func (l *Layout) Find(addr uint64) (Region, bool) {
	for a := Array(0); a < NumArrays; a++ {
		if r := l.regions[a]; l.present[a] && addr >= r.Base && addr < r.End() {
			return r, true
		}
	}
	return Region{}, false
}

// Sector returns the index of the 32-byte sector holding addr (addr / 32).
func Sector(addr uint64) uint64 { return addr >> sectorShift }

// Line returns the index of the 128-byte line holding addr (addr / 128).
func Line(addr uint64) uint64 { return addr >> lineShift }

// SectorAddr returns the byte address of the first byte of addr's sector.
func SectorAddr(addr uint64) uint64 { return addr &^ (SectorBytes - 1) }

func roundUp(x, align uint64) uint64 { return (x + align - 1) &^ (align - 1) }
