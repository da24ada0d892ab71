package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/graphperf/graphperf/internal/lockfile"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// DB is a measurement store. Its methods are safe for concurrent use; the
// store holds one connection, so writers are serialised. Processes that
// write one store at once take turns: each write transaction holds the
// store's writer lock (the file PATH.lock, there only while a process
// holds it, which names that process) and
// SQLite's write lock, so a second ingest waits for the first one's
// current file rather than failing (see WriteWait and BusyError).
type DB struct {
	sql  *sql.DB
	path string // "" in memory
	held bool   // the writer lock is held already (while Open migrates)
}

// pragmas are set on every connection: the busy timeout first (so that
// the others wait for a writer too), WAL lets readers run beside the
// writer, synchronous=NORMAL is durable across process crashes in WAL mode,
// and foreign keys are checked.
var pragmas = []string{"busy_timeout(10000)", "foreign_keys(1)", "journal_mode(WAL)", "synchronous(NORMAL)"}

// WriteWait is how long a write waits for another process that is writing
// the same store (holding its writer lock) before it fails with a
// *BusyError naming that process. One ingest holds the lock for one file
// at a time, so a second ingest interleaves with the first.
var WriteWait = 2 * time.Minute

// BusyError is the error of a write that waited in vain for another
// writer of the store: Writer names it (pid, host, command line, since
// when) when it is a graphperf holding the writer lock, and is empty for
// another program (sqlite3, say), which SQLite's busy timeout (10 s)
// waited for.
type BusyError struct {
	Path   string
	Writer string
	Waited time.Duration
	Err    error // SQLite's, or nil
}

func (e *BusyError) Error() string {
	if e.Writer == "" {
		return fmt.Sprintf("the store %s is locked by a program that is not a graphperf (no writer in %s.lock); waited %s: %v",
			e.Path, e.Path, e.Waited.Round(time.Millisecond), e.Err)
	}
	return fmt.Sprintf("the store %s is being written by %s; waited %s for it: let it finish, or stop it",
		e.Path, e.Writer, e.Waited.Round(time.Millisecond))
}

// Unwrap returns SQLite's error, if any.
func (e *BusyError) Unwrap() error { return e.Err }

