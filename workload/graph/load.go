package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Format names a graph file format.
type Format string

// The formats Load reads. FormatAuto picks one from the file name
// (DetectFormat).
const (
	FormatAuto         Format = ""
	FormatSNAP         Format = "snap"
	FormatMatrixMarket Format = "mtx"
	FormatKONECT       Format = "konect"
	FormatGPG          Format = "gpg"
)

// Formats lists the accepted --format values, FormatAuto ("auto") first.
func Formats() []Format {
	return []Format{"auto", FormatSNAP, FormatMatrixMarket, FormatKONECT, FormatGPG}
}

// ParseFormat turns a --format value into a Format. It ignores case and
// accepts "" and "auto" for FormatAuto and "mm" for FormatMatrixMarket.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case "", "auto":
		return FormatAuto, nil
	case "mm":
		return FormatMatrixMarket, nil
	case FormatSNAP, FormatMatrixMarket, FormatKONECT, FormatGPG:
		return f, nil
	}
	names := make([]string, 0, 5)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("graph: unknown format %q (want one of %s)", s, strings.Join(names, ", "))
}

// DetectFormat picks the format from the file name, after stripping a .gz
// suffix: .gpg is FormatGPG; .mtx and .mm are FormatMatrixMarket; a base name
// starting "out." is FormatKONECT; .txt, .el, .edges, .tsv and .snap are
// FormatSNAP. Any other name is an error asking for --format.
func DetectFormat(path string) (Format, error) {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	lower = strings.TrimSuffix(lower, ".gz")
	switch ext := filepath.Ext(lower); {
	case ext == ".gpg":
		return FormatGPG, nil
	case ext == ".mtx" || ext == ".mm":
		return FormatMatrixMarket, nil
	case strings.HasPrefix(lower, "out."):
		return FormatKONECT, nil
	case ext == ".txt" || ext == ".el" || ext == ".edges" || ext == ".tsv" || ext == ".snap":
		return FormatSNAP, nil
	}
	return "", fmt.Errorf("graph: cannot tell the format of %q from its name; pass --format (snap, mtx, konect or gpg)", base)
}

// LoadOptions say how Load and ReadEdges read a graph file. The zero value
// detects the format from the name and keeps the graph as listed.
type LoadOptions struct {
	// Format is the file's format; FormatAuto detects it from the name.
	Format Format
	// BuildOptions (Undirected, DropSelfLoops, DropDuplicates) say how the
	// edges become a CSR; see Load for how Undirected combines with a
	// format's own notion of direction.
	BuildOptions
	// Compact renumbers the vertex ids densely, 0..k-1 in increasing order
	// of the original id; an id that appears in no edge disappears, and the
	// header's vertex count is ignored. With Compact the text formats accept
	// ids up to 2^64-1 (only the number of distinct ids must fit in uint32).
	Compact bool
	// SparseIDs accepts vertex ids far larger than the edges need: without
	// it (and without Compact) Load refuses a text file whose largest id
	// passes SparseLimit(m) with ErrSparseIDs, before the CSR's offsets
	// are allocated (an id of 2^31 in a file of one edge needs 16 GiB).
	// ReadEdges, which allocates no offsets, does not check.
	SparseIDs bool
	// Progress, when not nil, is called by Load with the bytes of the file
	// consumed so far (on-disk bytes, so compressed bytes for a .gz file)
	// and the file size: about every 4 MiB, and once at the end with
	// done == total. It is called from one goroutine at a time, not
	// necessarily the caller's, and never after Load returns. ReadEdges
	// does not call it.
	Progress func(done, total int64)
}

// EdgeInfo is what ReadEdges learned about a graph besides its edges.
type EdgeInfo struct {
	// Format is the format that was read.
	Format Format
	// Undirected reports that the file declares its edges undirected: a
	// Matrix Market "symmetric" matrix, a KONECT "sym" or "bip" network.
	// Each such edge is listed once; Load builds the graph with
	// BuildOptions.Undirected set, so it is stored in both directions.
	Undirected bool
	// DeclaredVertices and DeclaredEdges are the counts a header states
	// (SNAP "# Nodes: N Edges: M", the Matrix Market size line, KONECT's
	// "% m n" line), or -1 where the file states none.
	DeclaredVertices, DeclaredEdges int64
	// Lines is the number of lines read, header included.
	Lines int64
	// IDs, with LoadOptions.Compact, maps each new vertex id k to the id it
	// had before renumbering, IDs[k], in increasing order. Ids are 0-based
	// there: a 1-based format's ids are the file's minus one, and the right
	// side of a KONECT bipartite network follows the left (see konect.go).
	// It is nil without Compact.
	IDs []uint64
	// Warnings are caveats about the file that did not stop the read, such
	// as a header whose edge count disagrees with the edges listed.
	Warnings []string
}

