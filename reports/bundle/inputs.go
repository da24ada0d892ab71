package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/latime"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/reports/notebook"
)

// Input is one input of the bundle with its SHA-256: an embedded dataset,
// model or machine file, a graph file, a store or a file a cell names.
type Input struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	SHA256 string `json:"sha256"`
	// Note says how the input was read, or why it was not (a graph file
	// not at hand: the cells that needed it skipped it).
	Note string `json:"note,omitempty"`
	// Cells are the cells that name the input in their command (numbers
	// from 1); empty for the embedded inputs every cell may read.
	Cells []int `json:"cells,omitempty"`
}

// Env is an environment variable that changes what a bundle's cells
// compute, as the manifest records it.
type Env struct {
	Name string `json:"name"`
	// Value is the variable's value, a path relative to the checkout or
	// to the bundle (rebuildPath); "" when unset.
	Value string `json:"value"`
	Set   bool   `json:"set"`
	// Effect says what the value changed in this bundle.
	Effect string `json:"effect"`
}

// The kinds of Input.
const (
	KindEmbeddedData  = "embedded dataset"
	KindEmbeddedModel = "embedded model"
	KindMachine       = "embedded machine file"
	KindGraphFile     = "graph file"
	KindStore         = "store (--db)"
	KindCellFile      = "file a cell names"
)

// embeddedInputs are the inputs the binary carries, each hashed: the
// measured datasets (the H100's and the H200's), the H100's
// linear-algebra runs (part of its dataset, hashed apart as the la cells
// read them), the embedded time models and the machine files. Any cell
// may read them; the default notebook reads them all. It hashes the
// embedded bytes (about 46 MiB) once per call.
func embeddedInputs() []Input {
	var out []Input
	for _, name := range measured.Platforms {
		d, err := measured.Get(name)
		if err != nil {
			continue
		}
		out = append(out, Input{Name: fmt.Sprintf("embedded %s dataset (kernels/measured/%s)", strings.ToUpper(name), name),
			Kind: KindEmbeddedData, SHA256: d.Hash(), Note: strconv.Itoa(len(d.Files())) + " files"})
	}
	out = append(out, Input{Name: "embedded H100 linear-algebra runs (kernels/measured/h100/la)", Kind: KindEmbeddedData,
		SHA256: measured.Default().HashOf("la"), Note: "part of the H100 dataset, read by the la verbs"})
	add := func(kind string, files map[string][]byte) {
		names := make([]string, 0, len(files))
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, Input{Name: n, Kind: kind, SHA256: sha(files[n])})
		}
	}
	add(KindEmbeddedModel, predict.EmbeddedFiles())
	add(KindEmbeddedModel, latime.EmbeddedFiles())
	add(KindMachine, machine.EmbeddedFiles())
	return out
}

