// Package measured embeds the measured datasets, one per GPU (h100/ and
// h200/; each README.md says what it holds and how it was measured), and
// unpacks them into a cache directory, so that every command can use them
// with no GPU and no checkout. The H100's is the default.
//
// The embedded H100 files are 36.5 MiB (38,241,922 bytes): the BFS sweep
// (*.jsonl.gz), its manifest, the PageRank sweeps (pagerank/, orderings/),
// the ncu counters (ncu/), the microbenchmark output, the graph properties,
// the per-level BFS properties (level-properties.json.gz), the switching
// BFS runs (switch/) and the linear-algebra runs of seed 001 (la/, 247,491
// bytes, read by "graphperf la analyze"). The H200's,
// 9.2 MiB (9,605,401 bytes), have the same layout (no orderings/). The runner logs are not embedded.
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
	"time"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/internal/lockfile"
)

// Name is the name of the default embedded dataset (the H100's), and its
// directory in the embedded tree.
const Name = "h100"

// Platforms names the embedded datasets, one per GPU, each a directory of
// the embedded tree with the same layout (h100/README.md and h200/README.md
// say what each holds). The first is the default.
var Platforms = []string{"h100", "h200"}

// Prefix marks a command-line path that names a file of the embedded dataset:
// "embedded:ncu/rmat-s18-e8.csv.gz" is h100/ncu/rmat-s18-e8.csv.gz, and
// "embedded:h200/ncu/rmat-s18-e8.csv.gz" the H200's.
const Prefix = "embedded:"

// CacheEnv is the environment variable that overrides the cache directory
// (default: the user cache directory's graphperf folder, see
// os.UserCacheDir, or the system temporary directory when there is none).
const CacheEnv = "GRAPHPERF_CACHE_DIR"

// Dataset is one platform's embedded dataset.
type Dataset struct {
	name string
	hash func() string
	mu   sync.Mutex // serializes Dir
}

var datasets = func() map[string]*Dataset {
	m := map[string]*Dataset{}
	for _, name := range Platforms {
		d := &Dataset{name: name}
		d.hash = sync.OnceValue(d.computeHash)
		m[name] = d
	}
	return m
}()

