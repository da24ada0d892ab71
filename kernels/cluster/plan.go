package cluster

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/graphperf/graphperf/kernels"
)

// Names in a sharded sweep's results directory.
const (
	PlanName   = "cluster.json" // the plan: shards and submissions
	ShardsDir  = "shards"       // one sweep results directory per shard
	SlurmDir   = "slurm"        // the batch script and the array tasks' output
	LocalDir   = "local"        // the local processes' output
	ScriptName = "sweep.sbatch" // the batch script, in SlurmDir
)

// TaskArgs are the graphperf arguments that run one shard, followed by the
// results directory; the shard comes after them as --shard K (the batch
// script appends the array task's index).
var TaskArgs = []string{"bench", "sweep", "--task"}

// ErrNoPlan is returned (wrapped) by LoadPlan for a results directory that
// holds no sharded sweep.
var ErrNoPlan = errors.New("cluster: no sharded sweep here (no " + PlanName + ")")

// Options say how a corpus sweep is sharded and what its tasks run.
type Options struct {
	// Sweep gives the runners, the graphs, work and results directories,
	// the graphs (Only) and the time limits of each task's sweep; its Log,
	// Progress and Version are the task's own.
	Sweep kernels.SweepOptions
	// Shards is the number of shards; 0: one per graph.
	Shards int
	// Program is the graphperf binary the tasks run; empty: this process's
	// executable.
	Program string
}

// Plan is a sharded sweep, kept as RESULTS/cluster.json. Paths are
// absolute, so that a task runs the same from any directory and node.
type Plan struct {
	Tool           string       `json:"tool"`
	Created        string       `json:"created"` // RFC 3339, UTC
	Corpus         string       `json:"corpus"`
	CorpusSHA256   string       `json:"corpus_sha256"`
	GraphsDir      string       `json:"graphs_dir,omitempty"`
	WorkDir        string       `json:"work_dir"`
	Runner         string       `json:"runner"`
	PageRankRunner string       `json:"pagerank_runner,omitempty"`
	Program        string       `json:"program"`
	TimeBudget     string       `json:"time_budget,omitempty"` // each task's
	Deadline       string       `json:"deadline,omitempty"`    // each task's
	Shards         []Shard      `json:"shards"`
	Submissions    []Submission `json:"submissions"`
}

// Shard is a part of the corpus that one task measures.
type Shard struct {
	Index  int      `json:"index"`  // its Slurm array index
	Dir    string   `json:"dir"`    // its results directory, relative to the plan's
	Graphs []string `json:"graphs"` // in corpus order
	Edges  int64    `json:"edges"`  // estimated stored edges, summed
}

// Submission is one submission of shards: a Slurm job array, or a local
// run.
type Submission struct {
	Time   string        `json:"time"` // RFC 3339, UTC
	Mode   string        `json:"mode"` // "slurm" or "local"
	JobID  string        `json:"job_id,omitempty"`
	Shards []int         `json:"shards"`
	Slurm  *SlurmOptions `json:"slurm,omitempty"`
	// Command is the sbatch command line (Slurm), or the command of one
	// task without its shard (local).
	Command []string `json:"command"`
}

// Mode names.
const (
	ModeSlurm = "slurm"
	ModeLocal = "local"
)

