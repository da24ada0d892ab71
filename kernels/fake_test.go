package kernels

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// The tests run the sweep against a fake graphperf-bfs: this test binary,
// run again with GRAPHPERF_FAKE_RUNNER set (the os/exec helper-process
// pattern). It reads the .gpg with graph.LoadGPG, runs the Go BFS and
// prints the runner's JSON lines with the right depth hashes, so the
// sweep's bookkeeping is tested without a GPU. Run through a link named
// graphperf-pr (useFakePageRankRunner) it plays the PageRank runner: it
// reads --reference, compares it with props.PageRank of the graph and
// prints verified total lines. Environment:
//
//	GRAPHPERF_FAKE_RUNNER  set: act as the runner
//	GRAPHPERF_FAKE_WRONG   a graph name: print a wrong depth hash for its
//	                       first root's first implementation, an error line,
//	                       and exit 2, as the runner does on a mismatch
//	GRAPHPERF_FAKE_FAIL    a graph name: print part of the output, then fail
//	                       with status 1 like a CUDA error
//	GRAPHPERF_FAKE_SHORT   a graph name: leave out the last total, exit 0
//	GRAPHPERF_FAKE_CRASH   a graph name: print all the output, then crash
//	                       as a Go panic does: a trace on stderr, status 2
//	                       (and no "error" line: not a mismatch)
//	GRAPHPERF_FAKE_SLEEP   a duration to sleep before measuring
//	GRAPHPERF_FAKE_CALLS   a file each call appends its arguments to
func TestMain(m *testing.M) {
	if os.Getenv("GRAPHPERF_FAKE_RUNNER") != "" {
		os.Exit(fakeRunner(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// useFakeRunner makes this test binary the runner for the rest of t and
// returns its path.
func useFakeRunner(t *testing.T) string {
	t.Helper()
	t.Setenv("GRAPHPERF_FAKE_RUNNER", "1")
	for _, k := range []string{"WRONG", "FAIL", "SHORT", "CRASH", "SLEEP", "CALLS"} {
		t.Setenv("GRAPHPERF_FAKE_"+k, "")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// useFakePageRankRunner makes this test binary, through a link called
// graphperf-pr, the PageRank runner for the rest of t and returns the
// link's path.
func useFakePageRankRunner(t *testing.T) string {
	t.Helper()
	exe := useFakeRunner(t)
	link := filepath.Join(t.TempDir(), "graphperf-pr")
	if err := os.Symlink(exe, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return link
}

func fakeRunner(args []string, stdout, stderr io.Writer) int {
	if calls := os.Getenv("GRAPHPERF_FAKE_CALLS"); calls != "" {
		f, err := os.OpenFile(calls, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	if filepath.Base(os.Args[0]) == "graphperf-pr" {
		return fakePageRankRunner(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("graphperf-bfs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gpg := fs.String("graph", "", "")
	rootList := fs.String("roots", "", "")
	implList := fs.String("impl", "all", "")
	reps := fs.Int("reps", 10, "")
	warmup := fs.Int("warmup", 1, "")
	out := fs.String("out", "", "")
	list := fs.Bool("list", false, "")
	decisionsPath := fs.String("decisions", "", "")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if *list {
		for _, name := range Impls {
			fmt.Fprintln(stdout, name)
		}
		return 0
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "graphperf-bfs: "+format+"\n", args...)
		return 1
	}
	// --impl switch plays the switching BFS with --decisions: every level
	// runs its decision's implementation, a conversion of 500 ns where the
	// implementation changes.
	var selectors []string
	withSwitch := false
	for _, s := range strings.Split(*implList, ",") {
		if s == ImplSwitch {
			withSwitch = true
		} else {
			selectors = append(selectors, s)
		}
	}
	var impls []string
	if len(selectors) > 0 {
		var err error
		if impls, err = SelectImpls([]string{strings.Join(selectors, ",")}, nil); err != nil {
			return fail("--impl: %v", err)
		}
	}
	var decisions *Decisions
	if withSwitch {
		f, err := os.Open(*decisionsPath)
		if err != nil {
			return fail("--impl switch needs --decisions: %v", err)
		}
		decisions, err = ParseDecisions(f, *decisionsPath)
		f.Close()
		if err != nil {
			return fail("%v", err)
		}
		impls = append([]string{ImplSwitch}, impls...)
	}
	g, _, err := graph.LoadGPG(*gpg)
	if err != nil {
		return fail("%v", err)
	}
	var roots []uint32
	for _, s := range strings.Split(*rootList, ",") {
		r, err := strconv.ParseUint(s, 10, 32)
		if err != nil || r >= uint64(g.NumVertices()) {
			return fail("bad root %q", s)
		}
		roots = append(roots, uint32(r))
	}
	if d, err := time.ParseDuration(os.Getenv("GRAPHPERF_FAKE_SLEEP")); err == nil {
		time.Sleep(d)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fail("cannot create %s: %v", *out, err)
		}
		defer f.Close()
		w = f
	}
	name := strings.TrimSuffix(filepath.Base(*gpg), ".gpg")
	line := func(_ string, v any) {
		b, err := AppendRecord(nil, recordOf(v))
		if err != nil {
			panic(err)
		}
		w.Write(append(b, '\n'))
	}
	line("device", Device{Tool: "graphperf-bfs", Name: "Fake H100", ComputeCapability: "9.0", SMCount: 132,
		DriverVersion: 12080, RuntimeVersion: 12040, NvccVersion: "12.4.131", NvccFlags: "-O3 -std=c++17 -arch=sm_90 -lineinfo",
		Command: "graphperf-bfs " + strings.Join(args, " ")})
	status := 0
	for ri, root := range roots {
		depth := props.BFS(g, root)
		levels := props.Levels(g, root)
		for ii, impl := range impls {
			id := Identity{Graph: filepath.Base(*gpg), GraphHash: "0000abcd", N: int64(g.NumVertices()), M: g.NumEdges(),
				Root: root, Impl: impl, Algorithm: "bfs", Aggregation: "-", WarpWidth: 1, Chunk: 1, Claim: "cas"}
			var reached int64
			var sw SwitchTotal
			for L, l := range levels {
				next := int64(0)
				if L+1 < len(levels) {
					next = levels[L+1].Frontier
				}
				reached += l.Frontier
				ns := 1000 + 10*float64(l.Frontier)
				var sl SwitchLevel
				if impl == ImplSwitch {
					run, ok := decisions.Impl(root, L)
					if !ok {
						return fail("root %d level %d: no decision", root, L)
					}
					sl.SwitchImpl, sl.Form = run, "depth"
					sw.SwitchImpls = append(sw.SwitchImpls, run)
					if L > 0 && sw.SwitchImpls[L-1] != run {
						sl.ConvertMedianNs = 500
						sw.Conversions++
						sw.ConvertMedianNs += 500
					}
					sw.KernelMedianNs += ns
				}
				line("level", Level{Identity: id, Level: L, Frontier: l.Frontier, Discovered: next, DeviceCount: next,
					Direction: "-", Convert: "-", Grid: 1, BlockSize: 256, Reps: *reps,
					Times: Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}, SwitchLevel: sl})
			}
			last := ri == len(roots)-1 && ii == len(impls)-1
			if os.Getenv("GRAPHPERF_FAKE_FAIL") == name && last {
				return fail("%s: runner.cu:300: cudaMalloc: out of memory", *gpg)
			}
			if os.Getenv("GRAPHPERF_FAKE_SHORT") == name && last {
				return status
			}
			hash := FormatHash(props.DepthHash(depth))
			wrong := os.Getenv("GRAPHPERF_FAKE_WRONG") == name && ri == 0 && ii == 0
			if wrong {
				hash = "0123456789abcdef"
				status = 2
			}
			ns := 1000 * float64(len(levels))
			if impl == ImplSwitch {
				sw.Decisions = filepath.Base(*decisionsPath)
				sw.DecisionsHash = "92a9b866c9caf25f" // made up: 16 hex digits, as the runner's
				sw.DecisionsSource = decisions.Source
				ns = sw.KernelMedianNs + sw.ConvertMedianNs
			}
			line("total", Total{Identity: id, Levels: len(levels), Reached: reached, DepthHash: hash, Verified: !wrong,
				L2Flush: true, BlockSize: 256, GridCap: 2112, Reps: *reps, Warmup: *warmup,
				Times: Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}, WallTimes: WallTimes{WallMedianNs: 2 * ns},
				SwitchTotal: sw})
			if wrong {
				ref := FormatHash(props.DepthHash(depth))
				line("error", Error{Identity: id, What: "depth_hash 0123456789abcdef differs from the CPU reference",
					DepthHash: hash, ReferenceHash: ref, FirstImpl: impl, FirstHash: hash})
			}
			fmt.Fprintf(stderr, "graphperf-bfs: root %d %s ok\n", root, impl)
		}
	}
	if os.Getenv("GRAPHPERF_FAKE_CRASH") == name {
		fmt.Fprint(stderr, "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\n"+
			"main.teardown(...)\n\t/src/runner.go:42 +0x1d\nmain.main()\n\t/src/runner.go:12 +0x25\n")
		return 2
	}
	return status
}

// fakePageRankRunner plays graphperf-pr: the same environment variables
// act on it as on the BFS fake.
func fakePageRankRunner(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graphperf-pr", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gpg := fs.String("graph", "", "")
	implList := fs.String("impl", "all", "")
	iterations := fs.Int("iterations", props.DefaultIterations, "")
	reps := fs.Int("reps", 10, "")
	warmup := fs.Int("warmup", 1, "")
	reference := fs.String("reference", "", "")
	out := fs.String("out", "", "")
	list := fs.Bool("list", false, "")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if *list {
		for _, name := range PageRankImpls {
			fmt.Fprintln(stdout, name)
		}
		return 0
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "graphperf-pr: "+format+"\n", args...)
		return 1
	}
	impls, err := SelectImpls([]string{*implList}, PageRankImpls)
	if err != nil {
		return fail("--impl: %v", err)
	}
	g, _, err := graph.LoadGPG(*gpg)
	if err != nil {
		return fail("%v", err)
	}
	want := props.PageRank(g, *iterations, props.DefaultDamping)
	refKind := "cpu"
	ref := want
	if *reference != "" {
		f, err := os.Open(*reference)
		if err != nil {
			return fail("%v", err)
		}
		rf, err := props.ReadRanks(f)
		f.Close()
		if err != nil {
			return fail("%s: %v", *reference, err)
		}
		if len(rf.Ranks) != g.NumVertices() || rf.Iterations != *iterations {
			return fail("%s: %d ranks after %d iterations, want %d after %d", *reference, len(rf.Ranks), rf.Iterations, g.NumVertices(), *iterations)
		}
		ref, refKind = rf.Ranks, "file"
	}
	var maxAbs, l1, sum, refSum float64
	for v := range want {
		d := math.Abs(float64(float32(want[v])) - ref[v])
		maxAbs = max(maxAbs, d)
		l1 += d
		sum += float64(float32(want[v]))
		refSum += ref[v]
	}
	if d, err := time.ParseDuration(os.Getenv("GRAPHPERF_FAKE_SLEEP")); err == nil {
		time.Sleep(d)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fail("cannot create %s: %v", *out, err)
		}
		defer f.Close()
		w = f
	}
	name := strings.TrimSuffix(filepath.Base(*gpg), ".gpg")
	line := func(_ string, v any) {
		b, err := AppendRecord(nil, recordOf(v))
		if err != nil {
			panic(err)
		}
		w.Write(append(b, '\n'))
	}
	line("device", Device{Tool: "graphperf-pr", Name: "Fake H100", ComputeCapability: "9.0", SMCount: 132,
		DriverVersion: 12080, RuntimeVersion: 12040, NvccVersion: "12.4.131", NvccFlags: "-O3 -std=c++17 -arch=sm_90 -lineinfo",
		Command: "graphperf-pr " + strings.Join(args, " ")})
	status := 0
	for ii, impl := range impls {
		id := Identity{Graph: filepath.Base(*gpg), GraphHash: "0000abcd", N: int64(g.NumVertices()), M: g.NumEdges(),
			Impl: impl, Algorithm: AlgorithmPageRank, WarpWidth: 1, Chunk: 1}
		last := ii == len(impls)-1
		if os.Getenv("GRAPHPERF_FAKE_FAIL") == name && last {
			return fail("%s: pagerank.cu:120: cudaMalloc: out of memory", *gpg)
		}
		if os.Getenv("GRAPHPERF_FAKE_SHORT") == name && last {
			return status
		}
		wrong := os.Getenv("GRAPHPERF_FAKE_WRONG") == name && ii == 0
		e1, eMax := l1, maxAbs
		if wrong {
			e1, eMax, status = 0.5, 0.25, 2
		}
		ns := 1000 * float64(*iterations)
		iterationMedians := make([]float64, *iterations)
		for i := range iterationMedians {
			iterationMedians[i] = 1000
		}
		var lastDelta *float64
		if !strings.HasSuffix(impl, "-nodiv") {
			d := 1e-7 // made up: the NoDiv kinds print none
			lastDelta = &d
		}
		line("total", Total{Identity: id, Verified: !wrong && e1 <= 1e-3 && eMax <= 1e-4, L2Flush: true, BlockSize: 256,
			GridCap: 2112, Reps: *reps, Warmup: *warmup, Times: Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns},
			PageRank: PageRank{Iterations: *iterations, Damping: props.DefaultDamping, Precision: "float32", Reference: refKind,
				MaxAbsError: eMax, L1Error: e1, RankSum: sum, ReferenceRankSum: refSum,
				UpdateMedianNs: ns / 2, ConsolidateMedianNs: ns / 2, IterationMedianNs: iterationMedians, LastDelta: lastDelta}})
		if wrong {
			line("error", Error{Identity: id, Iterations: *iterations,
				What: "ranks differ from the file reference: max_abs_error 0.25 (limit 1e-04), l1_error 0.5 (limit 1e-03)"})
		}
		fmt.Fprintf(stderr, "graphperf-pr: %s ok\n", impl)
	}
	return status
}

// recordOf returns a pointer to the record value v.
func recordOf(v any) Record {
	switch v := v.(type) {
	case Device:
		return &v
	case Level:
		return &v
	case Total:
		return &v
	case Error:
		return &v
	}
	panic(fmt.Sprintf("not a record: %T", v))
}
