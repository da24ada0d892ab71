package graph

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"unsafe"
)

// GPG file constants; the layout is documented byte by byte in doc.go.
const (
	GPGMagic      = "GPG1"
	GPGVersion    = 1
	GPGHeaderSize = 64

	// GPGFlagDirected marks a directed graph; without it the graph is
	// undirected and stored symmetric.
	GPGFlagDirected = 1 << 0
	// GPGFlagReverse marks that a reverse CSR (in-edges) follows the CSR.
	GPGFlagReverse = 1 << 1
	// GPGFlagSorted marks that every neighbour list is sorted ascending.
	// Always set by this package's writer; readers reject files without it.
	GPGFlagSorted = 1 << 2

	gpgKnownFlags = GPGFlagDirected | GPGFlagReverse | GPGFlagSorted
)

// ErrNotGPG is returned for a file that does not start with the GPG magic.
var ErrNotGPG = errors.New("graph: not a .gpg file (bad magic)")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian is true on hosts whose memory layout matches the file's, where
// arrays are read and written as straight byte copies.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// gpgHeader is the decoded fixed header.
type gpgHeader struct {
	version uint32
	flags   uint64
	n, m    uint64
	crc     uint32
}

func (h gpgHeader) encode() []byte {
	b := make([]byte, GPGHeaderSize)
	copy(b[0:4], GPGMagic)
	binary.LittleEndian.PutUint32(b[4:], h.version)
	binary.LittleEndian.PutUint64(b[8:], h.flags)
	binary.LittleEndian.PutUint64(b[16:], h.n)
	binary.LittleEndian.PutUint64(b[24:], h.m)
	binary.LittleEndian.PutUint32(b[32:], h.crc)
	return b
}

