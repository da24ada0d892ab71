package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/internal/lockfile"
)

// ManifestName is the bundle's manifest, and PendingPattern names the
// manifests of bundles being installed over a previous one (Install):
// while one is there, a file of it counts as the bundle's as much as a
// file of the manifest. A killed Install leaves its pending manifest; the
// next one that completes removes them all.
const (
	ManifestName   = "manifest.json"
	PendingPattern = ".manifest.next-*.json"
)

// pending lists dir's pending manifests.
func pending(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, PendingPattern))
	return m
}

// Contents is what a folder holds, seen by Install: the files of a
// previous bundle and everything else.
type Contents struct {
	// Bundle says the folder holds a bundle: a manifest.json of Tool that
	// lists files, at least one of them there with the content it lists.
	// A folder that holds nothing else is not a bundle either.
	Bundle bool
	// Own are the bundle's files there with the content its manifest
	// lists (or the pending manifest's), and the manifests; slash-separated
	// paths, sorted.
	Own []string
	// Changed are the files the manifest lists whose content changed since
	// (edited by someone): they are not the bundle's any more.
	Changed []string
	// Foreign are the entries that are not the bundle's: files, and
	// folders holding none of its files (named once, with a trailing "/").
	// Every entry of a folder that is not a bundle is foreign.
	Foreign []string
}

// Others are the entries that are not the bundle's: Changed, then Foreign.
func (c *Contents) Others() []string {
	var out []string
	for _, p := range c.Changed {
		out = append(out, p+" (changed since graphperf wrote it)")
	}
	return append(out, c.Foreign...)
}

