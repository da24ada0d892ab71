package lockfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Holder is the process that holds a lock, as its lock file records it.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"` // its arguments, space-separated
	Since   time.Time `json:"since"`
}

// String names the holder: "pid 1234 on host (graphperf bench ingest
// --db s.db a), since 15:04:05", or "another process" when the lock file
// says nothing.
func (h Holder) String() string {
	if h.PID == 0 {
		return "another process"
	}
	s := "pid " + strconv.Itoa(h.PID)
	if h.Host != "" {
		s += " on " + h.Host
	}
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if !h.Since.IsZero() {
		s += ", since " + h.Since.Local().Format("15:04:05")
	}
	return s
}

// ErrBusy is what a *BusyError is (errors.Is).
var ErrBusy = errors.New("lockfile: held by another process")

// BusyError is Acquire's error when another process held the lock for
// longer than Options.Wait.
type BusyError struct {
	Path   string
	Holder Holder
	Waited time.Duration
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is held by %s; waited %s", e.Path, e.Holder, e.Waited.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Options say how Acquire waits; the zero value does not wait.
type Options struct {
	// Wait is how long to wait for another holder: 0 not at all, a
	// negative value as long as it takes.
	Wait time.Duration
	// Waiting, when not nil, is called once, with the holder, when the
	// lock is held by another process and Acquire is about to wait.
	Waiting func(Holder)
}

// Lock is a lock held by this process; Unlock releases it.
type Lock struct {
	f    *os.File
	path string
}

// Acquire takes the exclusive lock of the file path (created when
// missing) and records this process in it as the holder; Unlock removes
// the file, so that it exists only while a process holds the lock, or
// after a process holding it died (a later Acquire takes it over). Locks
// are flock(2) locks: the kernel releases them when the process dies,
// however it dies, so a lock file never stays held by a process that is
// gone. Two Acquire calls in one process exclude each other as two
// processes do.
func Acquire(path string, opt Options) (*Lock, error) {
	start := time.Now()
	told := false
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) && opt.Wait != 0 {
			if opt.Waiting != nil && !told {
				h, _ := readHolder(f)
				opt.Waiting(h)
				told = true
			}
			wait := opt.Wait
			if wait > 0 {
				wait = max(opt.Wait-time.Since(start), time.Nanosecond)
			}
			err = waitLock(f, wait)
		}
		if err != nil {
			h, _ := readHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &BusyError{Path: path, Holder: h, Waited: time.Since(start)}
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder this process waited for may have removed the file
		// (Unlock): a lock on a file no longer at path locks nothing.
		if !samePath(f, path) {
			f.Close()
			continue
		}
		if err := writeHolder(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return &Lock{f: f, path: path}, nil
	}
}

// samePath reports whether f is the file at path now.
func samePath(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// waitLock tries the lock until it is free or d has passed (d < 0:
// blocks).
func waitLock(f *os.File, d time.Duration) error {
	if d < 0 {
		return flock(f, syscall.LOCK_EX)
	}
	deadline := time.Now().Add(d)
	pause := 5 * time.Millisecond
	for {
		err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) || !time.Now().Before(deadline) {
			return err
		}
		time.Sleep(min(pause, time.Until(deadline)))
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// flock is syscall.Flock, tried again when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Unlock removes the lock file and releases the lock (in this order: a
// process that waits on the removed file then finds it gone and takes the
// lock on a new one).
func (l *Lock) Unlock() error {
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeHolder(f *os.File) error {
	host, _ := os.Hostname()
	b, err := json.Marshal(Holder{PID: os.Getpid(), Host: host, Command: strings.Join(os.Args, " "), Since: time.Now()})
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(append(b, '\n'), 0)
	return err
}

// readHolder reads the holder that f records; the zero Holder when it
// records none (a holder that has not written itself yet).
func readHolder(f *os.File) (Holder, error) {
	var h Holder
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err != nil || len(b) == 0 {
		return h, err
	}
	return h, json.Unmarshal(b, &h)
}

// Held reports whether a process holds the lock of path, and which one.
// It takes the lock shared for an instant to tell, so an Acquire racing
// with it may wait a moment.
func Held(path string) (Holder, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Holder{}, false
	}
	defer f.Close()
	if err := flock(f, syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		return Holder{}, false
	}
	h, _ := readHolder(f)
	return h, true
}

// TempPattern is a pattern for os.CreateTemp and os.MkdirTemp, in the
// directory of the file name, that names this process:
// ".NAME.tmp-PID-*". RemoveOrphans recognises the files made with it.
func TempPattern(name string) string {
	return "." + name + ".tmp-" + strconv.Itoa(os.Getpid()) + "-*"
}

// RemoveOrphans removes the entries of dir that TempPattern(name) made
// (and whatever else starts with such a name, as SQLite's -wal and -shm
// files do) for a process that is gone, or that are older than maxAge (a
// pid that another process took since). It returns the paths removed;
// failing to remove one is not an error (a reader may hold it open on some
// systems), nor is a missing dir.
func RemoveOrphans(dir, name string, maxAge time.Duration) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := "." + name + ".tmp-"
	var removed []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid <= 0 {
			continue
		}
		if pid == os.Getpid() || (Alive(pid) && !older(e, maxAge)) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// RemoveOlder removes the entries of dir whose names match pattern
// (filepath.Match) and that are older than maxAge: the temporary files of
// a program that named no process in them. It returns the paths removed.
func RemoveOlder(dir, pattern string, maxAge time.Duration) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if ok, _ := filepath.Match(pattern, e.Name()); !ok || !older(e, maxAge) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

func older(e os.DirEntry, maxAge time.Duration) bool {
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) > maxAge
}

// Alive reports whether a process of id pid exists on this machine (one
// of another user counts).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
