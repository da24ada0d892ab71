package bundle

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/reports/notebook"
)

// Paths rewrites the paths of this machine that a cell prints, so the
// page reads the same wherever it was made: the embedded dataset's files
// as "embedded:FILE" (as a user names them), its graphs as
// "embedded:graph/NAME.gpg", its cache as "$GRAPHPERF_CACHE_DIR", the
// bundle being written as a relative path, $GRAPHPERF_GRAPHS by its name,
// the working directory as relative paths and the home directory as "~".
type Paths struct {
	r     *strings.Replacer
	pairs []string
}

// NewPaths is the rewriting for a bundle being written into the folder
// bundle.
func NewPaths(bundle string) Paths {
	var pairs []string
	// add rewrites from+"/" as under and from alone as bare.
	add := func(from, under, bare string) {
		if from == "" {
			return
		}
		if abs, err := filepath.Abs(from); err == nil {
			from = abs
		}
		if from == string(filepath.Separator) {
			return
		}
		pairs = append(pairs, from+string(filepath.Separator), under, from, bare)
	}
	cache := measured.CacheDir()
	add(filepath.Join(cache, "files"), measured.Prefix, "the embedded dataset")
	add(filepath.Join(cache, "graphs"), measured.Prefix+"graph/", measured.Prefix+"graph")
	add(cache, "$"+measured.CacheEnv+"/", "$"+measured.CacheEnv)
	add(bundle, "", ".")
	if g := os.Getenv(kernels.GraphsEnv); g != "" {
		add(g, "$"+kernels.GraphsEnv+"/", "$"+kernels.GraphsEnv)
	}
	if wd, err := os.Getwd(); err == nil {
		add(wd, "", ".")
	}
	if home, err := os.UserHomeDir(); err == nil {
		add(home, "~/", "~")
	}
	// strings.Replacer tries the pairs in argument order at each position,
	// so a path inside another (the cache in the home directory) is added
	// first.
	return Paths{strings.NewReplacer(pairs...), pairs}
}

// ForCell adds to l the absolute paths a cell's args name (bare or as a
// flag's value), rewritten relative to the bundle dst, for what that cell
// prints.
func (l Paths) ForCell(dst string, args []string) Paths {
	var pairs []string
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			a = v
		}
		if filepath.IsAbs(a) && l.Replace(a) == a {
			pairs = append(pairs, filepath.Clean(a), Rel(dst, a))
		}
	}
	if len(pairs) == 0 {
		return l
	}
	pairs = append(pairs, l.pairs...)
	return Paths{strings.NewReplacer(pairs...), pairs}
}

// ForError is l for a cell's error: the absolute paths the cell's args
// name (bare or as a flag's value) stay as the user typed them, since an
// error names what the user gave; the rest is rewritten as Replace does
// (the bundle being written reads ".", the cache "$GRAPHPERF_CACHE_DIR").
func (l Paths) ForError(args []string) Paths {
	var pairs []string
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			a = v
		}
		if filepath.IsAbs(a) {
			pairs = append(pairs, a, a)
			if c := filepath.Clean(a); c != a {
				pairs = append(pairs, c, c)
			}
		}
	}
	if len(pairs) == 0 {
		return l
	}
	pairs = append(pairs, l.pairs...)
	return Paths{strings.NewReplacer(pairs...), pairs}
}

// Replace is s with l's rewrites.
func (l Paths) Replace(s string) string { return l.r.Replace(s) }

// Command is a cell's command as the bundle shows it: each argument with
// Replace's rewrites, and a path still absolute (also as a flag's value,
// "--db=/x") made relative to the bundle dst.
func (l Paths) Command(dst string, args []string) string {
	out := []string{notebook.CellLanguage}
	for _, a := range args {
		a = l.Replace(a)
		if filepath.IsAbs(a) {
			a = Rel(dst, a)
		} else if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") && filepath.IsAbs(v) {
			a = k + "=" + Rel(dst, v)
		}
		out = append(out, a)
	}
	return notebook.Quote(out)
}

// Rel is path relative to the bundle dst, slash-separated, so a manifest
// names its inputs the same way wherever the bundle is copied with them;
// path itself when either cannot be made absolute.
func Rel(dst, path string) string {
	absDst, err1 := filepath.Abs(dst)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(absDst, absPath)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}
