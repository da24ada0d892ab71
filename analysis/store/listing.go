package store

import (
	"fmt"
	"slices"
)

// Listing is what a store holds: its graphs, implementations and
// platforms, as "graphperf data list" shows them.
type Listing struct {
	Graphs          []ListedGraph          `json:"graphs"`
	Implementations []ListedImplementation `json:"implementations"`
	Platforms       []ListedPlatform       `json:"platforms"`
	// SeveralPlatforms is true when runs of more than one platform name
	// are stored.
	SeveralPlatforms bool `json:"-"`
}

// ListedGraph is a Graph of a Listing; Directed is nil when unknown.
type ListedGraph struct {
	Dataset   string `json:"dataset"`
	Name      string `json:"name"`
	Vertices  int64  `json:"vertices"`
	Edges     int64  `json:"edges"`
	Directed  *bool  `json:"directed"`
	GraphHash string `json:"graph_hash"`
	Generator string `json:"generator,omitempty"`
	File      string `json:"file,omitempty"`
}

// ListedImplementation is an Implementation of a Listing.
type ListedImplementation struct {
	Algorithm   string `json:"algorithm"`
	Name        string `json:"name"`
	Family      string `json:"family"`
	Aggregation string `json:"aggregation"`
	WarpWidth   int    `json:"warp_width"`
	Chunk       int    `json:"chunk"`
	Claim       string `json:"claim"`
}

// ListedPlatform is a Platform of a Listing.
type ListedPlatform struct {
	Name              string `json:"name"`
	ComputeCapability string `json:"compute_capability"`
	SMCount           int    `json:"sm_count"`
	L2Bytes           int64  `json:"l2_bytes"`
	ClockKHz          int64  `json:"clock_khz"`
	MemClockKHz       int64  `json:"mem_clock_khz"`
	DriverVersion     int    `json:"driver_version"`
	RuntimeVersion    int    `json:"runtime_version"`
	// Runs counts the runs of every platform row with this name (of any
	// algorithm): what Filter.Platform selects.
	Runs int `json:"runs"`
}

// List returns what db holds; its slices are empty, not nil, when it holds
// nothing.
func (db *DB) List() (*Listing, error) {
	graphs, err := db.Graphs("")
	if err != nil {
		return nil, err
	}
	impls, err := db.Implementations()
	if err != nil {
		return nil, err
	}
	plats, err := db.Platforms()
	if err != nil {
		return nil, err
	}
	platRuns, err := db.PlatformRuns("")
	if err != nil {
		return nil, err
	}
	runsOf := map[string]int{}
	for _, p := range platRuns {
		runsOf[p.Name] = p.Runs
	}
	out := &Listing{Graphs: []ListedGraph{}, Implementations: []ListedImplementation{}, Platforms: []ListedPlatform{},
		SeveralPlatforms: len(platRuns) > 1}
	for _, g := range graphs {
		lg := ListedGraph{Dataset: g.Dataset, Name: g.Name, Vertices: g.N, Edges: g.M, GraphHash: g.GraphHash,
			Generator: g.Generator, File: g.File}
		if g.Directed.Valid {
			d := g.Directed.Bool
			lg.Directed = &d
		}
		out.Graphs = append(out.Graphs, lg)
	}
	for _, i := range impls {
		out.Implementations = append(out.Implementations, ListedImplementation{Algorithm: i.Algorithm, Name: i.Name,
			Family: i.Family, Aggregation: i.Aggregation, WarpWidth: i.WarpWidth, Chunk: i.Chunk, Claim: i.Claim})
	}
	for _, p := range plats {
		out.Platforms = append(out.Platforms, ListedPlatform{Name: p.Name, ComputeCapability: p.ComputeCapability,
			SMCount: p.SMCount, L2Bytes: p.L2Bytes, ClockKHz: p.ClockKHz, MemClockKHz: p.MemClockKHz,
			DriverVersion: p.DriverVersion, RuntimeVersion: p.RuntimeVersion, Runs: runsOf[p.Name]})
	}
	return out, nil
}

