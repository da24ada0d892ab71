package store

import (
	"database/sql"
	"fmt"
)

// Graph is a stored graph.
type Graph struct {
	ID        int64
	Dataset   string
	Name      string
	N, M      int64
	Directed  sql.NullBool
	GraphHash string
	Generator string // JSON generator spec; '' for a file graph
	File      string // source file; '' for a generated graph
}

// Graphs lists the graphs of dataset, of every dataset when it is ”.
func (db *DB) Graphs(dataset string) ([]Graph, error) {
	rows, err := db.sql.Query(`SELECT g.id, d.name, g.name, g.n, g.m, g.directed, g.graph_hash,
		coalesce(g.generator_json, ''), coalesce(g.source_file, '')
		FROM graphs g JOIN datasets d ON d.id = g.dataset_id
		WHERE ? = '' OR d.name = ? ORDER BY d.name, g.name`, dataset, dataset)
	if err != nil {
		return nil, fmt.Errorf("graphs: %w", err)
	}
	return collect(rows, func(g *Graph) []any {
		return []any{&g.ID, &g.Dataset, &g.Name, &g.N, &g.M, &g.Directed, &g.GraphHash, &g.Generator, &g.File}
	})
}

// Implementation is a stored implementation.
type Implementation struct {
	ID          int64
	Algorithm   string
	Name        string
	Family      string
	Aggregation string
	WarpWidth   int
	Chunk       int
	Claim       string
}

// Implementations lists the implementations, by algorithm and name.
func (db *DB) Implementations() ([]Implementation, error) {
	rows, err := db.sql.Query(`SELECT i.id, a.name, i.name, i.family, i.aggregation, i.warp_width, i.chunk, i.claim
		FROM implementations i JOIN algorithms a ON a.id = i.algorithm_id ORDER BY a.name, i.name`)
	if err != nil {
		return nil, fmt.Errorf("implementations: %w", err)
	}
	return collect(rows, func(i *Implementation) []any {
		return []any{&i.ID, &i.Algorithm, &i.Name, &i.Family, &i.Aggregation, &i.WarpWidth, &i.Chunk, &i.Claim}
	})
}

// Platform is a stored GPU.
type Platform struct {
	ID                int64
	Name              string
	ComputeCapability string
	SMCount           int
	L2Bytes           int64
	ClockKHz          int64
	MemClockKHz       int64
	DriverVersion     int
	RuntimeVersion    int
}

