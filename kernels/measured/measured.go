// Package measured embeds the measured H100 dataset (h100/README.md says
// what it holds and how it was measured) and unpacks it into a cache
// directory, so that every command can use it with no GPU and no checkout.
//
// The embedded files are 35.9 MiB (37,608,343 bytes): the BFS sweep (*.jsonl.gz),
// its manifest, the PageRank sweeps (pagerank/, orderings/), the ncu counters (ncu/),
// the microbenchmark output, the graph properties and the per-level BFS
// properties (level-properties.json.gz). The runner logs are not embedded.
package measured

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Name is the name of the embedded dataset, and its directory in FS.
const Name = "h100"

// Prefix marks a command-line path that names a file of the embedded dataset:
// "embedded:ncu/rmat-s18-e8.csv.gz" is h100/ncu/rmat-s18-e8.csv.gz.
const Prefix = "embedded:"

// CacheEnv is the environment variable that overrides the cache directory
// (default: the user cache directory's graphperf folder, see
// os.UserCacheDir, or the system temporary directory when there is none).
const CacheEnv = "GRAPHPERF_CACHE_DIR"

// FS returns the embedded dataset, rooted at its directory (so "manifest.json"
// and "ncu/rmat-s18-e8.csv.gz" are paths in it).
func FS() fs.FS {
	sub, err := fs.Sub(files, Name)
	if err != nil {
		panic(err) // Name is a directory of the embedded tree
	}
	return sub
}

// Files lists the embedded files' paths (relative to FS), sorted.
func Files() []string {
	var out []string
	fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

var hashOnce = sync.OnceValue(func() string {
	h := sha256.New()
	for _, p := range Files() {
		b, err := fs.ReadFile(FS(), p)
		if err != nil {
			panic(err) // embedded files are readable
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
})

// Hash is the SHA-256 over the embedded files' paths, sizes and contents:
// it names the dataset's version (report manifests record it, and the cache
// directory is keyed by it).
func Hash() string { return hashOnce() }

// CacheDir returns the directory the dataset's derived files live in:
// $GRAPHPERF_CACHE_DIR, or os.UserCacheDir()/graphperf, or
// os.TempDir()/graphperf-cache; then a folder named after the first 16 hex
// digits of Hash, so a new dataset never reuses an old cache. It creates
// nothing.
func CacheDir() string {
	base := os.Getenv(CacheEnv)
	if base == "" {
		if d, err := os.UserCacheDir(); err == nil {
			base = filepath.Join(d, "graphperf")
		} else {
			base = filepath.Join(os.TempDir(), "graphperf-cache")
		}
	}
	return filepath.Join(base, Name+"-"+Hash()[:16])
}

var dirMu sync.Mutex

// Dir unpacks the embedded dataset into CacheDir()/files (once: a complete
// unpacked copy is reused) and returns that directory. The copy is written
// into a temporary directory beside it and renamed into place, so a reader
// never sees half of it and two processes may race safely.
func Dir() (string, error) {
	dirMu.Lock()
	defer dirMu.Unlock()
	cache := CacheDir()
	dst := filepath.Join(cache, "files")
	if complete(dst) {
		return dst, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, ".files-*")
	if err != nil {
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	if err := unpack(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("embedded dataset: unpack into %s: %w", tmp, err)
	}
	os.RemoveAll(dst) // an incomplete or damaged copy
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		if complete(dst) { // another process won the race
			return dst, nil
		}
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	return dst, nil
}

// complete says whether dir holds every embedded file with its size.
func complete(dir string) bool {
	for _, p := range Files() {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return false
		}
		efi, err := fs.Stat(FS(), p)
		if err != nil || efi.Size() != fi.Size() {
			return false
		}
	}
	return true
}

func unpack(dir string) error {
	for _, p := range Files() {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := copyFile(p, dst); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(p, dst string) (err error) {
	in, err := FS().Open(p)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}

// ErrNotEmbedded is returned for an "embedded:" path that names no
// embedded file.
var ErrNotEmbedded = errors.New("measured: no such file in the embedded dataset")

// Resolve maps a command-line path to a file on disk: a path starting with
// Prefix names a file of the embedded dataset, which is unpacked (Dir) and
// its path returned; any other path is returned as it is. An "embedded:"
// path that names no embedded file is an error wrapping ErrNotEmbedded that
// lists what exists under its folder.
func Resolve(p string) (string, error) {
	rel, ok := strings.CutPrefix(p, Prefix)
	if !ok {
		return p, nil
	}
	rel = path.Clean(strings.TrimPrefix(rel, Name+"/"))
	if _, err := fs.Stat(FS(), rel); err != nil {
		var near []string
		for _, f := range Files() {
			if path.Dir(f) == path.Dir(rel) && len(near) < 12 {
				near = append(near, f)
			}
		}
		return "", fmt.Errorf("%s: %w (some that are: %s)", p, ErrNotEmbedded, strings.Join(near, ", "))
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}