// TotalRow is a Total as "graphperf data query --json" prints it.
type TotalRow struct {
	Dataset   string  `json:"dataset"`
	Graph     string  `json:"graph"`
	Root      int64   `json:"root"`
	Impl      string  `json:"impl"`
	Platform  string  `json:"platform"`
	Levels    int     `json:"levels"`
	MedianNs  float64 `json:"median_ns"`
	MinNs     float64 `json:"min_ns"`
	MaxNs     float64 `json:"max_ns"`
	StddevNs  float64 `json:"stddev_ns"`
	Validated bool    `json:"validated"`
}

// Row is t as a TotalRow.
func (t Total) Row() TotalRow {
	return TotalRow{Dataset: t.Dataset, Graph: t.Graph, Root: t.Root, Impl: t.Implementation,
		Platform: t.Platform, Levels: t.Levels, MedianNs: t.MedianNs, MinNs: t.MinNs, MaxNs: t.MaxNs,
		StddevNs: t.StddevNs, Validated: t.Validated}
}

// LevelRow is a LevelMedian as "graphperf data query --levels --json"
// prints it.
type LevelRow struct {
	Graph      string  `json:"graph"`
	Root       int64   `json:"root"`
	Impl       string  `json:"impl"`
	Level      int     `json:"level"`
	Frontier   int64   `json:"frontier"`
	Discovered int64   `json:"discovered"`
	Direction  string  `json:"direction"`
	MedianNs   float64 `json:"median_ns"`
	MinNs      float64 `json:"min_ns"`
	MaxNs      float64 `json:"max_ns"`
	StddevNs   float64 `json:"stddev_ns"`
}

// Row is m as a LevelRow.
func (m LevelMedian) Row() LevelRow {
	return LevelRow{Graph: m.Graph, Root: m.Root, Impl: m.Implementation, Level: m.Level,
		Frontier: m.Frontier, Discovered: m.Discovered, Direction: m.Direction, MedianNs: m.MedianNs,
		MinNs: m.MinNs, MaxNs: m.MaxNs, StddevNs: m.StddevNs}
}

// UnknownNameError is CheckNames's error: the store holds no Kind
// ("dataset", "graph" or "implementation") of this Name; Names are the
// names it holds of that kind (repeats possible).
type UnknownNameError struct {
	Kind, Name string
	Names      []string
}

func (e *UnknownNameError) Error() string {
	return fmt.Sprintf("store: no %s %q", e.Kind, e.Name)
}

// CheckNames returns an *UnknownNameError when f names a dataset, graph or
// implementation the store does not hold (a filter that selects nothing
// because of a typo would look like no runs).
func (db *DB) CheckNames(f Filter) error {
	if f.Dataset == "" && f.Graph == "" && f.Implementation == "" {
		return nil
	}
	graphs, err := db.Graphs("")
	if err != nil {
		return err
	}
	if f.Dataset != "" {
		var names []string
		for _, g := range graphs {
			names = append(names, g.Dataset)
		}
		if !slices.Contains(names, f.Dataset) {
			return &UnknownNameError{Kind: "dataset", Name: f.Dataset, Names: names}
		}
	}
	if f.Graph != "" {
		var names []string
		for _, g := range graphs {
			names = append(names, g.Name)
		}
		if !slices.Contains(names, f.Graph) {
			return &UnknownNameError{Kind: "graph", Name: f.Graph, Names: names}
		}
	}
	if f.Implementation == "" {
		return nil
	}
	impls, err := db.Implementations()
	if err != nil {
		return err
	}
	var names []string
	for _, i := range impls {
		names = append(names, i.Name)
	}
	if !slices.Contains(names, f.Implementation) {
		return &UnknownNameError{Kind: "implementation", Name: f.Implementation, Names: names}
	}
	return nil
}
