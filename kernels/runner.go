package kernels

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// DefaultDir is the directory of the CUDA sources and their Makefile, and
// DefaultRunner the BFS runner it builds, relative to the repository root.
const (
	DefaultDir    = "kernels/cuda"
	DefaultRunner = "kernels/cuda/graphperf-bfs"
)

// ErrNoNVCC is returned by Build on a machine without the CUDA compiler.
var ErrNoNVCC = errors.New("kernels: nvcc not found: building the CUDA runner needs the CUDA toolkit; on a machine without a GPU use the embedded dataset")

// nvccFallbacks are where Build looks for nvcc when it is not on PATH.
var nvccFallbacks = []string{"/usr/local/cuda/bin/nvcc"}

// BuildOptions say how Build runs make.
type BuildOptions struct {
	Dir  string // the Makefile's directory; empty: DefaultDir
	NVCC string // the compiler; empty: $NVCC, nvcc on PATH, or /usr/local/cuda/bin/nvcc
	// Stdout and Stderr receive make's output; nil discards it.
	Stdout, Stderr io.Writer
}

// Build runs "make -C Dir" to build the runner and returns its path. It
// returns ErrNoNVCC when there is no nvcc to build with.
func Build(ctx context.Context, opt BuildOptions) (string, error) {
	dir := opt.Dir
	if dir == "" {
		dir = DefaultDir
	}
	if _, err := os.Stat(filepath.Join(dir, "Makefile")); err != nil {
		return "", fmt.Errorf("kernels: no Makefile in %s: %w", dir, err)
	}
	nvcc, err := findNVCC(opt.NVCC)
	if err != nil {
		return "", err
	}
	mk, err := exec.LookPath("make")
	if err != nil {
		return "", fmt.Errorf("kernels: make not found: %w", err)
	}
	cmd := exec.CommandContext(ctx, mk, "-C", dir, "NVCC="+nvcc, "graphperf-bfs")
	cmd.Stdout, cmd.Stderr = opt.Stdout, opt.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("make -C %s: %w", dir, err)
	}
	return filepath.Join(dir, "graphperf-bfs"), nil
}