// Inspect reads what dir holds: its bundle's files (Contents.Own), those
// changed since (Changed) and everything else (Foreign). A dir that does
// not exist holds nothing. Its cost is one read of every file the manifest
// lists (their SHA-256).
func Inspect(dir string) (*Contents, error) {
	c := &Contents{}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	listed := map[string][]string{} // path → the hashes a manifest gives it
	manifests := append([]string{filepath.Join(dir, ManifestName)}, pending(dir)...)
	for _, path := range manifests {
		if m := readManifest(path); m != nil {
			for rel, h := range m.Files {
				if cleanRel(rel) {
					listed[rel] = append(listed[rel], h)
				}
			}
		}
	}
	own := map[string]bool{}
	var changed []string
	for rel, hashes := range listed {
		h, err := fileSHA(filepath.Join(dir, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			// listed, not there
		case slices.Contains(hashes, h):
			own[rel] = true
		default:
			changed = append(changed, rel)
		}
	}
	if len(own) > 0 {
		c.Bundle = true
		// The manifests (a pending one that a kill left half written
		// included: no file was moved before it was complete).
		for _, path := range manifests {
			if _, err := os.Lstat(path); err == nil {
				own[filepath.Base(path)] = true
			}
		}
		c.Changed = changed
	} else {
		own = map[string]bool{}
	}
	ownDirs := map[string]bool{}
	for rel := range own {
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			ownDirs[d] = true
		}
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case e.IsDir() && ownDirs[rel]:
			return nil
		case e.IsDir():
			c.Foreign = append(c.Foreign, rel+"/")
			return filepath.SkipDir
		case own[rel]:
			c.Own = append(c.Own, rel)
		case !slices.Contains(c.Changed, rel):
			c.Foreign = append(c.Foreign, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(c.Changed)
	return c, nil
}

// readManifest is the manifest at path when it is one of Tool that lists
// files, else nil.
func readManifest(path string) *Manifest {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m Manifest
	if json.Unmarshal(b, &m) != nil || m.Tool != Tool || len(m.Files) == 0 {
		return nil
	}
	return &m
}

// cleanRel says whether rel is a plain relative path inside a bundle (a
// manifest can name nothing outside its folder).
func cleanRel(rel string) bool {
	return rel != "" && !path.IsAbs(rel) && path.Clean(rel) == rel && !strings.HasPrefix(rel, "../") && rel != ".."
}

// OthersError is Install's error for a folder that holds entries that are
// not a previous bundle's, without Force.
type OthersError struct {
	Dir    string
	Others []string // Contents.Others
}

func (e *OthersError) Error() string {
	return fmt.Sprintf("%s holds %s that graphperf report did not write: %s; refusing to write there (they are never removed): move them away, or give --force to write the bundle beside them",
		e.Dir, plural(len(e.Others), "entry", "entries"), listSome(e.Others, 8))
}

// ConflictError is Install's error when the new bundle would overwrite
// entries that are not the previous bundle's: never done, Force or not.
type ConflictError struct {
	Dir       string
	Conflicts []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s: the bundle would overwrite %s that graphperf report did not write (or that changed since): %s; move them away first",
		e.Dir, plural(len(e.Conflicts), "entry", "entries"), listSome(e.Conflicts, 8))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listSome is the first n of xs, comma-separated, and how many more.
func listSome(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
}

// Check says whether a bundle may be installed at dst: nil when dst does
// not exist, is empty or holds only a previous bundle's files; else an
// *OthersError naming the rest, unless force (then they are kept beside
// the bundle).
func Check(dst string, force bool) error {
	fi, err := os.Stat(dst)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", dst)
	}
	c, err := Inspect(dst)
	if err != nil {
		return err
	}
	if others := c.Others(); len(others) > 0 && !force {
		return &OthersError{Dir: dst, Others: others}
	}
	return nil
}

// Install puts the bundle written in tmp (a folder beside dst, holding a
// manifest) at dst. When dst does not exist or is empty, tmp is renamed to
// it. Otherwise the bundle is installed file by file: its manifest is
// written first as a pending one (PendingPattern), then the previous
// bundle's files (Inspect's Own) that the new one lacks are removed, the
// new files renamed into place, the manifest renamed into place, and the
// pending manifests removed; so a kill at any point leaves a folder whose
// every file is a bundle's, and the command run again completes. Entries
// that are not the previous bundle's are never removed nor overwritten:
// Install refuses them with an *OthersError unless force, and a new file
// where one of them is with a *ConflictError, force or not.
func Install(tmp, dst string, force bool) error {
	if err := Check(dst, force); err != nil {
		return err
	}
	if entries, err := os.ReadDir(dst); errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		faultpoint.Hit("report: rename the bundle into place")
		return os.Rename(tmp, dst) // over an empty folder too
	}
	c, err := Inspect(dst)
	if err != nil {
		return err
	}
	next := readManifest(filepath.Join(tmp, ManifestName))
	if next == nil {
		return fmt.Errorf("%s: no manifest to install", tmp)
	}
	own := map[string]bool{}
	for _, rel := range c.Own {
		own[rel] = true
	}
	files := slices.Sorted(maps.Keys(next.Files))
	var conflicts []string
	for _, rel := range append(files, ManifestName) {
		if cf := conflict(dst, rel, own); cf != "" && !slices.Contains(conflicts, cf) {
			conflicts = append(conflicts, cf)
		}
	}
	if len(conflicts) > 0 {
		return &ConflictError{Dir: dst, Conflicts: conflicts}
	}
	// 1. The new manifest, pending: from here on, a new file counts as the
	// bundle's as much as an old one. Earlier pending ones stay until the
	// end: the files of a killed install are theirs.
	faultpoint.Hit("report: write the pending manifest")
	if err := copyPending(filepath.Join(tmp, ManifestName), dst); err != nil {
		return err
	}
	// 2. The previous bundle's files that the new one lacks.
	for _, rel := range c.Own {
		if _, keep := next.Files[rel]; keep || rel == ManifestName || !strings.Contains(rel, "/") && isPending(rel) {
			continue
		}
		faultpoint.Hit("report: remove an old file")
		if err := os.Remove(filepath.Join(dst, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removeEmptyParents(dst, rel)
	}
	// 3. The new files, each renamed over its old version.
	for _, rel := range files {
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		faultpoint.Hit("report: rename a new file into place")
		if err := os.Rename(filepath.Join(tmp, filepath.FromSlash(rel)), to); err != nil {
			return err
		}
	}
	// 4. The manifest, then no pending one.
	faultpoint.Hit("report: rename the manifest into place")
	if err := os.Rename(filepath.Join(tmp, ManifestName), filepath.Join(dst, ManifestName)); err != nil {
		return err
	}
	for _, p := range pending(dst) {
		faultpoint.Hit("report: remove a pending manifest")
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// isPending says whether name is a pending manifest's.
func isPending(name string) bool {
	ok, _ := filepath.Match(PendingPattern, name)
	return ok
}

// copyPending copies the manifest from into dir as a new pending manifest.
func copyPending(from, dir string) (err error) {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, PendingPattern)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	_, err = f.Write(b)
	return err
}

// conflict is the entry of dst in the way of the bundle file rel when it
// is not the previous bundle's (own): a file, or a file where rel needs a
// folder, or a folder where rel is a file; "" when none.
func conflict(dst, rel string, own map[string]bool) string {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		fi, err := os.Lstat(filepath.Join(dst, filepath.FromSlash(dir)))
		if err == nil && !fi.IsDir() {
			return dir
		}
		if err != nil {
			return ""
		}
	}
	fi, err := os.Lstat(filepath.Join(dst, filepath.FromSlash(rel)))
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return rel + "/"
	case !own[rel]:
		return rel
	}
	return ""
}

// removeEmptyParents removes the folders of rel under dst that are left
// empty, deepest first.
func removeEmptyParents(dst, rel string) {
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		if os.Remove(filepath.Join(dst, filepath.FromSlash(d))) != nil {
			return
		}
	}
}

// TempDir makes the temporary folder beside dst that a bundle is written
// into (named after this process, so that RemoveOrphans knows it), mode
// 0755, after removing those that killed runs left there.
func TempDir(dst string) (string, error) {
	parent, base := filepath.Split(filepath.Clean(dst))
	if parent == "" {
		parent = "."
	}
	lockfile.RemoveOrphans(parent, base, orphanAge)
	tmp, err := os.MkdirTemp(parent, lockfile.TempPattern(base))
	if err != nil {
		return "", err
	}
	// MkdirTemp makes it 0700; a bundle's folders are 0755.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// orphanAge is the age past which a temporary folder whose pid is alive is
// taken for an orphan all the same (its pid taken by another process): no
// report runs for a day.
const orphanAge = 24 * time.Hour