// Platforms lists the platforms.
func (db *DB) Platforms() ([]Platform, error) {
	rows, err := db.sql.Query(`SELECT id, name, compute_capability, sm_count, l2_bytes, clock_khz, mem_clock_khz,
		driver_version, runtime_version FROM platforms ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("platforms: %w", err)
	}
	return collect(rows, func(p *Platform) []any {
		return []any{&p.ID, &p.Name, &p.ComputeCapability, &p.SMCount, &p.L2Bytes, &p.ClockKHz, &p.MemClockKHz,
			&p.DriverVersion, &p.RuntimeVersion}
	})
}

// Filter selects runs; a zero field selects all.
type Filter struct {
	Dataset, Graph, Implementation, Algorithm string
	// Root, when not nil, selects one root; -1 is the root of a variant
	// without one (PageRank).
	Root *int64
	// ValidatedOnly leaves out runs whose result disagreed with the
	// reference.
	ValidatedOnly bool
	// Platform selects the runs of the platforms of this name (the
	// runner's device name, "NVIDIA H100 80GB HBM3"; DB.ResolvePlatform
	// turns a short name into it). Several platform rows may share a name
	// (another driver, say); they count as one platform.
	Platform string
}

// Total is one run's total time, with what identifies it.
type Total struct {
	RunID                                     int64
	Dataset, Graph, Algorithm, Implementation string
	Root                                      int64
	Platform                                  string
	Levels                                    int
	MinNs, MedianNs, MeanNs, MaxNs, StddevNs  float64
	Validated                                 bool
}

const runJoin = `FROM runs r
	JOIN variants v ON v.id = r.variant_id
	JOIN graphs g ON g.id = v.graph_id
	JOIN datasets d ON d.id = g.dataset_id
	JOIN algorithms a ON a.id = v.algorithm_id
	JOIN implementations i ON i.id = r.implementation_id
	JOIN platforms p ON p.id = r.platform_id
	WHERE (?1 = '' OR d.name = ?1) AND (?2 = '' OR g.name = ?2) AND (?3 = '' OR i.name = ?3)
	AND (?4 = '' OR a.name = ?4) AND (?5 = -2 OR v.root = ?5) AND (?6 = 0 OR r.validated = 1)
	AND (?7 = '' OR p.name = ?7)`

func (f Filter) args() []any {
	root := int64(-2) // no root has this value
	if f.Root != nil {
		root = *f.Root
	}
	return []any{f.Dataset, f.Graph, f.Implementation, f.Algorithm, root, f.ValidatedOnly, f.Platform}
}

// Totals returns the total times of the runs f selects, per (graph, root,
// implementation), ordered so.
func (db *DB) Totals(f Filter) ([]Total, error) {
	rows, err := db.sql.Query(`SELECT r.id, d.name, g.name, a.name, i.name, v.root, p.name, r.levels,
		r.min_ns, r.median_ns, r.mean_ns, r.max_ns, r.stddev_ns, r.validated `+runJoin+`
		ORDER BY d.name, g.name, v.root, i.name, r.id`, f.args()...)
	if err != nil {
		return nil, fmt.Errorf("totals: %w", err)
	}
	return collect(rows, func(t *Total) []any {
		return []any{&t.RunID, &t.Dataset, &t.Graph, &t.Algorithm, &t.Implementation, &t.Root, &t.Platform,
			&t.Levels, &t.MinNs, &t.MedianNs, &t.MeanNs, &t.MaxNs, &t.StddevNs, &t.Validated}
	})
}

// TrainingRuns returns the validated runs f selects: the only runs a model
// may be trained on (the training_runs view holds the same rows).
func (db *DB) TrainingRuns(f Filter) ([]Total, error) {
	f.ValidatedOnly = true
	return db.Totals(f)
}

// LevelMedian is the median time of one BFS level of one run, with its
// spread over the timed repetitions.
type LevelMedian struct {
	RunID                 int64
	Graph, Implementation string
	Root                  int64
	Level                 int
	Frontier, Discovered  int64
	Direction             string
	MedianNs              float64
	// MinNs, MeanNs, MaxNs and StddevNs are the level line's other times
	// over the timed repetitions (StddevNs the sample standard deviation).
	MinNs, MeanNs, MaxNs, StddevNs float64
}

// LevelMedians returns the per-level median times of the runs f selects,
// ordered by graph, root, implementation and level.
func (db *DB) LevelMedians(f Filter) ([]LevelMedian, error) {
	rows, err := db.sql.Query(`SELECT r.id, g.name, i.name, v.root, l.level, l.frontier, l.discovered,
		l.direction, l.median_ns, l.min_ns, l.mean_ns, l.max_ns, l.stddev_ns `+runJoin[:len("FROM runs r")]+`
		JOIN level_timings l ON l.run_id = r.id`+runJoin[len("FROM runs r"):]+`
		ORDER BY d.name, g.name, v.root, i.name, r.id, l.level`, f.args()...)
	if err != nil {
		return nil, fmt.Errorf("level medians: %w", err)
	}
	return collect(rows, func(m *LevelMedian) []any {
		return []any{&m.RunID, &m.Graph, &m.Implementation, &m.Root, &m.Level, &m.Frontier, &m.Discovered,
			&m.Direction, &m.MedianNs, &m.MinNs, &m.MeanNs, &m.MaxNs, &m.StddevNs}
	})
}

// collect scans every row into a T through the pointers fields returns.
func collect[T any](rows *sql.Rows, fields func(*T) []any) (out []T, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	for rows.Next() {
		var t T
		if err := rows.Scan(fields(&t)...); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RunTimes is what the aggregate tables of seed 004 §4.3 compare of one
// run: its total's median time and each level's.
type RunTimes struct {
	RunID                 int64
	Graph, Implementation string
	Root                  int64
	Levels                int
	MedianNs              float64 // the total's median
	// LevelMedianNs[L] is level L's median; nil unless the stored levels
	// are exactly 0 to Levels-1 (a run stored without levels, say).
	LevelMedianNs []float64
}

// RunTimes returns the runs f selects, ordered by id, with their level
// medians. Unlike LevelMedians it reads the level timings in one ordered
// scan of their table, with no join and no sort, which is what makes it
// fit for the whole store (docs/PERFORMANCE.md, "Measurement store"):
// O(runs log runs + level rows of the id range of the runs selected).
func (db *DB) RunTimes(f Filter) (_ []RunTimes, err error) {
	rows, err := db.sql.Query(`SELECT r.id, g.name, i.name, v.root, r.levels, r.median_ns `+runJoin+`
		ORDER BY r.id`, f.args()...)
	if err != nil {
		return nil, fmt.Errorf("run times: %w", err)
	}
	var runs []RunTimes
	names := map[string]string{} // graph and implementation names, stored once
	name := func(b sql.RawBytes) string {
		s, ok := names[string(b)]
		if !ok {
			s = string(b)
			names[s] = s
		}
		return s
	}
	var graph, impl sql.RawBytes
	for rows.Next() {
		var r RunTimes
		if err := rows.Scan(&r.RunID, &graph, &impl, &r.Root, &r.Levels, &r.MedianNs); err != nil {
			rows.Close()
			return nil, fmt.Errorf("run times: %w", err)
		}
		r.Graph, r.Implementation = name(graph), name(impl)
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return nil, fmt.Errorf("run times: %w", err)
	}
	rows.Close()
	if len(runs) == 0 {
		return runs, nil
	}
	rows, err = db.sql.Query(`SELECT run_id, level, median_ns FROM level_timings
		WHERE run_id BETWEEN ? AND ? ORDER BY run_id, level`, runs[0].RunID, runs[len(runs)-1].RunID)
	if err != nil {
		return nil, fmt.Errorf("run times: %w", err)
	}
	defer func() {
		if cerr := rows.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("run times: %w", cerr)
		}
	}()
	// Both scans are in run id order: merge them.
	seen := make([]int, len(runs)) // levels stored in range, per run
	j := 0
	for rows.Next() {
		var id int64
		var level int
		var ns float64
		if err := rows.Scan(&id, &level, &ns); err != nil {
			return nil, fmt.Errorf("run times: %w", err)
		}
		for j < len(runs) && runs[j].RunID < id {
			j++
		}
		if j == len(runs) {
			break
		}
		r := &runs[j]
		if r.RunID != id || level < 0 || level >= r.Levels {
			continue
		}
		if r.LevelMedianNs == nil {
			r.LevelMedianNs = make([]float64, r.Levels)
		}
		r.LevelMedianNs[level] = ns
		seen[j]++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run times: %w", err)
	}
	for j := range runs {
		if seen[j] != runs[j].Levels {
			runs[j].LevelMedianNs = nil
		}
	}
	return runs, nil
}
