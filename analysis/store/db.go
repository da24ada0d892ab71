package store

import (
	"database/sql"
	"fmt"
	"net/url"

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
