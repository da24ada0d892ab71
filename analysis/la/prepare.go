package la

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
	"github.com/graphperf/graphperf/workload/weights"
)

// PrepareOptions say which corpus graphs Prepare builds and where.
type PrepareOptions struct {
	Corpus    *kernels.Corpus
	Only      []string      // graph names; empty: all
	GraphsDir string        // the folder of the corpus's file graphs
	WorkDir   string        // where the .gpg, .gpw and .roots files go
	Jobs      int           // graphs built in parallel, at least 1
	Budget    time.Duration // start no graph after this long; 0: no limit
	MaxWeight uint32        // the weights' W
	Seed      uint64        // the weights' seed
}

// Prepared is Prepare's result: one plan line per graph built, in corpus
// order (NAME <TAB> WORK/NAME.gpg <TAB> ROOTS <TAB> n <TAB> m <TAB>
// directed, what kernels/measure-la.sh reads), and the graphs the budget
// left unbuilt.
type Prepared struct {
	Lines   []string
	Skipped []string
}

// Prepare builds every selected corpus graph into WorkDir as graphperf-la
// needs it: NAME.gpg (generated from its spec and seed, or read from
// GraphsDir with its load options, as "bench sweep" does; directed graphs
// with their reverse CSR), NAME.gpw (weights.Save) and NAME.roots (its plan
// line, with the corpus's roots count and seed, props.RandomRoots). Files
// that exist are reused. The first graph that fails is the error, naming
// it.
func Prepare(opt PrepareOptions) (*Prepared, error) {
	if opt.Corpus == nil || opt.WorkDir == "" {
		return nil, errors.New("la prepare: a corpus and a work directory are required")
	}
	if opt.Jobs < 1 {
		return nil, fmt.Errorf("la prepare: %d jobs: want at least 1", opt.Jobs)
	}
	sel, err := opt.Corpus.Select(opt.Only)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.WorkDir, 0o755); err != nil {
		return nil, err
	}
	start := time.Now()
	lines := make([]string, len(sel))
	errs := make([]error, len(sel))
	out := &Prepared{}
	var wg sync.WaitGroup
	next := make(chan int)
	for range opt.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				lines[i], errs[i] = prepareOne(sel[i], opt)
			}
		}()
	}
	for i, g := range sel {
		if opt.Budget > 0 && time.Since(start) > opt.Budget {
			out.Skipped = append(out.Skipped, g.Name)
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for i, l := range lines {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: %w", sel[i].Name, errs[i])
		}
		if l != "" {
			out.Lines = append(out.Lines, l)
		}
	}
	return out, nil
}

// prepareOne builds one corpus graph's .gpg, .gpw and .roots and returns
// its plan line.
func prepareOne(cg kernels.Graph, opt PrepareOptions) (string, error) {
	path := filepath.Join(opt.WorkDir, cg.Name+".gpg")
	g, _, err := graph.LoadGPG(path)
	if err != nil {
		if g, err = kernels.BuildGraph(cg, opt.GraphsDir); err != nil {
			return "", err
		}
		var rev *graph.CSR
		if g.Directed {
			rev = g.Reverse()
		}
		if err := graph.SaveGPG(path, g, rev); err != nil {
			return "", err
		}
	}
	if _, _, err := weights.Load(path, g); err != nil {
		if _, err := weights.Save(path, g, opt.MaxWeight, opt.Seed); err != nil {
			return "", err
		}
	}
	roots, err := props.RandomRoots(g, cg.Roots, cg.Seed)
	if err != nil {
		return "", err
	}
	line := PlanLine(cg.Name, path, roots, g)
	if err := os.WriteFile(filepath.Join(opt.WorkDir, cg.Name+".roots"), []byte(line+"\n"), 0o644); err != nil {
		return "", err
	}
	return line, nil
}

// PlanLine is one graph's line of measure-la.sh's plan.
func PlanLine(name, path string, roots []uint32, g *graph.CSR) string {
	rs := make([]string, len(roots))
	for i, r := range roots {
		rs[i] = strconv.FormatUint(uint64(r), 10)
	}
	return fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%v", name, path, strings.Join(rs, ","), g.NumVertices(), g.NumEdges(), g.Directed)
}