// graphFileInputs are the file (SNAP) graphs of the embedded H100 sweep:
// read from $GRAPHPERF_GRAPHS (hashed there), or built by an earlier run
// into the cache, or not at hand, when a cell that needs one skips it. It
// returns them with GRAPHPERF_GRAPHS's effect, in words. It hashes the
// files found (5 MiB for the five SNAP graphs).
func graphFileInputs(dst string) ([]Input, Env) {
	env := Env{Name: kernels.GraphsEnv}
	dir, set := os.LookupEnv(kernels.GraphsEnv)
	env.Set = set && dir != ""
	if env.Set {
		env.Value, _ = rebuildPath(dir, dst)
	}
	graphs, err := embedded.FileGraphs()
	if err != nil {
		env.Effect = "the embedded sweep's file graphs could not be listed: " + err.Error()
		return nil, env
	}
	var out []Input
	var found, cached, missing []string
	for _, g := range graphs {
		in := Input{Name: "$" + kernels.GraphsEnv + "/" + g.File, Kind: KindGraphFile, SHA256: g.SHA256}
		if env.Set {
			if h, err := fileSHA(filepath.Join(dir, g.File)); err == nil {
				in.SHA256 = h
				in.Note = "read for the graph " + g.Name + " where a cell builds it"
				if g.SHA256 != "" && h != g.SHA256 {
					in.Note = "NOT the file the sweep measured (its SHA-256 was " + g.SHA256 + "): a cell that builds " + g.Name + " fails"
				}
				found = append(found, g.Name)
				out = append(out, in)
				continue
			}
		}
		if g.Cached != "" {
			in.Note = "not read: " + g.Name + " was built from this file (the hash the sweep recorded) into the cache by an earlier run, and the cells read that"
			cached = append(cached, g.Name)
		} else {
			in.Note = "not at hand (the hash is the one the sweep recorded): the cells that need " + g.Name + " skip it, and their notes say so"
			missing = append(missing, g.Name)
		}
		out = append(out, in)
	}
	var parts []string
	if env.Set {
		parts = append(parts, fmt.Sprintf("set: %d of the embedded sweep's %d file graphs read from it (%s)", len(found), len(graphs), strings.Join(found, ", ")))
	} else {
		parts = append(parts, fmt.Sprintf("unset: the embedded sweep's %d file (SNAP) graphs cannot be built from their files", len(graphs)))
	}
	if len(cached) > 0 {
		parts = append(parts, fmt.Sprintf("%s built into the cache by an earlier run, read from there", strings.Join(cached, ", ")))
	}
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("%s not at hand: a cell that simulates or rebuilds graphs leaves them out and says so in its notes (model accuracy --simulate simulates only the generated graphs then)", strings.Join(missing, ", ")))
	}
	env.Effect = strings.Join(parts, "; ")
	return out, env
}

// otherEnv are the other variables that change results, recorded when
// set: GRAPHPERF_PYTHON (the interpreter of predict evaluate's
// scikit-learn baseline) and GRAPHPERF_CACHE_DIR (only where derived
// files are kept; recorded so a rebuild finds the same cache).
func otherEnv(dst string) []Env {
	var out []Env
	for _, v := range []struct{ name, effect string }{
		{"GRAPHPERF_PYTHON", "the python that runs predict evaluate's scikit-learn baseline, where a cell runs it"},
		{measured.CacheEnv, "where the embedded datasets are unpacked and graphs built; no effect on the results"},
	} {
		if val, ok := os.LookupEnv(v.name); ok && val != "" {
			value, _ := rebuildPath(val, dst)
			out = append(out, Env{Name: v.name, Value: value, Set: true, Effect: v.effect})
		}
	}
	return out
}

// cellInputs returns the inputs a cell's arguments name, bare or as a
// flag's value: "embedded:graph/NAME" (the graph the cell built, its .gpg
// in the cache), "embedded:PATH" (a file of an embedded dataset) and
// paths of files or folders on this machine; each with its hash (a
// folder's over its files' paths, sizes and contents). An argument that
// names nothing is left out. It runs after the cell, so every graph it
// built is in the cache.
func cellInputs(args []string, local Paths, dst string) []Input {
	var out []Input
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			a = v
		}
		switch {
		case strings.HasPrefix(a, measured.Prefix+"graph/"):
			name := strings.TrimPrefix(a, measured.Prefix+"graph/")
			p := filepath.Join(measured.CacheDir(), "graphs", name+".gpg")
			if h, err := fileSHA(p); err == nil {
				out = append(out, Input{Name: a, Kind: "graph (built from the embedded sweep's manifest)", SHA256: h,
					Note: "the .gpg the cell read, $" + measured.CacheEnv + "/.../graphs/" + name + ".gpg"})
			}
		case strings.HasPrefix(a, measured.Prefix):
			p, err := measured.Resolve(a)
			if err != nil {
				continue
			}
			if h, err := pathSHA(p); err == nil {
				out = append(out, Input{Name: a, Kind: "embedded file", SHA256: h})
			}
		case a != "" && !strings.HasPrefix(a, "-"):
			fi, err := os.Stat(a)
			if err != nil || !(fi.Mode().IsRegular() || fi.IsDir()) {
				continue
			}
			h, err := pathSHA(a)
			if err != nil {
				continue
			}
			name := local.Replace(a)
			if filepath.IsAbs(name) {
				name = Rel(dst, a)
			}
			out = append(out, Input{Name: name, Kind: KindCellFile, SHA256: h})
		}
	}
	return out
}