// findNVCC returns the nvcc to build with: the one given, $NVCC, nvcc on
// PATH, or a fallback location.
func findNVCC(given string) (string, error) {
	if given == "" {
		given = os.Getenv("NVCC")
	}
	if given != "" {
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("%w (%s: %v)", ErrNoNVCC, given, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("nvcc"); err == nil {
		return p, nil
	}
	for _, p := range nvccFallbacks {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", ErrNoNVCC
}

// ErrMismatch is returned (wrapped) by Runner.Run when the runner exits
// with status 2: it measured everything, but some implementation's result
// disagrees with its reference (see the output's error lines).
var ErrMismatch = errors.New("kernels: the runner reports results that disagree with its reference")

// Runner runs the BFS runner binary.
type Runner struct {
	Path string // the graphperf-bfs binary
	// Stdout and Stderr receive the runner's output streams; nil discards
	// them. The runner writes its JSON lines to RunOptions.Out, progress
	// lines to stderr.
	Stdout, Stderr io.Writer
}

// RunOptions are the runner's flags for one graph.
type RunOptions struct {
	Graph  string   // the .gpg file
	Roots  []uint32 // BFS roots
	Impls  []string // implementation selectors, passed joined by commas
	Reps   int      // timed repetitions per (root, implementation)
	Warmup int      // untimed runs before them
	Out    string   // the JSON lines file
	Args   []string // more flags, passed as they are (--no-flush, --chunk 4)
}

// args returns the runner's command-line arguments for opt.
func (opt RunOptions) args() []string {
	roots := make([]string, len(opt.Roots))
	for i, r := range opt.Roots {
		roots[i] = strconv.FormatUint(uint64(r), 10)
	}
	args := []string{
		"--graph", opt.Graph,
		"--roots", strings.Join(roots, ","),
		"--impl", strings.Join(opt.Impls, ","),
		"--reps", strconv.Itoa(opt.Reps),
		"--warmup", strconv.Itoa(opt.Warmup),
		"--out", opt.Out,
	}
	return append(args, opt.Args...)
}

// Run runs the runner on one graph. A runner that exits with status 2 has
// written all its output: Run then returns an error wrapping ErrMismatch.
// Any other failure's error ends with the last lines the runner wrote to
// stderr. Cancelling ctx kills the runner.
func (r Runner) Run(ctx context.Context, opt RunOptions) error {
	if len(opt.Roots) == 0 {
		return fmt.Errorf("kernels: no roots to run %s from", opt.Graph)
	}
	return r.run(ctx, nil, opt.args()...)
}

// List returns the implementation names the runner knows ("--list").
func (r Runner) List(ctx context.Context) ([]string, error) {
	var out bytes.Buffer
	if err := r.run(ctx, &out, "--list"); err != nil {
		return nil, err
	}
	names := strings.Fields(out.String())
	if len(names) == 0 {
		return nil, fmt.Errorf("%s --list printed no implementations", r.Path)
	}
	return names, nil
}

func (r Runner) run(ctx context.Context, stdout io.Writer, args ...string) error {
	if r.Path == "" {
		return errors.New("kernels: no runner binary given")
	}
	if _, err := os.Stat(r.Path); err != nil {
		return fmt.Errorf("runner %s: %w (build it with \"graphperf bench build\")", r.Path, err)
	}
	tail := &tailWriter{max: 2048}
	cmd := exec.CommandContext(ctx, r.Path, args...)
	cmd.Stdout = r.Stdout
	if stdout != nil {
		cmd.Stdout = stdout
	}
	cmd.Stderr = tail
	if r.Stderr != nil {
		cmd.Stderr = io.MultiWriter(r.Stderr, tail)
	}
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s stopped: %w", filepath.Base(r.Path), ctx.Err())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		return fmt.Errorf("%s: %w", filepath.Base(r.Path), ErrMismatch)
	}
	if last := tail.lastLines(3); last != "" {
		return fmt.Errorf("%s failed (%v): %s", filepath.Base(r.Path), err, last)
	}
	return fmt.Errorf("%s failed: %w", filepath.Base(r.Path), err)
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// lastLines returns up to n last non-empty lines, joined by " | ".
func (t *tailWriter) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// ReferenceHashes returns the Go reference depth hash of each root,
// props.DepthHash(props.BFS(g, root)), the BFS runs in parallel. Each
// costs O(n + m) time and 4n bytes.
func ReferenceHashes(g *graph.CSR, roots []uint32) []uint64 {
	hashes := make([]uint64, len(roots))
	var wg sync.WaitGroup
	for i, r := range roots {
		wg.Go(func() { hashes[i] = props.DepthHash(props.BFS(g, r)) })
	}
	wg.Wait()
	return hashes
}

// Expect is what a runner output must hold: a total line for every root
// and implementation, on a graph of N vertices and M edges, each with the
// reference depth hash of its root (Hashes[i] for Roots[i]).
type Expect struct {
	N, M   int64
	Roots  []uint32
	Hashes []uint64
	Impls  []string // implementation names (SelectImpls' result)
}

// Validation is what Validate found.
type Validation struct {
	// Missing lists what the output lacks: the device line, or the total
	// line of a (root, implementation). An output with anything missing is
	// incomplete: the runner did not finish.
	Missing []string
	// Problems lists disagreements: a depth hash that is not the Go
	// reference's, a total line not verified by the runner, an error line,
	// a total for a root or implementation not asked for, or a graph of
	// another size.
	Problems []string
	// Traversals is the number of total lines checked.
	Traversals int
}

// Complete reports that nothing is missing.
func (v Validation) Complete() bool { return len(v.Missing) == 0 }

// OK reports a complete output without problems: validated.
func (v Validation) OK() bool { return v.Complete() && len(v.Problems) == 0 }

// Validate checks a runner output against what was asked for and against
// the Go reference hashes.
func Validate(res *Results, want Expect) Validation {
	var v Validation
	if res.Device == nil {
		v.Missing = append(v.Missing, "the device line")
	}
	type key struct {
		root uint32
		impl string
	}
	ref := map[uint32]uint64{}
	for i, r := range want.Roots {
		ref[r] = want.Hashes[i]
	}
	wantImpl := map[string]bool{}
	for _, name := range want.Impls {
		wantImpl[name] = true
	}
	seen := map[key]bool{}
	sizeReported := false
	for _, t := range res.Totals {
		v.Traversals++
		h, ok := ref[t.Root]
		switch {
		case !ok:
			v.Problems = append(v.Problems, fmt.Sprintf("root %d %s: a root that was not asked for", t.Root, t.Impl))
			continue
		case !wantImpl[t.Impl]:
			v.Problems = append(v.Problems, fmt.Sprintf("root %d %s: an implementation that was not asked for", t.Root, t.Impl))
			continue
		}
		seen[key{t.Root, t.Impl}] = true
		if (t.N != want.N || t.M != want.M) && !sizeReported {
			v.Problems = append(v.Problems, fmt.Sprintf("the runner read a graph of %d vertices and %d edges, not %d and %d", t.N, t.M, want.N, want.M))
			sizeReported = true
		}
		if got, _ := ParseHash(t.DepthHash); got != h {
			v.Problems = append(v.Problems, fmt.Sprintf("root %d %s: depth hash %s, Go reference %s", t.Root, t.Impl, t.DepthHash, FormatHash(h)))
		} else if !t.Verified {
			v.Problems = append(v.Problems, fmt.Sprintf("root %d %s: not verified by the runner", t.Root, t.Impl))
		}
	}
	for _, e := range res.Errors {
		v.Problems = append(v.Problems, fmt.Sprintf("root %d %s: runner error: %s", e.Root, e.Impl, e.What))
	}
	for _, r := range want.Roots {
		for _, name := range want.Impls {
			if !seen[key{r, name}] {
				v.Missing = append(v.Missing, fmt.Sprintf("the total of root %d %s", r, name))
			}
		}
	}
	return v
}
