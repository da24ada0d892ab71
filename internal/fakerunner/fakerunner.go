// Package fakerunner is a stand-in for the CUDA BFS runner, graphperf-bfs, in tests: it prints valid runner output computed with the Go reference BFS.
//
// A test binary becomes the stand-in when its TestMain calls Main, usually
// when it was started through a link called graphperf-bfs (IsRunner), so
// that the sweep, the Slurm tasks and the local processes run it as they
// would run the real runner. It reads the .gpg, runs props.BFS from each
// root, and writes a device line, a level line per BFS level and a total
// line per (root, implementation), with the Go reference's depth hash, to
// --out. Environment:
//
//	GRAPHPERF_FAKE_SLEEP  NAME=DURATION: sleep that long before measuring
//	                      the graph NAME (a task to kill while it runs)
//	GRAPHPERF_FAKE_CRASH  NAME: after the first total line of the graph
//	                      NAME, crash as a Go panic does (a trace on
//	                      stderr, exit status 2, no "error" line)
package fakerunner

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// Name is the link name under which a test binary plays the runner.
const Name = "graphperf-bfs"

// SleepEnv names the environment variable that makes a graph slow, and
// CrashEnv the one that makes the runner crash on a graph.
const (
	SleepEnv = "GRAPHPERF_FAKE_SLEEP"
	CrashEnv = "GRAPHPERF_FAKE_CRASH"
)

// CrashText is what the stand-in writes to stderr when it crashes
// (CrashEnv), before it exits with status 2.
const CrashText = "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\n" +
	"main.levels(...)\n\t/src/runner.go:42 +0x1d\nmain.main()\n\t/src/runner.go:12 +0x25\n"

// IsRunner reports whether this process was started as the runner.
func IsRunner() bool { return filepath.Base(os.Args[0]) == Name }

// Main runs the stand-in with the runner's arguments and returns its exit
// status.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	gpg := fs.String("graph", "", "")
	rootList := fs.String("roots", "", "")
	implList := fs.String("impl", "all", "")
	reps := fs.Int("reps", 10, "")
	warmup := fs.Int("warmup", 1, "")
	out := fs.String("out", "", "")
	list := fs.Bool("list", false, "")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if *list {
		fmt.Fprintln(stdout, strings.Join(kernels.Impls, "\n"))
		return 0
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, Name+": "+format+"\n", args...)
		return 1
	}
	impls, err := kernels.SelectImpls([]string{*implList}, nil)
	if err != nil {
		return fail("--impl: %v", err)
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
	name := strings.TrimSuffix(filepath.Base(*gpg), ".gpg")
	if slow, d, ok := strings.Cut(os.Getenv(SleepEnv), "="); ok && slow == name {
		if d, err := time.ParseDuration(d); err == nil {
			time.Sleep(d)
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		return fail("%v", err)
	}
	defer f.Close()
	line := func(rec kernels.Record) {
		b, err := kernels.AppendRecord(nil, rec)
		if err != nil {
			panic(err) // a record this code built
		}
		f.Write(append(b, '\n'))
	}
	line(&kernels.Device{Tool: Name, Name: "Fake H100", ComputeCapability: "9.0", SMCount: 132,
		DriverVersion: 12080, RuntimeVersion: 12040, NvccVersion: "12.4.131", NvccFlags: "-O3 -arch=sm_90",
		Command: Name + " " + strings.Join(args, " ")})
	for _, root := range roots {
		depth := props.BFS(g, root)
		levels := props.Levels(g, root)
		hash := kernels.FormatHash(props.DepthHash(depth))
		for i, impl := range impls {
			id := kernels.Identity{Graph: filepath.Base(*gpg), GraphHash: "0000abcd", N: int64(g.NumVertices()), M: g.NumEdges(),
				Root: root, Impl: impl, Algorithm: kernels.AlgorithmBFS, Aggregation: "-", WarpWidth: 1, Chunk: 1, Claim: "cas"}
			var reached int64
			for L, l := range levels {
				next := int64(0)
				if L+1 < len(levels) {
					next = levels[L+1].Frontier
				}
				reached += l.Frontier
				ns := 1000 + 10*float64(l.Frontier) + 100*float64(i) // made up: 1 µs a level, 10 ns a vertex
				line(&kernels.Level{Identity: id, Level: L, Frontier: l.Frontier, Discovered: next, DeviceCount: next,
					Direction: "-", Convert: "-", Grid: 1, BlockSize: 256, Reps: *reps,
					Times: kernels.Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}})
			}
			ns := 1000 * float64(len(levels)) * float64(i+1)
			line(&kernels.Total{Identity: id, Levels: len(levels), Reached: reached, DepthHash: hash, Verified: true,
				L2Flush: true, BlockSize: 256, GridCap: 2112, Reps: *reps, Warmup: *warmup,
				Times: kernels.Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}, WallTimes: kernels.WallTimes{WallMinNs: 2 * ns, WallMedianNs: 2 * ns, WallMeanNs: 2 * ns, WallMaxNs: 2 * ns}})
			if os.Getenv(CrashEnv) == name {
				f.Close()
				fmt.Fprint(stderr, CrashText)
				return 2
			}
		}
	}
	return 0
}
