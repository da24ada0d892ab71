package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// DB is a measurement store. Its methods are safe for concurrent use; the
// store holds one connection, so writers are serialised.
type DB struct {
	sql *sql.DB
}

// pragmas are set on every connection: WAL lets readers run beside the
// writer, synchronous=NORMAL is durable across process crashes in WAL mode,
// and foreign keys are checked.
var pragmas = []string{"foreign_keys(1)", "journal_mode(WAL)", "synchronous(NORMAL)", "busy_timeout(10000)"}

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
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
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
	if err := migrate(db, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &DB{sql: db}, nil
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