// addInputs adds ins, read by cell (from 1), to man's inputs: an input
// already listed gets the cell added.
func addInputs(man *Manifest, cell int, ins []Input) {
next:
	for _, in := range ins {
		for i := range man.Inputs {
			if man.Inputs[i].Name == in.Name && man.Inputs[i].SHA256 == in.SHA256 {
				if c := man.Inputs[i].Cells; len(c) == 0 || c[len(c)-1] != cell {
					man.Inputs[i].Cells = append(man.Inputs[i].Cells, cell)
				}
				continue next
			}
		}
		in.Cells = []int{cell}
		man.Inputs = append(man.Inputs, in)
	}
}

// pathSHA is the SHA-256 of a file, or of a folder: over its files'
// slash-separated paths, sizes and contents in lexical order (as
// measured.Dataset.Hash), links not followed.
func pathSHA(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return fileSHA(path)
	}
	h := sha256.New()
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), info.Size())
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// BundleVar names the bundle's own folder in a rebuild command: a path
// outside the checkout is written relative to it, "$BUNDLE/../nb.md", so
// the manifest holds no path of the machine that made it.
const BundleVar = "$BUNDLE"

// rebuildCommand is the one command line that rebuilds the bundle from a
// checkout of graphperf: the commit checked out (when known), the
// variables that change results set as they were, and the report run with
// the same notebook, store and -o (paths as rebuildPath writes them). It
// says whether a path is written relative to BundleVar.
func rebuildCommand(c Commit, envs []Env, nbName, db, dst string) (string, bool) {
	var parts []string
	if c.Revision != Unknown && c.Revision != "" {
		parts = append(parts, "git checkout "+c.Revision, "&&")
	}
	outside := false
	// A path is quoted for the shell, BundleVar left outside the quotes
	// so that the shell expands it.
	quote := func(s string) string {
		if rest, ok := strings.CutPrefix(s, BundleVar); ok {
			outside = true
			if rest == "" {
				return `"` + BundleVar + `"`
			}
			return `"` + BundleVar + `"/` + notebook.Quote([]string{strings.TrimPrefix(rest, "/")})
		}
		return notebook.Quote([]string{s})
	}
	path := func(p string) string {
		s, _ := rebuildPath(p, dst)
		return quote(s)
	}
	for _, e := range envs {
		if e.Set && e.Name != measured.CacheEnv {
			parts = append(parts, e.Name+"="+quote(e.Value))
		}
	}
	parts = append(parts, "go", "run", "./cmd/graphperf", "report")
	if nbName != notebook.DefaultName {
		parts = append(parts, path(nbName))
	}
	if db != "" {
		parts = append(parts, "--db", path(db))
	}
	parts = append(parts, "-o", path(dst))
	return strings.Join(parts, " "), outside
}

// rebuildPath is p as the rebuild command, run in the module's checkout,
// names it: relative to the checkout when inside it or beside it
// ("../shared/graphs"), else relative to the bundle dst, after BundleVar
// (and true).
func rebuildPath(p, dst string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p, false
	}
	if dir := ModuleDir(); dir != "" {
		if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "../..") {
			return filepath.ToSlash(rel), false
		}
	}
	rel := Rel(dst, abs)
	if rel == "." {
		return BundleVar, true
	}
	return BundleVar + "/" + rel, true
}
