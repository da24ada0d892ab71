package kernels

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// DefaultDir is the directory of the CUDA sources and their Makefile, and
// DefaultRunner and DefaultPageRankRunner the BFS and PageRank runners it
// builds, relative to the repository root.
const (
	DefaultDir            = "kernels/cuda"
	DefaultRunner         = "kernels/cuda/graphperf-bfs"
	DefaultPageRankRunner = "kernels/cuda/graphperf-pr"
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

// Build runs "make -C Dir graphperf-bfs" to build the BFS runner and
// returns its path, then "make -C Dir graphperf-pr" for the PageRank runner
// (BuildPageRank). The two are built separately: a PageRank runner that
// does not compile leaves the BFS runner built and Build successful, with
// a line on opt.Stderr saying so. It returns ErrNoNVCC when there is no
// nvcc to build with.
func Build(ctx context.Context, opt BuildOptions) (string, error) {
	path, err := buildTarget(ctx, opt, "graphperf-bfs")
	if err != nil {
		return "", err
	}
	if _, err := buildTarget(ctx, opt, "graphperf-pr"); err != nil && opt.Stderr != nil {
		fmt.Fprintf(opt.Stderr, "kernels: the PageRank runner graphperf-pr was not built (%v); graphperf-bfs is\n", err)
	}
	return path, nil
}

// BuildPageRank runs "make -C Dir graphperf-pr" and returns the PageRank
// runner's path.
func BuildPageRank(ctx context.Context, opt BuildOptions) (string, error) {
	return buildTarget(ctx, opt, "graphperf-pr")
}

func buildTarget(ctx context.Context, opt BuildOptions, target string) (string, error) {
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
	cmd := exec.CommandContext(ctx, mk, "-C", dir, "NVCC="+nvcc, target)
	cmd.Stdout, cmd.Stderr = opt.Stdout, opt.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("make -C %s %s: %w", dir, target, err)
	}
	return filepath.Join(dir, target), nil
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
// with status 2 and its output holds "error" lines: it measured
// everything, but some implementation's result disagrees with its
// reference. Status 2 without an "error" line is a crash (a Go panic, a
// shell's usage error, ...), not a mismatch: Run's error is then a
// failure's, with the runner's last stderr lines.
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

// PageRankOptions are the PageRank runner's flags for one graph.
type PageRankOptions struct {
	Graph      string   // the .gpg file
	Impls      []string // implementation selectors, passed joined by commas
	Iterations int      // PageRank iterations
	Reps       int      // timed repetitions per implementation
	Warmup     int      // untimed runs before them
	Reference  string   // the Go reference ranks (props.WriteRanks); empty: the runner's CPU reference
	Out        string   // the JSON lines file
	Args       []string // more flags, passed as they are (--no-flush, --warp-width 16)
}

func (opt PageRankOptions) args() []string {
	args := []string{
		"--graph", opt.Graph,
		"--impl", strings.Join(opt.Impls, ","),
		"--iterations", strconv.Itoa(opt.Iterations),
		"--reps", strconv.Itoa(opt.Reps),
		"--warmup", strconv.Itoa(opt.Warmup),
	}
	if opt.Reference != "" {
		args = append(args, "--reference", opt.Reference)
	}
	args = append(args, "--out", opt.Out)
	return append(args, opt.Args...)
}

// RunPageRank runs the PageRank runner (graphperf-pr) on one graph, with
// Run's conventions: status 2 (an implementation failed verification,
// everything measured) gives an error wrapping ErrMismatch.
func (r Runner) RunPageRank(ctx context.Context, opt PageRankOptions) error {
	if opt.Iterations < 1 {
		return fmt.Errorf("kernels: %d PageRank iterations for %s", opt.Iterations, opt.Graph)
	}
	return r.run(ctx, nil, opt.Out, opt.args()...)
}

// Run runs the runner on one graph. A runner that exits with status 2
// after writing "error" lines has written all its output: Run then returns
// an error wrapping ErrMismatch.
// Any other failure's error ends with the last lines the runner wrote to
// stderr. Cancelling ctx kills the runner.
func (r Runner) Run(ctx context.Context, opt RunOptions) error {
	if len(opt.Roots) == 0 {
		return fmt.Errorf("kernels: no roots to run %s from", opt.Graph)
	}
	return r.run(ctx, nil, opt.Out, opt.args()...)
}

// List returns the implementation names the runner knows ("--list").
func (r Runner) List(ctx context.Context) ([]string, error) {
	var out bytes.Buffer
	if err := r.run(ctx, &out, "", "--list"); err != nil {
		return nil, err
	}
	names := strings.Fields(out.String())
	if len(names) == 0 {
		return nil, fmt.Errorf("%s --list printed no implementations", r.Path)
	}
	return names, nil
}

// run runs the runner with args, its stdout to stdout (nil: r.Stdout);
// out is the file its JSON lines go to ("" for none), read for "error"
// lines when it exits with status 2.
func (r Runner) run(ctx context.Context, stdout io.Writer, out string, args ...string) error {
	if r.Path == "" {
		return errors.New("kernels: no runner binary given")
	}
	if _, err := os.Stat(r.Path); err != nil {
		return fmt.Errorf("runner %s: %w (build it with \"graphperf bench build\")", r.Path, err)
	}
	tail := &tailWriter{max: 4096}
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
	re := &RunnerError{Runner: filepath.Base(r.Path), Err: err, Stderr: tail.String()}
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		if hasErrorLine(out) {
			return fmt.Errorf("%s: %w", filepath.Base(r.Path), ErrMismatch)
		}
		re.Note = `status 2 and no "error" line in its output: a crash, not a mismatch`
	}
	return re
}

