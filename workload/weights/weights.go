package weights

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/workload/graph"
)

// Defaults of the weight scheme (doc.go).
const (
	DefaultMaxWeight = 64
	DefaultSeed      = 1
)

// File constants; the layout is in doc.go.
const (
	Magic      = "GPW1"
	Version    = 1
	HeaderSize = 64
	// SchemeHash marks weights computed by Weight; SchemeOther weights
	// that came from elsewhere.
	SchemeOther = 0
	SchemeHash  = 1
)

// Errors of the reader.
var (
	ErrNotGPW   = errors.New("weights: not a .gpw file (bad magic)")
	ErrMismatch = errors.New("weights: the weights belong to another graph")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// splitmix64 is the SplitMix64 output function applied to x + golden gamma.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Weight returns the weight of edge (u, v), an integer in 1..maxWeight,
// the same for (v, u) (doc.go gives the formula). It panics if maxWeight is
// 0 (a programmer error).
func Weight(u, v uint32, maxWeight uint32, seed uint64) uint32 {
	if maxWeight == 0 {
		panic("weights: Weight with maxWeight 0")
	}
	lo, hi := u, v
	if lo > hi {
		lo, hi = hi, lo
	}
	key := uint64(lo)<<32 | uint64(hi)
	z := splitmix64(key ^ splitmix64(seed))
	return 1 + uint32(z%uint64(maxWeight))
}

// Generate returns the weights of g's edges in CSR order (weight i belongs
// to g.Targets[i]). O(m).
func Generate(g *graph.CSR, maxWeight uint32, seed uint64) []uint32 {
	w := make([]uint32, len(g.Targets))
	for u := range g.NumVertices() {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			w[i] = Weight(uint32(u), g.Targets[i], maxWeight, seed)
		}
	}
	return w
}

// Transpose returns the in-edge CSR of g with the weight of each in-edge,
// in-lists sorted by source, by a counting sort: in-edge j of v from u
// carries the weight of u's out-edge to v. For multi-edges the copies keep
// their relative order. O(n + m).
func Transpose(g *graph.CSR, w []uint32) (*graph.CSR, []uint32) {
	if len(w) != len(g.Targets) {
		panic(fmt.Sprintf("weights: Transpose with %d weights for %d edges", len(w), len(g.Targets)))
	}
	n := g.NumVertices()
	r := &graph.CSR{Directed: g.Directed, Offsets: make([]int64, n+1), Targets: make([]uint32, len(g.Targets))}
	for _, t := range g.Targets {
		r.Offsets[t+1]++
	}
	for v := range n {
		r.Offsets[v+1] += r.Offsets[v]
	}
	next := make([]int64, n)
	copy(next, r.Offsets[:n])
	rw := make([]uint32, len(w))
	for u := range n {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			t := g.Targets[i]
			r.Targets[next[t]] = uint32(u)
			rw[next[t]] = w[i]
			next[t]++
		}
	}
	return r, rw
}

// MaxDistanceFits reports whether every shortest-path distance of a graph
// with n vertices and weights at most maxWeight fits a uint32 below the
// "unreached" value 2^32-1: (n-1)·maxWeight < 2^32-1.
func MaxDistanceFits(n int, maxWeight uint32) bool {
	if n <= 1 {
		return true
	}
	return uint64(n-1)*uint64(maxWeight) < math.MaxUint32
}

// Header is a .gpw file's header.
type Header struct {
	N, M      uint64
	GraphCRC  uint32 // the .gpg header's CRC-32C
	MaxWeight uint32
	Seed      uint64
	Scheme    uint32
	CRC       uint32 // of the payload; set by Write, checked by Read
}

func (h Header) encode() []byte {
	b := make([]byte, HeaderSize)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[4:], Version)
	binary.LittleEndian.PutUint64(b[8:], h.N)
	binary.LittleEndian.PutUint64(b[16:], h.M)
	binary.LittleEndian.PutUint32(b[24:], h.GraphCRC)
	binary.LittleEndian.PutUint32(b[28:], h.MaxWeight)
	binary.LittleEndian.PutUint64(b[32:], h.Seed)
	binary.LittleEndian.PutUint32(b[40:], h.Scheme)
	binary.LittleEndian.PutUint32(b[44:], h.CRC)
	return b
}

