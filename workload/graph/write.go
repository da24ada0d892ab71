package graph

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteSNAP writes g as a SNAP edge list: a "# Nodes: n Edges: m" header
// (which the SNAP loader reads back as the vertex count, so isolated
// vertices survive a round trip), then one "u<TAB>v" line per edge. An
// undirected graph lists each edge once, as u <= v, the way SNAP
// distributes undirected graphs; load it back with Undirected.
func WriteSNAP(w io.Writer, g *CSR, comment string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	kind := "Directed"
	edges := g.NumEdges()
	if !g.Directed {
		kind = "Undirected"
		edges = 0
		for v := range g.NumVertices() {
			for _, t := range g.Neighbours(uint32(v)) {
				if uint32(v) <= t {
					edges++
				}
			}
		}
	}
	if comment != "" {
		for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			fmt.Fprintf(bw, "# %s\n", line)
		}
	}
	fmt.Fprintf(bw, "# %s graph\n# Nodes: %d Edges: %d\n# FromNodeId\tToNodeId\n", kind, g.NumVertices(), edges)
	buf := make([]byte, 0, 32)
	for v := range g.NumVertices() {
		for _, t := range g.Neighbours(uint32(v)) {
			if !g.Directed && t < uint32(v) {
				continue
			}
			buf = strconv.AppendUint(buf[:0], uint64(v), 10)
			buf = append(buf, '\t')
			buf = strconv.AppendUint(buf, uint64(t), 10)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// SaveReverse writes g as Save does, and with withReverse and a directed g
// stores g.Reverse() beside it (a .gpg file's in-edge CSR; other formats
// ignore it). An undirected graph is its own reverse and gets none.
func SaveReverse(path string, g *CSR, withReverse bool, comment string) error {
	var rev *CSR
	if withReverse && g.Directed {
		rev = g.Reverse()
	}
	return Save(path, g, rev, comment)
}

// Save writes g to path in the format its name says: .gpg (with rev as the
// reverse CSR when not nil), or a SNAP edge list for .txt/.el/.edges/.tsv,
// gzip-compressed when the name ends in .gz. The file appears atomically
// (temporary file, then rename).
func Save(path string, g, rev *CSR, comment string) error {
	base := strings.TrimSuffix(strings.ToLower(path), ".gz")
	if strings.HasSuffix(base, ".gpg") {
		if strings.HasSuffix(strings.ToLower(path), ".gz") {
			return fmt.Errorf("%s: .gpg files are not compressed (they are read as a straight copy)", path)
		}
		return SaveGPG(path, g, rev)
	}
	switch filepath.Ext(base) {
	case ".txt", ".el", ".edges", ".tsv", ".snap":
	default:
		return fmt.Errorf("%s: unknown output format (use .gpg, or .txt/.el/.edges for a SNAP edge list, optionally .gz)", path)
	}
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	return writeAtomic(path, func(f *os.File) error {
		if !gz {
			return WriteSNAP(f, g, comment)
		}
		zw := gzip.NewWriter(f)
		if err := WriteSNAP(zw, g, comment); err != nil {
			return err
		}
		return zw.Close()
	})
}
