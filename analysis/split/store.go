package split

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
)

// FromStore reads the validated BFS runs of a store as LoadDir reads a
// results directory: the runs with their level times, every level's
// frontier, the graph properties the store holds, the real (file) graphs;
// and a manifest record per graph (generator or file, seed, size, the roots
// measured), from which a caller can rebuild a graph whose properties the
// store lacks. dataset selects one dataset ("" all; then a graph name must
// not be in two datasets). It is FromStoreOn with no platform named: the
// store's only platform, or an error naming them when it holds several.
func FromStore(db *store.DB, dataset string) (*Data, []kernels.GraphRecord, error) {
	return FromStoreOn(db, dataset, "")
}

// FromStoreOn is FromStore on one platform: the runs of the platform
// platform names (store.DB.ResolvePlatform: a full name, or a part of one
// such as "h200"), and only the graphs measured there. With platform ""
// the store must hold BFS runs of one platform only; with several the
// error is a *store.PlatformError listing them, so that no table mixes
// two GPUs' times.
func FromStoreOn(db *store.DB, dataset, platform string) (*Data, []kernels.GraphRecord, error) {
	name, err := db.ResolvePlatform(platform, kernels.AlgorithmBFS)
	if err != nil {
		return nil, nil, err
	}
	if platform == "" {
		// One platform or none: select nothing, as before platforms were
		// told apart.
		name = ""
	}
	runs, err := db.RunTimes(store.Filter{Dataset: dataset, Algorithm: kernels.AlgorithmBFS, ValidatedOnly: true, Platform: name})
	if err != nil {
		return nil, nil, err
	}
	if len(runs) == 0 {
		on := ""
		if name != "" {
			on = " on " + name
		}
		if dataset != "" {
			return nil, nil, fmt.Errorf("no validated BFS runs%s in dataset %q", on, dataset)
		}
		return nil, nil, fmt.Errorf("no validated BFS runs%s", on)
	}
	recs, props, err := storeGraphs(db.SQL(), dataset, name)
	if err != nil {
		return nil, nil, err
	}
	d := &Data{Frontiers: map[aggregate.Input][]int64{}, Props: props, Real: realGraphs(recs)}
	byName := map[string]*kernels.GraphRecord{}
	for i := range recs {
		byName[recs[i].Name] = &recs[i]
	}
	for _, r := range runs {
		g := byName[r.Graph]
		if g == nil {
			return nil, nil, fmt.Errorf("graph %s of run %d is not in the store's graphs", r.Graph, r.RunID)
		}
		d.Runs = append(d.Runs, aggregate.Run{Input: aggregate.Input{Graph: r.Graph, Root: uint32(r.Root)}, Impl: r.Implementation,
			Vertices: g.N, Edges: g.M, TotalNs: r.MedianNs, LevelNs: r.LevelMedianNs})
	}
	rows, err := db.SQL().Query(`SELECT g.name, v.root, l.level, MIN(l.frontier)
		FROM level_timings l JOIN runs r ON r.id = l.run_id
		JOIN variants v ON v.id = r.variant_id JOIN graphs g ON g.id = v.graph_id
		JOIN datasets d ON d.id = g.dataset_id JOIN algorithms a ON a.id = v.algorithm_id
		JOIN platforms p ON p.id = r.platform_id
		WHERE (?1 = '' OR d.name = ?1) AND a.name = ?2 AND r.validated = 1 AND (?3 = '' OR p.name = ?3)
		GROUP BY g.name, v.root, l.level`, dataset, kernels.AlgorithmBFS, name)
	if err != nil {
		return nil, nil, fmt.Errorf("frontiers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g string
		var root, level, frontier int64
		if err := rows.Scan(&g, &root, &level, &frontier); err != nil {
			return nil, nil, fmt.Errorf("frontiers: %w", err)
		}
		in := aggregate.Input{Graph: g, Root: uint32(root)}
		f := d.Frontiers[in]
		for int64(len(f)) <= level {
			f = append(f, -1)
		}
		f[level] = frontier
		d.Frontiers[in] = f
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("frontiers: %w", err)
	}
	return d, recs, nil
}

// storeGraphs reads the graphs of dataset with BFS variants (with runs on
// platform, when not ""): their manifest-like records and the properties
// the store holds.
func storeGraphs(db *sql.DB, dataset, platform string) ([]kernels.GraphRecord, map[string]kernels.GraphPropsJSON, error) {
	rows, err := db.Query(`SELECT g.id, d.name, g.name, g.n, g.m, COALESCE(g.directed, 0), COALESCE(g.generator_json, ''),
		COALESCE(g.seed, 0), COALESCE(g.source_file, ''), COALESCE(g.source_sha256, ''), COALESCE(g.load_json, ''), g.graph_hash
		FROM graphs g JOIN datasets d ON d.id = g.dataset_id
		WHERE (?1 = '' OR d.name = ?1)
		AND EXISTS (SELECT 1 FROM variants v JOIN algorithms a ON a.id = v.algorithm_id WHERE v.graph_id = g.id AND a.name = ?2)
		AND (?3 = '' OR EXISTS (SELECT 1 FROM variants v JOIN runs r ON r.variant_id = v.id
			JOIN platforms p ON p.id = r.platform_id WHERE v.graph_id = g.id AND p.name = ?3))
		ORDER BY g.name`, dataset, kernels.AlgorithmBFS, platform)
	if err != nil {
		return nil, nil, fmt.Errorf("graphs: %w", err)
	}
	var recs []kernels.GraphRecord
	ids := map[int64]int{}
	datasetOf := map[string]string{}
	for rows.Next() {
		var id int64
		var ds, genJSON, loadJSON string
		var seed int64
		var r kernels.GraphRecord
		if err := rows.Scan(&id, &ds, &r.Name, &r.N, &r.M, &r.Directed, &genJSON, &seed, &r.File, &r.FileSHA256, &loadJSON, &r.GraphHash); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("graphs: %w", err)
		}
		if prev, dup := datasetOf[r.Name]; dup {
			rows.Close()
			return nil, nil, fmt.Errorf("graph %s is in datasets %s and %s: choose one (--dataset)", r.Name, prev, ds)
		}
		datasetOf[r.Name] = ds
		r.Seed = uint64(seed)
		if genJSON != "" {
			if err := json.Unmarshal([]byte(genJSON), &r.Gen); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("graph %s: generator: %w", r.Name, err)
			}
		}
		if loadJSON != "" {
			r.Load = &kernels.LoadSpec{}
			if err := json.Unmarshal([]byte(loadJSON), r.Load); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("graph %s: load options: %w", r.Name, err)
			}
		}
		ids[id] = len(recs)
		recs = append(recs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("graphs: %w", err)
	}
	// The roots measured.
	vr, err := db.Query(`SELECT v.graph_id, v.root FROM variants v JOIN algorithms a ON a.id = v.algorithm_id
		WHERE a.name = ? ORDER BY v.graph_id, v.root`, kernels.AlgorithmBFS)
	if err != nil {
		return nil, nil, fmt.Errorf("roots: %w", err)
	}
	for vr.Next() {
		var id, root int64
		if err := vr.Scan(&id, &root); err != nil {
			vr.Close()
			return nil, nil, fmt.Errorf("roots: %w", err)
		}
		if i, ok := ids[id]; ok && root >= 0 {
			recs[i].Roots = append(recs[i].Roots, uint32(root))
		}
	}
	vr.Close()
	props := map[string]kernels.GraphPropsJSON{}
	pr, err := db.Query(`SELECT graph_id, vertices, edges, abs_min, abs_lower_quartile, abs_mean, abs_median,
		abs_upper_quartile, abs_max, abs_stddev, in_min, in_lower_quartile, in_mean, in_median, in_upper_quartile,
		in_max, in_stddev, out_min, out_lower_quartile, out_mean, out_median, out_upper_quartile, out_max, out_stddev
		FROM graph_properties WHERE vertices IS NOT NULL AND out_stddev IS NOT NULL`)
	if err != nil {
		return nil, nil, fmt.Errorf("graph properties: %w", err)
	}
	defer pr.Close()
	for pr.Next() {
		var id int64
		var p kernels.GraphPropsJSON
		a, in, out := &p.AbsDegree, &p.InDegree, &p.OutDegree
		if err := pr.Scan(&id, &p.Vertices, &p.Edges, &a.Min, &a.LowerQuartile, &a.Mean, &a.Median, &a.UpperQuartile, &a.Max, &a.StdDev,
			&in.Min, &in.LowerQuartile, &in.Mean, &in.Median, &in.UpperQuartile, &in.Max, &in.StdDev,
			&out.Min, &out.LowerQuartile, &out.Mean, &out.Median, &out.UpperQuartile, &out.Max, &out.StdDev); err != nil {
			return nil, nil, fmt.Errorf("graph properties: %w", err)
		}
		if i, ok := ids[id]; ok {
			p.Directed = recs[i].Directed
			props[recs[i].Name] = p
		}
	}
	if err := pr.Err(); err != nil {
		return nil, nil, fmt.Errorf("graph properties: %w", err)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Name < recs[j].Name })
	return recs, props, nil
}
