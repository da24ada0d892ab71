package lockfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestAcquire: a second Acquire (of this process: flock locks belong to
// the open file) waits, then fails naming the holder; Held tells the
// same; after Unlock the lock is free.
func TestAcquire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var told Holder
	_, err = Acquire(path, Options{Wait: 30 * time.Millisecond, Waiting: func(h Holder) { told = h }})
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) || be.Holder.PID != os.Getpid() || told.PID != os.Getpid() {
		t.Fatalf("second Acquire: %v (told %+v)", err, told)
	}
	if msg := err.Error(); !strings.Contains(msg, "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(msg, os.Args[0]) {
		t.Errorf("message %q names neither the pid nor the command", msg)
	}
	if h, held := Held(path); !held || h.PID != os.Getpid() {
		t.Errorf("Held: %+v %v", h, held)
	}
	// A waiter that waits long enough gets the lock once it is released.
	done := make(chan error)
	go func() {
		l2, err := Acquire(path, Options{Wait: -1})
		if err == nil {
			err = l2.Unlock()
		}
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, held := Held(path); held {
		t.Error("held after Unlock")
	}
}

// TestRemoveOrphans: the temporary files of a process that is gone go,
// this process's and a live one's stay, as do other names.
func TestRemoveOrphans(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	dead := cmd.Process.Pid // reaped: gone, unless taken again at once
	names := map[string]bool{
		".store.db.tmp-" + strconv.Itoa(dead) + "-123":       true,
		".store.db.tmp-" + strconv.Itoa(dead) + "-123-wal":   true,
		".store.db.tmp-" + strconv.Itoa(os.Getpid()) + "-9":  false,
		".store.db.tmp-" + strconv.Itoa(os.Getppid()) + "-9": false,
		"store.db": false,
		".other.tmp-" + strconv.Itoa(dead) + "-1": false,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	removed := RemoveOrphans(dir, "store.db", time.Hour)
	for n, gone := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone != (err != nil) {
			t.Errorf("%s: removed %v, want %v (removed %v)", n, err != nil, gone, removed)
		}
	}
	old := filepath.Join(dir, ".files-1")
	os.Mkdir(old, 0o755)
	if r := RemoveOlder(dir, ".files-*", time.Hour); len(r) != 0 {
		t.Errorf("a new folder removed: %v", r)
	}
	os.Chtimes(old, time.Now().Add(-2*time.Hour), time.Now().Add(-2*time.Hour))
	if r := RemoveOlder(dir, ".files-*", time.Hour); len(r) != 1 {
		t.Errorf("an old folder kept: %v", r)
	}
}

// TestAcquireRemoved: the lock file exists only while the lock is held;
// many goroutines taking turns (each Acquire opens the file anew, as
// processes do) never hold it at once, although each Unlock removes the
// file that the others wait on.
func TestAcquireRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				l, err := Acquire(path, Options{Wait: -1})
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				time.Sleep(100 * time.Microsecond)
				inside.Add(-1)
				if err := l.Unlock(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d holders at once", most.Load())
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the lock file stayed after the last Unlock")
	}
}