// lockWrites takes the store's writer lock (none in memory), waiting at
// most WriteWait, and returns its release.
func (db *DB) lockWrites() (func(), error) {
	if db.path == "" || db.held {
		return func() {}, nil
	}
	l, err := lockfile.Acquire(db.path+".lock", lockfile.Options{Wait: WriteWait})
	var be *lockfile.BusyError
	if errors.As(err, &be) {
		return nil, &BusyError{Path: db.path, Writer: be.Holder.String(), Waited: be.Waited}
	}
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

// beginWrite takes the writer lock and begins a write transaction on conn
// (nil: the store's connection); done releases the lock and is to be
// called after the transaction's Commit or Rollback.
func (db *DB) beginWrite(ctx context.Context, conn *sql.Conn) (tx *sql.Tx, done func(), err error) {
	unlock, err := db.lockWrites()
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	if conn != nil {
		tx, err = conn.BeginTx(ctx, nil)
	} else {
		tx, err = db.sql.BeginTx(ctx, nil)
	}
	if err != nil {
		unlock()
		return nil, nil, db.busy(err, time.Since(start))
	}
	return tx, unlock, nil
}

// busy is err as a *BusyError when it is SQLite's SQLITE_BUSY (5), naming
// the writer that holds the store's writer lock, if any.
func (db *DB) busy(err error, waited time.Duration) error {
	var c sqliteCode
	if !errors.As(err, &c) || c.Code()&0xff != 5 {
		return err
	}
	be := &BusyError{Path: db.path, Waited: waited, Err: err}
	if h, held := lockfile.Held(db.path + ".lock"); held {
		be.Writer = h.String()
	}
	return be
}

// Open opens the store at path, creating it when missing and migrating an
// older schema to SchemaVersion.
func Open(path string) (*DB, error) {
	return open(path, migrations)
}

// OpenMemory opens a new, empty in-memory store.
func OpenMemory() (*DB, error) {
	return open(":memory:", migrations)
}

func open(path string, ms []migration) (*DB, error) {
	if path == ":memory:" {
		return openOnce(path, ms, false)
	}
	fi, err := os.Stat(path)
	if err == nil && fi.Size() > 0 {
		d, err := openOnce(path, ms, false)
		if err == nil || !isBusy(err) {
			return d, err
		}
	}
	// A store that two processes create at once: SQLite may answer
	// SQLITE_BUSY at once, without its busy timeout, while the other one
	// switches the new file to WAL. Created (and migrated) under the
	// writer lock, one process at a time.
	unlock, err := (&DB{path: path}).lockWrites()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer unlock()
	return openOnce(path, ms, true)
}

// isBusy says whether err is SQLite's SQLITE_BUSY (5), or a *BusyError.
func isBusy(err error) bool {
	var c sqliteCode
	var be *BusyError
	return errors.As(err, &be) || (errors.As(err, &c) && c.Code()&0xff == 5)
}

// openOnce opens the store at path; held says this process holds its
// writer lock already (migrate takes it otherwise).
func openOnce(path string, ms []migration, held bool) (*DB, error) {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	// Every transaction of this package writes: BEGIN IMMEDIATE takes the
	// write lock at once, waiting the busy timeout for it, instead of
	// failing with SQLITE_BUSY at its first write when another process
	// committed since its first read.
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	if path == ":memory:" {
		dsn = ":memory:?" + q.Encode()
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection: an in-memory database lives in its connection, and
	// SQLite has a single writer anyway.
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := notStore(db, path); err != nil {
		db.Close()
		return nil, err
	}
	d := &DB{sql: db, held: held}
	if path != ":memory:" {
		d.path = path
	}
	if err := migrate(d, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d.held = false
	return d, nil
}

// Close closes the store.
func (db *DB) Close() error { return db.sql.Close() }

// SQL returns the underlying database, for queries this package has no
// helper for.
func (db *DB) SQL() *sql.DB { return db.sql }

// Version returns the schema version of the open database.
func (db *DB) Version() (int, error) { return schemaVersion(db.sql) }

// NotStoreError is returned by Open for a file that is not a graphperf
// store: not an SQLite database, or one whose tables are another
// program's (Open adds nothing to it).
type NotStoreError struct {
	Path, Why string
}

func (e *NotStoreError) Error() string {
	return fmt.Sprintf("%s is not a graphperf store (%s)", e.Path, e.Why)
}

// sqliteCode is the driver's error, with SQLite's result code.
type sqliteCode interface{ Code() int }

// notStore returns a *NotStoreError for a file that is not an SQLite
// database (SQLITE_NOTADB, 26, or SQLITE_CORRUPT, 11) or holds tables but
// no schema_version table.
func notStore(db *sql.DB, path string) error {
	var tables, versioned int
	err := db.QueryRow(`SELECT count(*), count(CASE WHEN name = 'schema_version' THEN 1 END)
		FROM sqlite_master WHERE type = 'table'`).Scan(&tables, &versioned)
	var c sqliteCode
	switch {
	case errors.As(err, &c) && (c.Code()&0xff == 26 || c.Code()&0xff == 11):
		return &NotStoreError{Path: path, Why: "not an SQLite database"}
	case err != nil:
		return fmt.Errorf("open %s: %w", path, err)
	case tables > 0 && versioned == 0:
		return &NotStoreError{Path: path, Why: "an SQLite database of another program: tables, but no graphperf schema"}
	}
	return nil
}

// MissingStoreError is OpenExisting's error when path cannot be stat'ed
// (it does not exist, say): Err is os.Stat's.
type MissingStoreError struct{ Err error }

func (e *MissingStoreError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *MissingStoreError) Unwrap() error { return e.Err }

// OpenExisting opens the store at path like Open, but creates nothing: a
// path that does not exist is a *MissingStoreError (a read, or a delete,
// of a misspelt path should not leave an empty store behind).
func OpenExisting(path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, &MissingStoreError{err}
	}
	return Open(path)
}