// Size returns the byte size of a .gpw file for m edges.
func Size(m uint64) uint64 { return HeaderSize + 4*m + 4*(m%2) }

func payload(w []uint32) []byte {
	b := make([]byte, 4*len(w)+4*(len(w)%2))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// Write writes a .gpw file of weights w with header h (h.M is set to
// len(w), h.CRC computed). Every weight must be in 1..h.MaxWeight.
func Write(out io.Writer, h Header, w []uint32) error {
	h.M = uint64(len(w))
	for i, x := range w {
		if x == 0 || x > h.MaxWeight {
			return fmt.Errorf("weights: weight %d of edge %d outside 1..%d", x, i, h.MaxWeight)
		}
	}
	p := payload(w)
	h.CRC = crc32.Checksum(p, castagnoli)
	bw := bufio.NewWriter(out)
	if _, err := bw.Write(h.encode()); err != nil {
		return err
	}
	if _, err := bw.Write(p); err != nil {
		return err
	}
	return bw.Flush()
}

// Read reads a .gpw file; size is its byte length, or -1 when unknown.
// It checks magic, version, size, CRC and the weight range; matching the
// header to a graph is Check's job.
func Read(r io.Reader, size int64) (Header, []uint32, error) {
	hb := make([]byte, HeaderSize)
	if _, err := io.ReadFull(r, hb); err != nil {
		return Header{}, nil, fmt.Errorf("weights: reading the %d-byte header: %w", HeaderSize, err)
	}
	if string(hb[:4]) != Magic {
		return Header{}, nil, ErrNotGPW
	}
	if v := binary.LittleEndian.Uint32(hb[4:]); v != Version {
		return Header{}, nil, fmt.Errorf("weights: .gpw version %d, this reader knows version %d", v, Version)
	}
	h := Header{
		N: binary.LittleEndian.Uint64(hb[8:]), M: binary.LittleEndian.Uint64(hb[16:]),
		GraphCRC: binary.LittleEndian.Uint32(hb[24:]), MaxWeight: binary.LittleEndian.Uint32(hb[28:]),
		Seed: binary.LittleEndian.Uint64(hb[32:]), Scheme: binary.LittleEndian.Uint32(hb[40:]),
		CRC: binary.LittleEndian.Uint32(hb[44:]),
	}
	for _, b := range hb[48:] {
		if b != 0 {
			return Header{}, nil, errors.New("weights: reserved header bytes are not zero")
		}
	}
	if h.M > 1<<40 {
		return Header{}, nil, fmt.Errorf("weights: header says %d edges, more than this reader accepts (2^40)", h.M)
	}
	if h.MaxWeight == 0 {
		return Header{}, nil, errors.New("weights: header says the largest weight is 0")
	}
	if h.Scheme != SchemeHash && h.Scheme != SchemeOther {
		return Header{}, nil, fmt.Errorf("weights: unknown scheme %d", h.Scheme)
	}
	if size >= 0 && uint64(size) != Size(h.M) {
		return Header{}, nil, fmt.Errorf("weights: file is %d bytes, the header (%d edges) needs %d: truncated or corrupted", size, h.M, Size(h.M))
	}
	want := int64(4*h.M + 4*(h.M%2))
	var p []byte
	if size >= 0 {
		// The size matched the header: allocate once.
		p = make([]byte, want)
		if _, err := io.ReadFull(r, p); err != nil {
			return Header{}, nil, fmt.Errorf("weights: reading %d weights: %w", h.M, err)
		}
	} else {
		// Unknown size: grow with the data, so a bad header cannot make us
		// allocate what the stream does not hold.
		var buf bytes.Buffer
		if n, err := io.CopyN(&buf, r, want); err != nil {
			return Header{}, nil, fmt.Errorf("weights: reading %d weights: got %d of %d bytes: %w", h.M, n, want, err)
		}
		p = buf.Bytes()
	}
	if c := crc32.Checksum(p, castagnoli); c != h.CRC {
		return Header{}, nil, fmt.Errorf("weights: checksum mismatch (file %08x, computed %08x): the file is corrupted", h.CRC, c)
	}
	w := make([]uint32, h.M)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(p[4*i:])
		if w[i] == 0 || w[i] > h.MaxWeight {
			return Header{}, nil, fmt.Errorf("weights: weight %d of edge %d outside 1..%d", w[i], i, h.MaxWeight)
		}
	}
	return h, w, nil
}

