package store

// QueryOptions select what DB.Query returns.
type QueryOptions struct {
	Filter Filter
	// Platform, when set, selects the runs of one GPU: its name or a part
	// of it (DB.ResolvePlatform); it replaces Filter.Platform.
	Platform string
	// Levels asks for the per-level times instead of the run totals.
	Levels bool
}

// QueryResult is DB.Query's answer: Totals, or Levels with
// QueryOptions.Levels; never nil slices, so they print as [] in JSON.
type QueryResult struct {
	Totals []Total
	Levels []LevelMedian
}

// QueryPlatformError is DB.Query's error when QueryOptions.Platform
// cannot be resolved: Err is DB.ResolvePlatform's (a *PlatformError when
// the name matches no stored platform, or several).
type QueryPlatformError struct{ Err error }

func (e *QueryPlatformError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *QueryPlatformError) Unwrap() error { return e.Err }

// Query checks the names o.Filter holds (an *UnknownNameError names a
// dataset, graph or implementation the store lacks), resolves o.Platform
// (a *QueryPlatformError) and returns the run totals, or the per-level times,
// that the filter selects. It costs DB.CheckNames plus one query.
func (db *DB) Query(o QueryOptions) (*QueryResult, error) {
	f := o.Filter
	if err := db.CheckNames(f); err != nil {
		return nil, err
	}
	if o.Platform != "" {
		p, err := db.ResolvePlatform(o.Platform, "")
		if err != nil {
			return nil, &QueryPlatformError{err}
		}
		f.Platform = p
	}
	res := &QueryResult{Totals: []Total{}, Levels: []LevelMedian{}}
	if o.Levels {
		ms, err := db.LevelMedians(f)
		res.Levels = append(res.Levels, ms...)
		return res, err
	}
	ts, err := db.Totals(f)
	res.Totals = append(res.Totals, ts...)
	return res, err
}

// NearestNames is Nearest over names without repeats (the first of each
// kept): the names to suggest for a misspelt name, say an
// UnknownNameError's. O(len(names)) edit distances.
func NearestNames(name string, names []string, k int) []string {
	seen := map[string]bool{}
	var uniq []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			uniq = append(uniq, n)
		}
	}
	return Nearest(name, uniq, k)
}