// RunnerError is Runner's error for a runner that failed: any exit but 0,
// and 2 with "error" lines (ErrMismatch). Stderr holds the last lines the
// runner wrote to stderr (4 KiB at most), where its crash says why.
type RunnerError struct {
	Runner string // the binary's base name
	Err    error  // exec's: "exit status 1", "signal: segmentation fault"
	Note   string // what the exit means, when not plain
	Stderr string
}

// Error is "graphperf-bfs failed (exit status 2; NOTE): LINES", LINES the
// last three lines of Stderr (" | "-joined), after the line a crash
// starts with ("panic: ...", "terminate called ..."), when it is earlier.
func (e *RunnerError) Error() string {
	what := e.Err.Error()
	if e.Note != "" {
		what += "; " + e.Note
	}
	lines := stderrLines(e.Stderr)
	last := lines[max(0, len(lines)-3):]
	for i, l := range lines[:len(lines)-len(last)] {
		if crashStart.MatchString(l) {
			last = append([]string{l, "..."}, lines[max(i+1, len(lines)-3):]...)
			break
		}
	}
	if len(last) == 0 {
		return fmt.Sprintf("%s failed (%s)", e.Runner, what)
	}
	return fmt.Sprintf("%s failed (%s): %s", e.Runner, what, strings.Join(last, " | "))
}

// Unwrap returns Err.
func (e *RunnerError) Unwrap() error { return e.Err }

// crashStart matches the first line of what a crashing program prints: a
// Go panic or fatal error, a C++ abort, a CUDA or sanitizer error.
var crashStart = regexp.MustCompile(`^(panic: |fatal error: |terminate called|Segmentation fault|Aborted|==\d+==ERROR|CUDA error)`)

// stderrLines are the non-empty lines of s, trimmed.
func stderrLines(s string) []string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// errorLine matches the runners' "error" lines, {"type":"error",...}.
var errorLine = regexp.MustCompile(`^\{\s*"type"\s*:\s*"error"`)

// hasErrorLine reports whether the runner output file path holds an
// "error" line: what a runner writes for each result that disagrees with
// its reference before it exits with status 2. Cost: one pass over the
// file.
func hasErrorLine(path string) bool {
	if path == "" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if errorLine.Match(sc.Bytes()) {
			return true
		}
	}
	return false
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

// String is what t keeps.
func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
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

// ExpectPageRank is what a PageRank runner output must hold: a total line
// for every implementation, on a graph of N vertices and M edges, after
// Iterations iterations, compared with the Reference kind ("file" when the
// Go reference was given; empty: either).
type ExpectPageRank struct {
	N, M       int64
	Impls      []string
	Iterations int
	Reference  string
}

// ValidatePageRank checks a PageRank runner output: the device line and a
// total for every implementation must be there (else Missing), and each
// total must be a pagerank one with the asked iterations, compared with
// the asked reference and verified by the runner (its float32 ranks within
// the tolerance of kernels/cuda/README.md of the reference's), without
// error lines (else Problems).
func ValidatePageRank(res *Results, want ExpectPageRank) Validation {
	var v Validation
	if res.Device == nil {
		v.Missing = append(v.Missing, "the device line")
	}
	wantImpl := map[string]bool{}
	for _, name := range want.Impls {
		wantImpl[name] = true
	}
	seen := map[string]bool{}
	sizeReported := false
	for _, t := range res.Totals {
		v.Traversals++
		switch {
		case t.Algorithm != AlgorithmPageRank:
			v.Problems = append(v.Problems, fmt.Sprintf("%s: a %q total in a PageRank output", t.Impl, t.Algorithm))
			continue
		case !wantImpl[t.Impl]:
			v.Problems = append(v.Problems, fmt.Sprintf("%s: an implementation that was not asked for", t.Impl))
			continue
		}
		seen[t.Impl] = true
		if (want.N != 0 || want.M != 0) && (t.N != want.N || t.M != want.M) && !sizeReported {
			v.Problems = append(v.Problems, fmt.Sprintf("the runner read a graph of %d vertices and %d edges, not %d and %d", t.N, t.M, want.N, want.M))
			sizeReported = true
		}
		switch {
		case want.Iterations != 0 && t.Iterations != want.Iterations:
			v.Problems = append(v.Problems, fmt.Sprintf("%s: %d iterations, not %d", t.Impl, t.Iterations, want.Iterations))
		case want.Reference != "" && t.Reference != want.Reference:
			v.Problems = append(v.Problems, fmt.Sprintf("%s: compared with the %q reference, not %q", t.Impl, t.Reference, want.Reference))
		case !t.Verified:
			v.Problems = append(v.Problems, fmt.Sprintf("%s: not verified by the runner (max_abs_error %.3g, l1_error %.3g)", t.Impl, t.MaxAbsError, t.L1Error))
		}
	}
	for _, e := range res.Errors {
		v.Problems = append(v.Problems, fmt.Sprintf("%s: runner error: %s", e.Impl, e.What))
	}
	for _, name := range want.Impls {
		if !seen[name] {
			v.Missing = append(v.Missing, "the total of "+name)
		}
	}
	return v
}