// Check reports whether h belongs to graph g whose .gpg CRC is graphCRC;
// the error wraps ErrMismatch. With verify, hash-scheme weights are also
// recomputed from g and compared (O(m)).
func Check(h Header, w []uint32, g *graph.CSR, graphCRC uint32, verify bool) error {
	if h.N != uint64(g.NumVertices()) || h.M != uint64(g.NumEdges()) || h.GraphCRC != graphCRC {
		return fmt.Errorf("%w: weights for n=%d m=%d crc=%08x, graph n=%d m=%d crc=%08x",
			ErrMismatch, h.N, h.M, h.GraphCRC, g.NumVertices(), g.NumEdges(), graphCRC)
	}
	if verify && h.Scheme == SchemeHash {
		for u := range g.NumVertices() {
			for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
				if want := Weight(uint32(u), g.Targets[i], h.MaxWeight, h.Seed); w[i] != want {
					return fmt.Errorf("%w: edge %d (%d->%d) has weight %d, the scheme gives %d", ErrMismatch, i, u, g.Targets[i], w[i], want)
				}
			}
		}
	}
	return nil
}

// GraphCRC returns the CRC-32C stored in the header of the .gpg file at
// path (offset 32, workload/graph/doc.go), after checking its magic.
func GraphCRC(path string) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	hb := make([]byte, graph.GPGHeaderSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return 0, fmt.Errorf("%s: reading the .gpg header: %w", path, err)
	}
	if string(hb[:4]) != graph.GPGMagic {
		return 0, fmt.Errorf("%s: %w", path, graph.ErrNotGPG)
	}
	return binary.LittleEndian.Uint32(hb[32:]), nil
}

// SidecarPath returns the .gpw path of a .gpg path: NAME.gpg -> NAME.gpw.
func SidecarPath(gpgPath string) string {
	return strings.TrimSuffix(gpgPath, ".gpg") + ".gpw"
}

// Save writes the hash-scheme weights of g, the graph of the .gpg file at
// gpgPath, to its sidecar (SidecarPath), through a temporary file renamed
// into place. It returns the sidecar's path.
func Save(gpgPath string, g *graph.CSR, maxWeight uint32, seed uint64) (string, error) {
	crc, err := GraphCRC(gpgPath)
	if err != nil {
		return "", err
	}
	if !MaxDistanceFits(g.NumVertices(), maxWeight) {
		return "", fmt.Errorf("weights: %d vertices with weights up to %d may overflow uint32 distances", g.NumVertices(), maxWeight)
	}
	path := SidecarPath(gpgPath)
	w := Generate(g, maxWeight, seed)
	h := Header{N: uint64(g.NumVertices()), GraphCRC: crc, MaxWeight: maxWeight, Seed: seed, Scheme: SchemeHash}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	if err := Write(f, h, w); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return path, nil
}

// Load reads the sidecar of the .gpg file at gpgPath and checks it against
// g, the graph read from that file (Check, with verify).
func Load(gpgPath string, g *graph.CSR) (Header, []uint32, error) {
	crc, err := GraphCRC(gpgPath)
	if err != nil {
		return Header{}, nil, err
	}
	path := SidecarPath(gpgPath)
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Header{}, nil, err
	}
	h, w, err := Read(bufio.NewReaderSize(f, 1<<20), st.Size())
	if err != nil {
		return Header{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := Check(h, w, g, crc, true); err != nil {
		return Header{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, w, nil
}
