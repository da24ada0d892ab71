package kernels

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// TestBuildWithoutNVCC checks the message a machine without the CUDA
// toolkit gets.
func TestBuildWithoutNVCC(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("NVCC", "")
	saved := nvccFallbacks
	nvccFallbacks = nil
	t.Cleanup(func() { nvccFallbacks = saved })
	_, err := Build(context.Background(), BuildOptions{Dir: "cuda"})
	if !errors.Is(err, ErrNoNVCC) {
		t.Fatalf("Build error %v, want ErrNoNVCC", err)
	}
	if want := "nvcc not found: building the CUDA runner needs the CUDA toolkit; on a machine without a GPU use the embedded dataset"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q", err)
	}
	if _, err := Build(context.Background(), BuildOptions{Dir: "cuda", NVCC: "/no/such/nvcc"}); !errors.Is(err, ErrNoNVCC) {
		t.Errorf("Build with a missing NVCC: %v", err)
	}
	if _, err := Build(context.Background(), BuildOptions{Dir: "testdata"}); err == nil || !strings.Contains(err.Error(), "no Makefile in testdata") {
		t.Errorf("Build in a directory without a Makefile: %v", err)
	}
}

// TestRunner runs the fake runner: a good run, a mismatch (status 2), a
// failure (status 1, its stderr in the error) and --list.
func TestRunner(t *testing.T) {
	exe := useFakeRunner(t)
	dir := t.TempDir()
	gpg := filepath.Join(dir, "fig2.gpg")
	g := fig2(t)
	if err := graph.SaveGPG(gpg, g, g.Reverse()); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	r := Runner{Path: exe, Stderr: &stderr}
	opt := RunOptions{Graph: gpg, Roots: []uint32{0, 1}, Impls: []string{"topo", "queue"}, Reps: 2, Warmup: 0, Out: filepath.Join(dir, "out.jsonl")}
	if err := r.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "root 1 queue ok") {
		t.Errorf("stderr %q", stderr.String())
	}
	res, err := ReadFile(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	want := Expect{N: 6, M: 6, Roots: opt.Roots, Hashes: ReferenceHashes(g, opt.Roots), Impls: []string{"topo", "queue"}}
	if v := Validate(res, want); !v.OK() || v.Traversals != 4 {
		t.Errorf("validation %+v", v)
	}
	if !strings.Contains(res.Device.Command, "--roots 0,1 --impl topo,queue --reps 2 --warmup 0 --out") {
		t.Errorf("runner arguments %q", res.Device.Command)
	}

	t.Setenv("GRAPHPERF_FAKE_WRONG", "fig2")
	if err := r.Run(context.Background(), opt); !errors.Is(err, ErrMismatch) {
		t.Errorf("status 2: %v, want ErrMismatch", err)
	}
	t.Setenv("GRAPHPERF_FAKE_WRONG", "")
	t.Setenv("GRAPHPERF_FAKE_FAIL", "fig2")
	if err := r.Run(context.Background(), opt); err == nil || errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("status 1: %v", err)
	}
	if err := r.Run(context.Background(), RunOptions{Graph: gpg}); err == nil {
		t.Error("a run without roots")
	}
	names, err := r.List(context.Background())
	if err != nil || len(names) != len(Impls) || names[0] != "topo" {
		t.Errorf("List = %d names, %v", len(names), err)
	}
	if err := (Runner{Path: filepath.Join(dir, "nothing")}).Run(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "graphperf bench build") {
		t.Errorf("missing runner: %v", err)
	}
	if _, err := os.Stat(opt.Out); err != nil {
		t.Error(err)
	}
}