// Get returns the embedded dataset of a platform ("h100", "h200"); an
// unknown name is an error that lists the embedded ones.
func Get(name string) (*Dataset, error) {
	if d, ok := datasets[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("no embedded dataset %q (embedded: %s)", name, strings.Join(Platforms, ", "))
}

// Default is the default embedded dataset, Name's.
func Default() *Dataset { return datasets[Name] }

// Name is the dataset's platform name, its directory in the embedded tree.
func (d *Dataset) Name() string { return d.name }

// FS returns the dataset's files, rooted at its directory (so
// "manifest.json" and "ncu/rmat-s18-e8.csv.gz" are paths in it).
func (d *Dataset) FS() fs.FS {
	sub, err := fs.Sub(files, d.name)
	if err != nil {
		panic(err) // every name of Platforms is a directory of the embedded tree
	}
	return sub
}

// Files lists the dataset's paths (relative to FS), sorted.
func (d *Dataset) Files() []string {
	var out []string
	fs.WalkDir(d.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func (d *Dataset) computeHash() string { return d.HashOf("") }

// HashOf is the SHA-256 over the paths, sizes and contents of the
// dataset's files under the folder dir ("la" is the linear-algebra runs;
// "" is every file, Hash): Hash's recipe on part of the dataset, so a
// report's manifest can name the part a cell read. It reads those files
// once per call.
func (d *Dataset) HashOf(dir string) string {
	h := sha256.New()
	for _, p := range d.Files() {
		if dir != "" && !strings.HasPrefix(p, dir+"/") {
			continue
		}
		b, err := fs.ReadFile(d.FS(), p)
		if err != nil {
			panic(err) // embedded files are readable
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Hash is the SHA-256 over the dataset's paths, sizes and contents: it
// names the dataset's version (report manifests record it, and the cache
// directory is keyed by it).
func (d *Dataset) Hash() string { return d.hash() }

// CacheDir returns the directory the dataset's derived files live in:
// $GRAPHPERF_CACHE_DIR, or os.UserCacheDir()/graphperf, or
// os.TempDir()/graphperf-cache; then a folder named after the platform and
// the first 16 hex digits of Hash, so a new dataset never reuses an old
// cache. It creates nothing.
func (d *Dataset) CacheDir() string {
	base := os.Getenv(CacheEnv)
	if base == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			base = filepath.Join(dir, "graphperf")
		} else {
			base = filepath.Join(os.TempDir(), "graphperf-cache")
		}
	}
	return filepath.Join(base, d.name+"-"+d.Hash()[:16])
}

// Dir unpacks the dataset into CacheDir()/files (once: a complete unpacked
// copy is reused) and returns that directory. Processes share the cache
// safely: one unpacks at a time (the lock CacheDir()/.files.lock; the
// others wait, then find the copy complete), into a private temporary
// directory named after its pid that is renamed into place when complete,
// so a reader never sees half a copy and nothing another process made is
// removed. A copy is replaced only when damaged (a file missing or of the
// wrong size), which no process of this package leaves. The temporary
// directories of killed processes are removed on the next unpacking.
func (d *Dataset) Dir() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cache := d.CacheDir()
	dst := filepath.Join(cache, "files")
	if d.complete(dst) {
		return dst, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	lock, err := lockfile.Acquire(filepath.Join(cache, ".files.lock"), lockfile.Options{Wait: -1})
	if err != nil {
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	defer lock.Unlock()
	RemoveOrphans(cache, "files")
	if d.complete(dst) { // another process unpacked it while this one waited
		return dst, nil
	}
	tmp, err := os.MkdirTemp(cache, lockfile.TempPattern("files"))
	if err != nil {
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	if err := d.unpack(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("embedded dataset: unpack into %s: %w", tmp, err)
	}
	faultpoint.Hit("cache: unpacked")
	// A damaged copy: moved aside (a name RemoveOrphans knows), then gone.
	aside := tmp + "-damaged"
	if err := os.Rename(dst, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("embedded dataset: %w", err)
	}
	os.RemoveAll(aside)
	return dst, nil
}

// OrphanAge is the age past which a temporary file of the cache is taken
// for one a killed process left even when a process of its pid is alive
// (the pid taken since); and LegacyOrphanAge the age past which one whose
// name holds no pid is, as earlier versions named them (".files-*",
// ".embedded-*.db").
const (
	OrphanAge       = 24 * time.Hour
	LegacyOrphanAge = 30 * time.Minute
)

// RemoveOrphans removes what killed processes left in the cache directory
// dir while they wrote name there: lockfile.TempPattern(name) entries of a
// process that is gone (or older than OrphanAge), and the temporary
// entries of earlier versions older than LegacyOrphanAge. It returns the
// paths removed.
func RemoveOrphans(dir, name string) []string {
	removed := lockfile.RemoveOrphans(dir, name, OrphanAge)
	for _, legacy := range []string{".files-*", ".embedded-*.db", ".embedded-*.db-*"} {
		removed = append(removed, lockfile.RemoveOlder(dir, legacy, LegacyOrphanAge)...)
	}
	return removed
}

// complete says whether dir holds every file of the dataset with its size.
func (d *Dataset) complete(dir string) bool {
	for _, p := range d.Files() {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return false
		}
		efi, err := fs.Stat(d.FS(), p)
		if err != nil || efi.Size() != fi.Size() {
			return false
		}
	}
	return true
}

func (d *Dataset) unpack(dir string) error {
	for _, p := range d.Files() {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := d.copyFile(p, dst); err != nil {
			return err
		}
	}
	return nil
}

func (d *Dataset) copyFile(p, dst string) (err error) {
	in, err := d.FS().Open(p)
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

// FS returns the default (H100) dataset's files: Default().FS().
func FS() fs.FS { return Default().FS() }

// Files lists the default dataset's paths: Default().Files().
func Files() []string { return Default().Files() }

// Hash is the default dataset's hash: Default().Hash().
func Hash() string { return Default().Hash() }

// CacheDir is the default dataset's cache directory: Default().CacheDir().
func CacheDir() string { return Default().CacheDir() }

// Dir unpacks the default dataset: Default().Dir().
func Dir() (string, error) { return Default().Dir() }

// ErrNotEmbedded is returned for an "embedded:" path that names no
// embedded file.
var ErrNotEmbedded = errors.New("measured: no such file in the embedded dataset")

// Resolve maps a command-line path to a file on disk: a path starting with
// Prefix names a file of an embedded dataset ("embedded:PATH" the default
// H100 dataset's, "embedded:h200/PATH" the H200's), which is unpacked (Dir)
// and its path returned; any other path is returned as it is. An "embedded:"
// path that names no embedded file is an error wrapping ErrNotEmbedded that
// lists what exists under its folder.
func Resolve(p string) (string, error) {
	rel, ok := strings.CutPrefix(p, Prefix)
	if !ok {
		return p, nil
	}
	d := Default()
	for _, name := range Platforms {
		if rel == name || strings.HasPrefix(rel, name+"/") {
			d = datasets[name]
			rel = strings.TrimPrefix(strings.TrimPrefix(rel, name), "/")
			break
		}
	}
	rel = path.Clean(rel)
	if _, err := fs.Stat(d.FS(), rel); err != nil {
		var near []string
		for _, f := range d.Files() {
			if path.Dir(f) == path.Dir(rel) && len(near) < 12 {
				near = append(near, f)
			}
		}
		return "", fmt.Errorf("%s: %w (some that are: %s)", p, ErrNotEmbedded, strings.Join(near, ", "))
	}
	dir, err := d.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}