// WriteGPG writes g, and rev when it is not nil (it must be g.Reverse()), in
// the .gpg format to w. The payload is written as straight byte copies of the
// arrays on little-endian hosts. w must be an io.WriteSeeker when the
// checksum is to be patched in; use SaveGPG for files.
func WriteGPG(w io.WriteSeeker, g, rev *CSR) error {
	n := uint64(g.NumVertices())
	m := uint64(g.NumEdges())
	flags := uint64(GPGFlagSorted)
	if g.Directed {
		flags |= GPGFlagDirected
	}
	if rev != nil {
		if rev.NumVertices() != g.NumVertices() || rev.NumEdges() != g.NumEdges() {
			return fmt.Errorf("graph: reverse CSR has %d vertices and %d edges, the graph %d and %d",
				rev.NumVertices(), rev.NumEdges(), n, m)
		}
		flags |= GPGFlagReverse
	}
	h := gpgHeader{version: GPGVersion, flags: flags, n: n, m: m}
	if _, err := w.Write(h.encode()); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	crc := uint32(0)
	put := func(b []byte) error {
		crc = crc32.Update(crc, castagnoli, b)
		_, err := bw.Write(b)
		return err
	}
	for _, c := range []*CSR{g, rev} {
		if c == nil {
			continue
		}
		if err := writeInt64s(put, c.Offsets); err != nil {
			return err
		}
		if err := writeUint32s(put, c.Targets); err != nil {
			return err
		}
		if m%2 == 1 {
			if err := put(make([]byte, 4)); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	h.crc = crc
	if _, err := w.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := w.Write(h.encode()); err != nil {
		return err
	}
	_, err := w.Seek(0, io.SeekEnd)
	return err
}

// SaveGPG writes the graph to path atomically: into a temporary file in the
// same directory, then renamed over path, so a failed write never
// leaves a truncated graph behind.
func SaveGPG(path string, g, rev *CSR) error {
	return writeAtomic(path, func(f *os.File) error { return WriteGPG(f, g, rev) })
}

// writeAtomic creates path through a temporary file in the same directory:
// write fills it, and only when write and Close succeed is it renamed over
// path, so a failed write never leaves a truncated file behind. The file
// gets mode 0644 (CreateTemp makes it private).
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, bareOSError(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	return nil
}

// ReadGPG reads a .gpg graph. It returns the reverse CSR too when the file
// holds one (nil otherwise). The arrays are read straight into their final
// memory; the checksum and the CSR invariants are verified, so a corrupted
// or truncated file is an error, never a bad graph.
func ReadGPG(r io.Reader) (g, rev *CSR, err error) {
	return readGPG(r, -1)
}

// gpgSize returns the byte size of a .gpg file with n vertices and m edges.
func gpgSize(n, m uint64, reverse bool) uint64 {
	part := (n+1)*8 + m*4 + (m%2)*4
	if reverse {
		part *= 2
	}
	return GPGHeaderSize + part
}

// readGPG reads a .gpg stream; size is the stream's byte length when known
// (a file), else -1. With a known size the header is checked against it and
// the arrays are allocated once at their final size.
func readGPG(r io.Reader, size int64) (g, rev *CSR, err error) {
	hb := make([]byte, GPGHeaderSize)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, nil, fmt.Errorf("graph: reading the %d-byte header: %w", GPGHeaderSize, noEOF(err))
	}
	if string(hb[0:4]) != GPGMagic {
		return nil, nil, ErrNotGPG
	}
	h := gpgHeader{
		version: binary.LittleEndian.Uint32(hb[4:]),
		flags:   binary.LittleEndian.Uint64(hb[8:]),
		n:       binary.LittleEndian.Uint64(hb[16:]),
		m:       binary.LittleEndian.Uint64(hb[24:]),
		crc:     binary.LittleEndian.Uint32(hb[32:]),
	}
	if h.version != GPGVersion {
		return nil, nil, fmt.Errorf("graph: .gpg version %d, this reader knows version %d", h.version, GPGVersion)
	}
	if h.flags&^gpgKnownFlags != 0 {
		return nil, nil, fmt.Errorf("graph: unknown .gpg flags %#x", h.flags&^gpgKnownFlags)
	}
	if h.flags&GPGFlagSorted == 0 {
		return nil, nil, errors.New("graph: .gpg file without sorted neighbour lists")
	}
	if h.n > MaxVertices {
		return nil, nil, fmt.Errorf("graph: header says %d vertices, more than the uint32 id range", h.n)
	}
	if h.m > 1<<40 {
		return nil, nil, fmt.Errorf("graph: header says %d edges, more than this reader accepts (2^40)", h.m)
	}
	exact := false
	if size >= 0 {
		want := gpgSize(h.n, h.m, h.flags&GPGFlagReverse != 0)
		if uint64(size) != want {
			return nil, nil, fmt.Errorf("graph: file is %d bytes, the header (%d vertices, %d edges) needs %d: truncated or corrupted", size, h.n, h.m, want)
		}
		exact = true
	}
	crc := uint32(0)
	get := func(b []byte) error {
		if _, err := io.ReadFull(r, b); err != nil {
			return noEOF(err)
		}
		crc = crc32.Update(crc, castagnoli, b)
		return nil
	}
	readCSR := func() (*CSR, error) {
		c := &CSR{Directed: h.flags&GPGFlagDirected != 0}
		var err error
		if c.Offsets, err = readInt64s(get, int(h.n+1), exact); err != nil {
			return nil, fmt.Errorf("graph: reading %d offsets: %w", h.n+1, err)
		}
		// Check the edge count before allocating the targets, so a bad
		// header cannot make us allocate terabytes.
		if c.Offsets[h.n] != int64(h.m) {
			return nil, fmt.Errorf("graph: last offset %d disagrees with the header's %d edges", c.Offsets[h.n], h.m)
		}
		if c.Targets, err = readUint32s(get, int(h.m), exact); err != nil {
			return nil, fmt.Errorf("graph: reading %d targets: %w", h.m, err)
		}
		if h.m%2 == 1 {
			if err := get(make([]byte, 4)); err != nil {
				return nil, fmt.Errorf("graph: reading padding: %w", err)
			}
		}
		return c, nil
	}
	if g, err = readCSR(); err != nil {
		return nil, nil, err
	}
	if h.flags&GPGFlagReverse != 0 {
		if rev, err = readCSR(); err != nil {
			return nil, nil, fmt.Errorf("reverse CSR: %w", err)
		}
	}
	if crc != h.crc {
		return nil, nil, fmt.Errorf("graph: checksum mismatch (file %08x, computed %08x): the file is corrupted", h.crc, crc)
	}
	for _, c := range []*CSR{g, rev} {
		if c == nil {
			continue
		}
		if err := c.Validate(); err != nil {
			return nil, nil, err
		}
	}
	if rev != nil {
		// A cheap consistency check of the stored transpose: the in-degrees
		// of g are the out-degrees of rev. O(n + m).
		in := g.InDegrees()
		for v, d := range in {
			if rev.Offsets[v+1]-rev.Offsets[v] != d {
				return nil, nil, fmt.Errorf("graph: the stored reverse CSR gives vertex %d %d in-edges, the graph %d: not its transpose", v, rev.Offsets[v+1]-rev.Offsets[v], d)
			}
		}
	}
	return g, rev, nil
}

// LoadGPG reads the .gpg file at path; errors name the file.
func LoadGPG(path string) (g, rev *CSR, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	// No bufio: the arrays are read straight from the file into place, and a
	// buffer in between would only add a copy.
	g, rev, err = readGPG(f, st.Size())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, rev, nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

const chunkBytes = 4 << 20

func writeInt64s(put func([]byte) error, s []int64) error {
	if littleEndian {
		if len(s) == 0 {
			return nil
		}
		b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8)
		for len(b) > 0 {
			k := min(len(b), chunkBytes)
			if err := put(b[:k]); err != nil {
				return err
			}
			b = b[k:]
		}
		return nil
	}
	buf := make([]byte, 0, chunkBytes)
	for i, x := range s {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(x))
		if len(buf) == cap(buf) || i == len(s)-1 {
			if err := put(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return nil
}

func writeUint32s(put func([]byte) error, s []uint32) error {
	if littleEndian {
		if len(s) == 0 {
			return nil
		}
		b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
		for len(b) > 0 {
			k := min(len(b), chunkBytes)
			if err := put(b[:k]); err != nil {
				return err
			}
			b = b[k:]
		}
		return nil
	}
	buf := make([]byte, 0, chunkBytes)
	for i, x := range s {
		buf = binary.LittleEndian.AppendUint32(buf, x)
		if len(buf) == cap(buf) || i == len(s)-1 {
			if err := put(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return nil
}

// readInt64s reads count little-endian int64 values. Unless exact (the size
// was checked against the file), the slice grows in chunks as data arrives,
// so a lying header on a short stream fails at the end of the data rather
// than by allocating the claimed size up front.
func readInt64s(get func([]byte) error, count int, exact bool) ([]int64, error) {
	const step = chunkBytes / 8
	var s []int64
	if exact {
		s = make([]int64, count) // one allocation, zeroed once (fresh pages)
	} else {
		s = make([]int64, 0, min(count, step))
	}
	for done := 0; done < count; {
		k := min(count-done, step)
		if !exact {
			s = append(s, make([]int64, k)...)
		}
		part := s[done : done+k]
		done += k
		if littleEndian {
			if err := get(unsafe.Slice((*byte)(unsafe.Pointer(&part[0])), k*8)); err != nil {
				return nil, err
			}
			continue
		}
		b := make([]byte, k*8)
		if err := get(b); err != nil {
			return nil, err
		}
		for i := range part {
			part[i] = int64(binary.LittleEndian.Uint64(b[i*8:]))
		}
	}
	return s, nil
}

func readUint32s(get func([]byte) error, count int, exact bool) ([]uint32, error) {
	const step = chunkBytes / 4
	var s []uint32
	if exact {
		s = make([]uint32, count) // one allocation, zeroed once (fresh pages)
	} else {
		s = make([]uint32, 0, min(count, step))
	}
	for done := 0; done < count; {
		k := min(count-done, step)
		if !exact {
			s = append(s, make([]uint32, k)...)
		}
		part := s[done : done+k]
		done += k
		if littleEndian {
			if err := get(unsafe.Slice((*byte)(unsafe.Pointer(&part[0])), k*4)); err != nil {
				return nil, err
			}
			continue
		}
		b := make([]byte, k*4)
		if err := get(b); err != nil {
			return nil, err
		}
		for i := range part {
			part[i] = binary.LittleEndian.Uint32(b[i*4:])
		}
	}
	return s, nil
}

// bareOSError is err without the file name of an *os.PathError or
// *os.LinkError: the temporary file's name means nothing to the user, who
// gets the path they asked for instead.
func bareOSError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
