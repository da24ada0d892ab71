package tabletest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// overfull and floatTooLarge are pdflatex's log lines of a table wider or
// taller than the page.
var (
	overfull      = regexp.MustCompile(`Overfull \\hbox \(([0-9.]+)pt too wide\)[^\n]*`)
	floatTooLarge = regexp.MustCompile(`Float too large for page by [0-9.]+pt[^\n]*`)
	texError      = regexp.MustCompile(`(?m)^! .*`)
)

// LaTeXProblems returns what a pdflatex log says does not fit or fails:
// every error, every "Float too large for page" and every overfull box
// more than 1 pt too wide.
func LaTeXProblems(log string) []string {
	var out []string
	out = append(out, texError.FindAllString(log, -1)...)
	out = append(out, floatTooLarge.FindAllString(log, -1)...)
	for _, m := range overfull.FindAllStringSubmatch(log, -1) {
		if pt, err := strconv.ParseFloat(m[1], 64); err == nil && pt > 1 {
			out = append(out, m[0])
		}
	}
	return out
}

// CompileLaTeX runs pdflatex on file in dir (twice when the first run asks
// for it, as longtable does) and returns its log; it skips t when pdflatex
// is not installed and fails t when pdflatex makes no PDF. Each run is
// limited to 5 minutes.
func CompileLaTeX(t testing.TB, dir, file string) string {
	t.Helper()
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed (Debian: texlive-latex-base, texlive-latex-recommended, texlive-science): LaTeX not compiled")
	}
	stem := file[:len(file)-len(filepath.Ext(file))]
	var log []byte
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, pdflatex, "-interaction=nonstopmode", "-halt-on-error", file)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		log, _ = os.ReadFile(filepath.Join(dir, stem+".log"))
		if err != nil {
			t.Fatalf("pdflatex %s: %v\n%s", file, err, tail(out))
		}
		if !regexp.MustCompile(`Rerun|rerun`).Match(log) {
			break
		}
	}
	if _, err := os.Stat(filepath.Join(dir, stem+".pdf")); err != nil {
		t.Fatalf("pdflatex %s made no PDF: %v", file, err)
	}
	return string(log)
}

func tail(b []byte) []byte {
	if len(b) > 3000 {
		return b[len(b)-3000:]
	}
	return b
}