// NewPlan shards the corpus graphs that opt.Sweep.Only selects (all when
// empty) into opt.Shards shards. Graphs are dealt largest first (estimated
// stored edges, times the algorithms measured) to the shard with the least
// so far, ties to the lower index, so shards carry about equal work; each
// shard keeps corpus order. It costs O(g log g + g s) for g graphs and s
// shards.
func NewPlan(c *kernels.Corpus, opt Options) (*Plan, error) {
	graphs, err := c.Select(opt.Sweep.Only)
	if err != nil {
		return nil, err
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("cluster: %s has no graphs", c.Path)
	}
	n := opt.Shards
	switch {
	case n < 0:
		return nil, fmt.Errorf("cluster: %d shards", n)
	case n == 0:
		n = len(graphs)
	case n > len(graphs):
		return nil, fmt.Errorf("cluster: %d shards for %d graphs: want at most one shard per graph", n, len(graphs))
	}
	if opt.Sweep.WorkDir == "" || opt.Sweep.ResultsDir == "" {
		return nil, errors.New("cluster: a sharded sweep needs a work and a results directory")
	}
	p := &Plan{Tool: "graphperf bench sweep", Created: time.Now().UTC().Format(time.RFC3339), CorpusSHA256: c.SHA256}
	for _, f := range []struct {
		to   *string
		path string
	}{
		{&p.Corpus, c.Path}, {&p.GraphsDir, opt.Sweep.GraphsDir}, {&p.WorkDir, opt.Sweep.WorkDir},
		{&p.Runner, opt.Sweep.Runner}, {&p.PageRankRunner, opt.Sweep.PageRankRunner}, {&p.Program, opt.Program},
	} {
		if f.path == "" {
			continue
		}
		if *f.to, err = filepath.Abs(f.path); err != nil {
			return nil, err
		}
	}
	if p.Program == "" {
		if p.Program, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("cluster: the graphperf binary the tasks run: %w", err)
		}
	}
	if opt.Sweep.TimeBudget > 0 {
		p.TimeBudget = opt.Sweep.TimeBudget.String()
	}
	if opt.Sweep.Deadline > 0 {
		p.Deadline = opt.Sweep.Deadline.String()
	}

	weight := func(g kernels.Graph) int64 { return max(g.Edges, 1) * int64(max(len(g.Algorithms), 1)) }
	order := slices.Clone(graphs)
	slices.SortStableFunc(order, func(a, b kernels.Graph) int { return cmp.Compare(weight(b), weight(a)) })
	load := make([]int64, n)
	members := make([][]kernels.Graph, n)
	for _, g := range order {
		least := 0
		for i := range load {
			if load[i] < load[least] {
				least = i
			}
		}
		load[least] += weight(g)
		members[least] = append(members[least], g)
	}
	width := max(3, len(fmt.Sprint(n-1)))
	for i, gs := range members {
		slices.SortFunc(gs, func(a, b kernels.Graph) int { return cmp.Compare(a.Index, b.Index) })
		s := Shard{Index: i, Dir: filepath.Join(ShardsDir, fmt.Sprintf("%0*d", width, i))}
		for _, g := range gs {
			s.Graphs = append(s.Graphs, g.Name)
			s.Edges += g.Edges
		}
		p.Shards = append(p.Shards, s)
	}
	return p, nil
}

// Shard returns the shard of an index.
func (p *Plan) Shard(index int) (Shard, bool) {
	for _, s := range p.Shards {
		if s.Index == index {
			return s, true
		}
	}
	return Shard{}, false
}

// Graphs returns the number of graphs of all shards.
func (p *Plan) Graphs() int {
	n := 0
	for _, s := range p.Shards {
		n += len(s.Graphs)
	}
	return n
}

// LoadPlan reads RESULTS/cluster.json; ErrNoPlan when there is none.
func LoadPlan(results string) (*Plan, error) {
	path := filepath.Join(results, PlanName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", results, ErrNoPlan)
	}
	if err != nil {
		return nil, err
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(p.Shards) == 0 {
		return nil, fmt.Errorf("%s: no shards", path)
	}
	return &p, nil
}

// Save writes the plan to RESULTS/cluster.json atomically.
func (p *Plan) Save(results string) error {
	if err := os.MkdirAll(results, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(results, PlanName), append(data, '\n'), 0o644)
}

// ShardDirs returns the results directory of every shard of the sharded
// sweep in results, in shard order; ErrNoPlan (wrapped) when there is none.
func ShardDirs(results string) ([]string, error) {
	p, err := LoadPlan(results)
	if err != nil {
		return nil, err
	}
	dirs := make([]string, len(p.Shards))
	for i, s := range p.Shards {
		dirs[i] = filepath.Join(results, s.Dir)
	}
	return dirs, nil
}

// loadCorpus reads the plan's corpus and checks that it is the one the
// plan was made from.
func (p *Plan) loadCorpus() (*kernels.Corpus, error) {
	c, err := kernels.LoadCorpora(p.Corpus)
	if err != nil {
		return nil, err
	}
	if c.SHA256 != p.CorpusSHA256 {
		return nil, fmt.Errorf("cluster: %s changed since the sweep was planned (SHA-256 %.12s, planned %.12s): start a new results directory", p.Corpus, c.SHA256, p.CorpusSHA256)
	}
	return c, nil
}

// sweepOptions returns the options of shard s's sweep.
func (p *Plan) sweepOptions(results string, s Shard) (kernels.SweepOptions, error) {
	opt := kernels.SweepOptions{
		Runner: p.Runner, PageRankRunner: p.PageRankRunner, GraphsDir: p.GraphsDir, WorkDir: p.WorkDir,
		ResultsDir: filepath.Join(results, s.Dir), Only: s.Graphs,
	}
	var err error
	if p.TimeBudget != "" {
		if opt.TimeBudget, err = time.ParseDuration(p.TimeBudget); err != nil {
			return opt, fmt.Errorf("cluster: time_budget: %w", err)
		}
	}
	if p.Deadline != "" {
		if opt.Deadline, err = time.ParseDuration(p.Deadline); err != nil {
			return opt, fmt.Errorf("cluster: deadline: %w", err)
		}
	}
	return opt, nil
}

// writeAtomic writes path through a temporary file in its directory and a
// rename, so that path is never seen half written.
func writeAtomic(path string, data []byte, mode os.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