// ParseError is a malformed line in a text graph file.
type ParseError struct {
	File string // the name given to ReadEdges (the path, for Load)
	Line int    // 1-based line number
	Msg  string // what was expected and what was found
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Load reads the graph file at path and builds its CSR. The format is
// opt.Format, or detected from the name (DetectFormat) when that is
// FormatAuto; a gzip-compressed file is recognised by its magic bytes
// (1f 8b), whatever its name, and decompressed on the fly.
//
// Direction: a graph is built undirected (each listed edge stored in both
// directions, Directed false) when opt.Undirected is set or the file itself
// declares undirected edges (EdgeInfo.Undirected: Matrix Market
// "symmetric", KONECT "sym" and "bip"); otherwise it is directed. SNAP files
// carry no direction marker, so they are directed unless opt.Undirected.
// A file's declaration cannot be overridden to directed.
//
// A .gpg file is read with the checks of LoadGPG (any reverse CSR in it is
// dropped) and then opt is applied to the stored graph: Undirected
// symmetrizes a directed graph, DropSelfLoops and DropDuplicates drop
// edges, Compact removes the vertices without edges. An undirected .gpg
// graph stays undirected.
//
// Errors name the file: a malformed line is a *ParseError with its line.
func Load(path string, opt LoadOptions) (*CSR, error) {
	g, _, err := LoadInfo(path, opt)
	return g, err
}

// LoadInfo is Load that also returns what the reader learned about the
// file: its declared counts and any warnings (for .gpg files only Format is
// set).
func LoadInfo(path string, opt LoadOptions) (*CSR, EdgeInfo, error) {
	info := EdgeInfo{Format: opt.Format, DeclaredVertices: -1, DeclaredEdges: -1}
	format := opt.Format
	if format == FormatAuto {
		var err error
		if format, err = DetectFormat(path); err != nil {
			return nil, info, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, info, err
	}
	var src io.Reader = f
	if opt.Progress != nil {
		src = &progressReader{r: f, total: st.Size(), next: progressStep, report: opt.Progress}
	}
	br := bufio.NewReaderSize(src, 64<<10)
	var r io.Reader = br
	gzipped := false
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, info, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r, gzipped = zr, true
	}
	var g *CSR
	if format == FormatGPG {
		size := st.Size()
		if gzipped {
			size = -1
		}
		info.Format = FormatGPG
		if g, _, err = readGPG(r, size); err != nil {
			return nil, info, fmt.Errorf("%s: %w", path, err)
		}
		if g, err = applyLoadOptions(g, opt); err != nil {
			return nil, info, fmt.Errorf("%s: %w", path, err)
		}
	} else {
		size := st.Size()
		if gzipped {
			size = -1
		}
		el, ei, err := readEdges(r, path, format, opt, size)
		info = ei
		if err != nil {
			return nil, info, err
		}
		if m := int64(el.Len()); !opt.Compact && !opt.SparseIDs && int64(el.N) > SparseLimit(m) &&
			info.DeclaredVertices < int64(el.N) {
			return nil, info, fmt.Errorf("%s: %w: the largest id, %d, makes %d vertices for %d edges (%.1f GiB of offsets); "+
				"renumber the ids densely with --compact", path, ErrSparseIDs, el.N-1, el.N, m, (float64(el.N)+1)*8/(1<<30))
		}
		bopt := opt.BuildOptions
		bopt.Undirected = bopt.Undirected || info.Undirected
		if g, err = Build(el, bopt); err != nil {
			return nil, info, fmt.Errorf("%s: %w", path, err)
		}
	}
	if opt.Progress != nil {
		opt.Progress(st.Size(), st.Size())
	}
	return g, info, nil
}

// ReadEdges parses a text graph file (FormatSNAP, FormatMatrixMarket or
// FormatKONECT) from r, which must already be decompressed; name is used
// in errors. It returns the edges in file order, 0-based, and what the
// header said (EdgeInfo). The edge list's N is the largest id plus one, or
// the header's vertex count when that is larger (so trailing isolated
// vertices survive); with opt.Compact it is the number of distinct ids.
// opt.BuildOptions and opt.Progress are not used here: build the CSR with
// Build, setting Undirected when info.Undirected is (as Load does).
//
// The body is read in chunks of up to 4 MiB cut at line ends and parsed
// concurrently, one goroutine per CPU, while the next chunks are read; the
// edge order and the line numbers in errors are those of the file. The
// first malformed line (in file order) is returned as a *ParseError.
func ReadEdges(r io.Reader, name string, format Format, opt LoadOptions) (*EdgeList, EdgeInfo, error) {
	size := int64(-1)
	switch r := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		size = int64(r.Len())
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	return readEdges(r, name, format, opt, size)
}

// readEdges is ReadEdges with the stream's byte size, or -1 when unknown;
// a known size lets the edge arrays be allocated once.
func readEdges(r io.Reader, name string, format Format, opt LoadOptions, size int64) (*EdgeList, EdgeInfo, error) {
	info := EdgeInfo{Format: format, DeclaredVertices: -1, DeclaredEdges: -1}
	bufSize := 64 << 10
	if size >= 0 {
		bufSize = int(min(int64(bufSize), size+1)) // bufio makes it at least 16
	}
	h := &headerReader{br: bufio.NewReaderSize(r, bufSize), name: name}
	h.skipBOM()
	var spec *bodySpec
	var err error
	switch format {
	case FormatSNAP:
		spec, err = readSNAPHeader(h, &info, opt)
	case FormatMatrixMarket:
		spec, err = readMatrixMarketHeader(h, &info, opt)
	case FormatKONECT:
		spec, err = readKONECTHeader(h, &info, opt)
	case FormatGPG:
		return nil, info, errors.New("graph: ReadEdges reads text formats; read .gpg files with ReadGPG or Load")
	default:
		return nil, info, fmt.Errorf("graph: ReadEdges needs a text format (snap, mtx or konect), got %q", format)
	}
	if err != nil {
		return nil, info, err
	}
	spec.name = name
	spec.firstLine = h.line
	spec.size = size
	var el *EdgeList
	if opt.Compact {
		body, err := readBody[uint64](h.br, spec)
		if err != nil {
			return nil, info, err
		}
		info.Lines = body.lines
		if el, info.IDs, err = compactIDs(body.src, body.dst); err != nil {
			return nil, info, fmt.Errorf("%s: %w", name, err)
		}
	} else {
		body, err := readBody[uint32](h.br, spec)
		if err != nil {
			return nil, info, err
		}
		info.Lines = body.lines
		el = &EdgeList{Src: body.src, Dst: body.dst}
		if len(body.src) > 0 {
			el.N = uint32(body.maxID + 1) // maxID < MaxVertices: checked per id
		}
		if info.DeclaredVertices > int64(el.N) {
			el.N = uint32(info.DeclaredVertices) // at most MaxVertices: checked in the header
		} else if info.DeclaredVertices >= 0 && info.DeclaredVertices < int64(el.N) {
			info.Warnings = append(info.Warnings, fmt.Sprintf(
				"%s: the header declares %d vertices, the ids need %d", name, info.DeclaredVertices, el.N))
		}
	}
	if info.DeclaredEdges >= 0 && info.DeclaredEdges != int64(el.Len()) {
		info.Warnings = append(info.Warnings, fmt.Sprintf(
			"%s: the header declares %d edges, the file lists %d", name, info.DeclaredEdges, el.Len()))
	}
	return el, info, nil
}

// applyLoadOptions applies the graph-changing options of opt to a graph
// read from a .gpg file, rebuilding it when any of them changes something.
func applyLoadOptions(g *CSR, opt LoadOptions) (*CSR, error) {
	symmetrize := opt.Undirected && g.Directed
	if !symmetrize && !opt.DropSelfLoops && !opt.DropDuplicates && !opt.Compact {
		return g, nil
	}
	n := g.NumVertices()
	src, dst := g.EdgesSoA()
	if opt.Compact {
		// rank[v] is v's new id; a vertex with an edge in either direction stays.
		rank := make([]uint32, n)
		for i, u := range src {
			rank[u], rank[dst[i]] = 1, 1
		}
		k := uint32(0)
		for v, used := range rank {
			if used != 0 {
				rank[v] = k
				k++
			}
		}
		newDst := make([]uint32, len(dst))
		for i, u := range src {
			src[i], newDst[i] = rank[u], rank[dst[i]]
		}
		dst, n = newDst, int(k)
	}
	bopt := opt.BuildOptions
	// An undirected graph's stored edges are already symmetric.
	bopt.Undirected = symmetrize
	out, err := Build(&EdgeList{N: uint32(n), Src: src, Dst: dst}, bopt)
	if err != nil {
		return nil, err
	}
	out.Directed = g.Directed && !symmetrize
	return out, nil
}

// compactIDs renumbers the ids of the edges densely in increasing order and
// returns the edge list and the old id of each new one. Dense id ranges use
// a rank array, O(m + max id); sparse ones sort the ids, O(m log m).
func compactIDs(src, dst []uint64) (*EdgeList, []uint64, error) {
	m := len(src)
	el := &EdgeList{Src: make([]uint32, m), Dst: make([]uint32, m)}
	if m == 0 {
		return el, nil, nil
	}
	maxID := uint64(0)
	for i := range src {
		maxID = max(maxID, src[i], dst[i])
	}
	var ids []uint64
	if maxID < uint64(2*m)+1<<20 {
		// Dense: rank[v] is v's new id (present vertices marked first).
		rank := make([]uint32, maxID+1)
		for i := range src {
			rank[src[i]], rank[dst[i]] = 1, 1
		}
		k := uint64(0)
		for v, used := range rank {
			if used != 0 {
				rank[v] = uint32(k)
				ids = append(ids, uint64(v))
				k++
			}
		}
		if k > MaxVertices {
			return nil, nil, fmt.Errorf("graph: %d distinct vertex ids, more than 2^32-1", k)
		}
		for i := range src {
			el.Src[i], el.Dst[i] = rank[src[i]], rank[dst[i]]
		}
	} else {
		ids = make([]uint64, 0, 2*m)
		ids = append(append(ids, src...), dst...)
		slices.Sort(ids)
		ids = slices.Clip(slices.Compact(ids))
		if uint64(len(ids)) > MaxVertices {
			return nil, nil, fmt.Errorf("graph: %d distinct vertex ids, more than 2^32-1", len(ids))
		}
		for i := range src {
			s, _ := slices.BinarySearch(ids, src[i])
			d, _ := slices.BinarySearch(ids, dst[i])
			el.Src[i], el.Dst[i] = uint32(s), uint32(d)
		}
	}
	el.N = uint32(len(ids))
	return el, ids, nil
}

// progressStep is how many bytes pass between Progress calls.
const progressStep = 4 << 20

// progressReader counts the bytes read through it and reports them.
type progressReader struct {
	r           io.Reader
	done, total int64
	next        int64
	report      func(done, total int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	if p.done >= p.next {
		p.report(p.done, p.total)
		p.next = p.done + progressStep
	}
	return n, err
}

// headerReader reads the header lines of a text format one at a time,
// counting them; the body is then read from br by readBody.
type headerReader struct {
	br   *bufio.Reader
	name string
	line int // lines consumed so far
}

// skipBOM drops a UTF-8 byte order mark at the start of the stream.
func (h *headerReader) skipBOM() {
	if b, _ := h.br.Peek(3); string(b) == "\xef\xbb\xbf" {
		h.br.Discard(3)
	}
}

// peek returns the next byte without consuming it; ok is false at the end.
func (h *headerReader) peek() (c byte, ok bool) {
	b, err := h.br.Peek(1)
	if err != nil || len(b) == 0 {
		return 0, false
	}
	return b[0], true
}

// maxHeaderLine is how much of a header line is kept; the rest is skipped.
const maxHeaderLine = 1024

// next consumes one line and returns up to maxHeaderLine bytes of it
// without its line end; long is true when the line was longer. At the end
// of the stream it returns io.EOF.
func (h *headerReader) next() (line string, long bool, err error) {
	var out []byte
	read := 0
	for {
		frag, err := h.br.ReadSlice('\n')
		read += len(frag)
		if room := maxHeaderLine + 2 - len(out); room > 0 {
			out = append(out, frag[:min(len(frag), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if read == 0 {
				return "", false, io.EOF
			}
			break
		}
		if err != nil {
			return "", false, fmt.Errorf("%s: %w", h.name, err)
		}
		break
	}
	h.line++
	// Only the line end is trimmed here: out may have been cut short.
	if read == len(out) {
		out = bytes.TrimSuffix(out, []byte("\n"))
		out = bytes.TrimSuffix(out, []byte("\r"))
	}
	if len(out) > maxHeaderLine {
		return string(out[:maxHeaderLine]), true, nil
	}
	return string(out), false, nil
}

// errorf returns a *ParseError for the line just read.
func (h *headerReader) errorf(format string, args ...any) error {
	return &ParseError{File: h.name, Line: h.line, Msg: fmt.Sprintf(format, args...)}
}

// quote quotes a token for an error message, cut to 40 bytes.
func quote(s string) string {
	const maxToken = 40
	if len(s) > maxToken {
		return strconv.Quote(s[:maxToken]) + "..."
	}
	return strconv.Quote(s)
}

// bodySpec says how the edge lines after a header are parsed. Every body
// line is blank, a comment, or "u v [anything]": two unsigned decimal ids
// separated by blanks (spaces, tabs), the rest of the line ignored.
type bodySpec struct {
	name      string
	firstLine int  // lines before the body
	comment   byte // a line starting with it (after blanks) is skipped
	// An id as written must be at least base and at most limit[col] (col 0
	// the source, 1 the target); it is stored as id - base + shift[col].
	// The limits keep stored ids below MaxVertices unless wide.
	base  uint64
	limit [2]uint64
	shift [2]uint64
	// field names the two columns in messages ("row index", ...).
	field [2]string
	// tooLarge explains why an id above limit[col] is refused.
	tooLarge func(col int, token string) string
	// maxEntries, when >= 0, is the exact number of edges the body must
	// hold (the Matrix Market nnz), declared on line entriesLine.
	maxEntries  int64
	entriesLine int
	// size is the stream's byte length, or -1.
	size int64
}

// bodyResult is a parsed body: the edges in file order, the largest stored
// id, and the number of lines in the whole file.
type bodyResult[T uint32 | uint64] struct {
	src, dst []T
	maxID    uint64
	lines    int64
}

// lineError is a parse error at a line counted from the start of a chunk.
type lineError struct {
	line int
	msg  string
}

// blank marks the bytes that separate fields (a line end is not one).
var blank = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

// parseChunk parses the lines in b, appending the edges to src and dst.
// It returns the number of line ends consumed, the largest stored id, and
// the first malformed line (numbered from 1 at the start of b), if any;
// the edges before it are returned too. When limit >= 0, an edge beyond the
// first limit edges is an error (the Matrix Market nnz check).
//
// It is the loaders' hot loop: one pass over the bytes, no allocation but
// the appends, the digits accumulated inline.
func parseChunk[T uint32 | uint64](b []byte, sp *bodySpec, src, dst []T, limit int64) ([]T, []T, int, uint64, *lineError) {
	lines := 0
	maxID := uint64(0)
	n := len(b)
	i := 0
	for i < n {
		c := b[i]
		if c-'0' > 9 {
			switch {
			case c == '\n':
				lines++
				i++
			case blank[c]:
				i++
			case c == sp.comment:
				j := bytes.IndexByte(b[i:], '\n')
				if j < 0 {
					i = n
				} else {
					i += j + 1
					lines++
				}
			default:
				return src, dst, lines, maxID, &lineError{lines + 1, expectedID(sp, 0, b[i:])}
			}
			continue
		}
		var ids [2]uint64
		for col := range 2 {
			if col == 1 {
				first := i
				for i < n && blank[b[i]] {
					i++
				}
				if i == n || b[i] == '\n' {
					return src, dst, lines, maxID, &lineError{lines + 1, fmt.Sprintf(
						"expected two vertex ids, found only one (%s)", quote(string(trimBlank(lastToken(b, first)))))}
				}
				if b[i]-'0' > 9 {
					return src, dst, lines, maxID, &lineError{lines + 1, expectedID(sp, 1, b[i:])}
				}
			}
			start := i
			v := uint64(0)
			for i < n {
				d := b[i] - '0'
				if d > 9 {
					break
				}
				v = v*10 + uint64(d)
				i++
			}
			if i < n && b[i] != '\n' && !blank[b[i]] {
				return src, dst, lines, maxID, &lineError{lines + 1, expectedID(sp, col, b[start:])}
			}
			if i-start > 19 { // 19 digits always fit in 64 bits; more might not
				var ok bool
				if v, ok = parseLong(b[start:i]); !ok {
					return src, dst, lines, maxID, &lineError{lines + 1, sp.tooLarge(col, string(b[start:i]))}
				}
			}
			if v > sp.limit[col] {
				return src, dst, lines, maxID, &lineError{lines + 1, sp.tooLarge(col, string(b[start:i]))}
			}
			if v < sp.base {
				return src, dst, lines, maxID, &lineError{lines + 1, fmt.Sprintf(
					"found %s %s: ids in this format start at %d", sp.field[col], quote(string(b[start:i])), sp.base)}
			}
			ids[col] = v - sp.base + sp.shift[col]
		}
		if limit >= 0 && int64(len(src)) >= limit {
			return src, dst, lines, maxID, &lineError{lines + 1, fmt.Sprintf(
				"more entries than the %d declared on line %d", sp.maxEntries, sp.entriesLine)}
		}
		src = append(src, T(ids[0]))
		dst = append(dst, T(ids[1]))
		maxID = max(maxID, ids[0], ids[1])
		if i < n && b[i] == '\n' {
			i++
			lines++
			continue
		}
		// Extra columns (weights, timestamps) are ignored.
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		lines++
	}
	return src, dst, lines, maxID, nil
}

// parseLong parses a decimal of more than 19 digits, which may not fit.
func parseLong(digits []byte) (uint64, bool) {
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) > 20 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(digits), 10, 64)
	return v, err == nil
}

// expectedID describes a token that should have been an id.
func expectedID(sp *bodySpec, col int, rest []byte) string {
	tok := firstToken(rest)
	if len(tok) > 1 && tok[0] == '-' && tok[1]-'0' <= 9 {
		return fmt.Sprintf("expected a %s, found %s: ids are non-negative", sp.field[col], quote(string(tok)))
	}
	return fmt.Sprintf("expected a %s (a non-negative decimal integer), found %s", sp.field[col], quote(string(tok)))
}

// firstToken returns b up to its first blank or line end.
func firstToken(b []byte) []byte {
	for i, c := range b {
		if c == '\n' || blank[c] {
			return b[:i]
		}
	}
	return b
}

// lastToken returns the token ending just before b[end] (the one id of a
// one-field line).
func lastToken(b []byte, end int) []byte {
	start := end
	for start > 0 && b[start-1] != '\n' && !blank[b[start-1]] {
		start--
	}
	return b[start:end]
}

func trimBlank(b []byte) []byte {
	return bytes.TrimFunc(b, func(r rune) bool { return r < 256 && blank[r] })
}

// Chunk sizes: the first chunk is small so that small inputs are parsed
// without starting goroutines; later ones grow to maxChunk.
const (
	firstChunk = 64 << 10
	maxChunk   = 4 << 20
)

// testChunkSize, when positive, replaces the chunk sizes: tests and fuzz
// targets set it to a few bytes to cut inputs at every possible place.
var testChunkSize = 0

func chunkSize(seq int) int {
	if testChunkSize > 0 {
		return testChunkSize
	}
	return min(maxChunk, firstChunk<<(2*min(seq, 8)))
}

// chunk is one piece of the body, cut at a line end, and its parse.
type chunk[T uint32 | uint64] struct {
	buf      []byte // reusable storage; data is a prefix of it
	data     []byte
	src, dst []T
	lines    int
	maxID    uint64
	err      *lineError
	readErr  error // reading failed here; no data
	last     bool
	done     chan struct{} // closed when parsed
}

// chunker cuts a stream into chunks at line ends.
type chunker struct {
	r     io.Reader
	size  int64  // the stream's length if known, else -1
	carry []byte // the partial line after the last chunk's last line end
	seq   int
}

// fill reads the next chunk into buf (or a new buffer when buf is too
// small) and returns its data, the buffer, whether it is the last chunk
// (the stream ended or failed), and the read error.
func (k *chunker) fill(buf []byte) (data, rest []byte, last bool, err error) {
	size := max(chunkSize(k.seq), 2*len(k.carry))
	if k.seq == 0 && k.size >= 0 {
		// A short stream fits in one chunk; one byte more sees its end.
		size = int(min(int64(size), k.size+1))
	}
	k.seq++
	if cap(buf) < size {
		buf = make([]byte, size)
	}
	buf = buf[:cap(buf)]
	n := copy(buf, k.carry)
	searched := n // the carry holds no line end
	for {
		for n < len(buf) {
			m, err := k.r.Read(buf[n:])
			n += m
			if err == io.EOF {
				k.carry = k.carry[:0]
				return buf[:n], buf, true, nil
			}
			if err != nil {
				return nil, buf, true, err
			}
		}
		if nl := bytes.LastIndexByte(buf[searched:n], '\n'); nl >= 0 {
			end := searched + nl + 1
			k.carry = append(k.carry[:0], buf[end:n]...)
			return buf[:end], buf, false, nil
		}
		// A line longer than the buffer: grow it and read on.
		searched = n
		buf = append(buf, make([]byte, len(buf))...)
		buf = buf[:cap(buf)]
	}
}

// readBody parses the body of a text file from r. A body that fits in the
// first chunk is parsed on the calling goroutine; a longer one goes through
// a pipeline: one goroutine reads chunks, GOMAXPROCS goroutines parse them,
// and the caller appends their edges in file order, so reading, parsing and
// merging overlap.
func readBody[T uint32 | uint64](r io.Reader, sp *bodySpec) (*bodyResult[T], error) {
	res := &bodyResult[T]{lines: int64(sp.firstLine)}
	m := &merger[T]{sp: sp, res: res, lineBase: sp.firstLine}
	k := &chunker{r: r, size: sp.size}
	first := &chunk[T]{}
	var err error
	first.data, first.buf, first.last, first.readErr = k.fill(nil)
	if first.last {
		parseInto(first, sp)
		if err = m.merge(first); err != nil {
			return nil, err
		}
		return res, m.finish()
	}

	workers := runtime.GOMAXPROCS(0)
	slots := 2*workers + 2 // chunks in flight, which bounds memory
	p := &pipeline[T]{
		free:  make(chan *chunk[T], slots),
		work:  make(chan *chunk[T], slots),
		order: make(chan *chunk[T], slots),
		quit:  make(chan struct{}),
	}
	go p.read(k, first, slots)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range p.work {
				if !p.stopped.Load() {
					parseInto(c, sp)
				}
				close(c.done)
			}
		}()
	}
	for c := range p.order {
		<-c.done
		if err != nil {
			continue // draining after an error
		}
		if err = m.merge(c); err != nil {
			p.stopped.Store(true)
			close(p.quit)
			continue
		}
		p.free <- c
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return res, m.finish()
}

// parseInto parses a chunk's data into its own edge slices.
func parseInto[T uint32 | uint64](c *chunk[T], sp *bodySpec) {
	if c.readErr != nil {
		return
	}
	if c.src == nil {
		// A line of an edge list is rarely shorter than 4 bytes.
		c.src = make([]T, 0, len(c.data)/4)
		c.dst = make([]T, 0, len(c.data)/4)
	}
	c.src, c.dst, c.lines, c.maxID, c.err = parseChunk(c.data, sp, c.src[:0], c.dst[:0], -1)
}

// pipeline carries chunks from the reader through the parsers to the merger.
type pipeline[T uint32 | uint64] struct {
	free    chan *chunk[T] // merged chunks, for reuse
	work    chan *chunk[T] // read, to be parsed
	order   chan *chunk[T] // read, in file order, for the merger
	quit    chan struct{}  // closed by the merger on an error
	stopped atomic.Bool
}

// read is the reader goroutine: it fills chunks, taking a new one while
// fewer than slots exist and a merged one after that, and sends each to
// the parsers and, in order, to the merger.
func (p *pipeline[T]) read(k *chunker, first *chunk[T], slots int) {
	defer close(p.work)
	defer close(p.order)
	send := func(c *chunk[T]) {
		c.done = make(chan struct{})
		p.order <- c
		if c.readErr != nil {
			close(c.done)
			return
		}
		p.work <- c
	}
	send(first)
	made := 1
	for {
		var c *chunk[T]
		if made < slots {
			c = &chunk[T]{}
			made++
		} else {
			select {
			case c = <-p.free:
			case <-p.quit:
				return
			}
		}
		select {
		case <-p.quit:
			return
		default:
		}
		c.data, c.buf, c.last, c.readErr = k.fill(c.buf)
		send(c)
		if c.last {
			return
		}
	}
}

// merger appends parsed chunks, in file order, to the result.
type merger[T uint32 | uint64] struct {
	sp       *bodySpec
	res      *bodyResult[T]
	lineBase int  // lines before the chunk being merged
	endsLine bool // the last byte merged was a line end
	any      bool // a byte of body was merged
}

func (m *merger[T]) merge(c *chunk[T]) error {
	sp := m.sp
	if c.readErr != nil {
		return fmt.Errorf("%s: %w", sp.name, c.readErr)
	}
	if sp.maxEntries >= 0 && int64(len(m.res.src)+len(c.src)) > sp.maxEntries {
		// Find the line of the first entry too many (or of an earlier
		// malformed line): parse the chunk again with a limit.
		_, _, _, _, c.err = parseChunk[T](c.data, sp, nil, nil, sp.maxEntries-int64(len(m.res.src)))
	}
	if c.err != nil {
		return &ParseError{File: sp.name, Line: m.lineBase + c.err.line, Msg: c.err.msg}
	}
	if len(c.src) > 0 {
		m.res.maxID = max(m.res.maxID, c.maxID)
	}
	if m.res.src == nil && c.last {
		// The only chunk with edges: keep its arrays (never reused).
		m.res.src, m.res.dst = c.src, c.dst
		c.src, c.dst = nil, nil
	}
	if m.res.src == nil && sp.size > 0 && !c.last && len(c.src) > 0 {
		// Size the arrays for the whole stream from the edges per byte of
		// this first chunk, 5% over; append grows them if that was short.
		// The shortest edge line, "0 0\n", is 4 bytes.
		est := int64(float64(sp.size)/float64(len(c.data))*float64(len(c.src))*1.05) + 1024
		est = min(est, sp.size/4+1)
		m.res.src = make([]T, 0, est)
		m.res.dst = make([]T, 0, est)
	}
	m.res.src = append(m.res.src, c.src...)
	m.res.dst = append(m.res.dst, c.dst...)
	m.lineBase += c.lines
	if len(c.data) > 0 {
		m.any = true
		m.endsLine = c.data[len(c.data)-1] == '\n'
	}
	return nil
}

// finish checks the entry count and counts the lines.
func (m *merger[T]) finish() error {
	sp := m.sp
	m.res.lines = int64(m.lineBase)
	if m.any && !m.endsLine {
		m.res.lines++ // a last line without a line end
	}
	if sp.maxEntries >= 0 && int64(len(m.res.src)) < sp.maxEntries {
		return &ParseError{File: sp.name, Line: sp.entriesLine, Msg: fmt.Sprintf(
			"the size line declares %d entries, the file has %d", sp.maxEntries, len(m.res.src))}
	}
	return nil
}

// ErrSparseIDs is returned for a text graph whose vertex ids are far larger
// than its edge count needs (LoadOptions.SparseIDs).
var ErrSparseIDs = errors.New("vertex ids too sparse")

// SparseLimit is the most vertices the ids of a text graph of m edges may
// make without LoadOptions.Compact or SparseIDs: 2^24 (128 MiB of offsets,
// whatever the edges), or 64 vertices per edge beyond that. Real edge lists
// stay far below it (a road network has about 0.4 vertices per edge).
func SparseLimit(m int64) int64 { return max(1<<24, 64*m) }

// idLimit is the largest id a format stores without Compact: n = id+1 must
// not exceed MaxVertices.
const idLimit = MaxVertices - 1

// wideLimit is the largest id with Compact.
const wideLimit = math.MaxUint64
