package store

import (
	"errors"
	"fmt"
	"strings"
)

// PlatformRuns is one platform name of the store with the runs stored for
// it. Platform rows that share a name (the same GPU under another driver,
// say) are one platform here, as Filter.Platform selects them.
type PlatformRuns struct {
	Name string
	// Rows is the number of platform rows with the name.
	Rows int
	// Runs is the number of runs (of the algorithm asked for).
	Runs int
}

// PlatformRuns lists the platform names that have runs of algorithm (""
// any), in the order of their first platform row, with their run counts.
func (db *DB) PlatformRuns(algorithm string) ([]PlatformRuns, error) {
	rows, err := db.sql.Query(`SELECT p.name, COUNT(DISTINCT p.id), COUNT(r.id)
		FROM platforms p JOIN runs r ON r.platform_id = p.id
		JOIN variants v ON v.id = r.variant_id JOIN algorithms a ON a.id = v.algorithm_id
		WHERE ?1 = '' OR a.name = ?1
		GROUP BY p.name ORDER BY MIN(p.id)`, algorithm)
	if err != nil {
		return nil, fmt.Errorf("platform runs: %w", err)
	}
	return collect(rows, func(p *PlatformRuns) []any { return []any{&p.Name, &p.Rows, &p.Runs} })
}

// ErrPlatform is wrapped by every *PlatformError.
var ErrPlatform = errors.New("store: platform")

// PlatformError is ResolvePlatform's error: no platform was named and the
// store holds several, or the name matches none or several. Names are the
// platform names of the store (with runs), or the several that matched.
type PlatformError struct {
	// Name is what was asked for; "" when nothing was.
	Name  string
	Names []string
	// Ambiguous: Name matches every one of Names.
	Ambiguous bool
}

func (e *PlatformError) Error() string {
	quoted := make([]string, len(e.Names))
	for i, n := range e.Names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	list := strings.Join(quoted, ", ")
	switch {
	case e.Name == "":
		return fmt.Sprintf("the store holds runs of %d platforms (%s): choose one with --platform", len(e.Names), list)
	case e.Ambiguous:
		return fmt.Sprintf("platform %q matches %s: give more of the name", e.Name, list)
	case len(e.Names) == 0:
		return fmt.Sprintf("platform %q: the store holds no runs", e.Name)
	}
	return fmt.Sprintf("platform %q: the store holds no such platform (it holds %s)", e.Name, list)
}

// Unwrap returns ErrPlatform.
func (e *PlatformError) Unwrap() error { return ErrPlatform }

// ResolvePlatform returns the platform name that name selects among the
// platforms with runs of algorithm ("" any): the name itself; else the one
// equal to it ignoring case; else the one containing it ignoring case
// ("h100" is "NVIDIA H100 80GB HBM3"). An empty name selects the only
// platform, and "" when the store has no runs. Otherwise the error is a
// *PlatformError naming the platforms: when name is empty and there are
// several, when nothing matches, or when several contain name.
func (db *DB) ResolvePlatform(name, algorithm string) (string, error) {
	plats, err := db.PlatformRuns(algorithm)
	if err != nil {
		return "", err
	}
	names := make([]string, len(plats))
	for i, p := range plats {
		names[i] = p.Name
	}
	return matchPlatform(name, names)
}

// matchPlatform is ResolvePlatform over the names.
func matchPlatform(name string, names []string) (string, error) {
	if name == "" {
		switch len(names) {
		case 0:
			return "", nil
		case 1:
			return names[0], nil
		}
		return "", &PlatformError{Names: names}
	}
	var folded, contains []string
	for _, n := range names {
		if n == name {
			return n, nil
		}
		if strings.EqualFold(n, name) {
			folded = append(folded, n)
		}
		if strings.Contains(strings.ToLower(n), strings.ToLower(name)) {
			contains = append(contains, n)
		}
	}
	for _, m := range [][]string{folded, contains} {
		if len(m) == 1 {
			return m[0], nil
		}
		if len(m) > 1 {
			return "", &PlatformError{Name: name, Names: m, Ambiguous: true}
		}
	}
	return "", &PlatformError{Name: name, Names: names}
}
