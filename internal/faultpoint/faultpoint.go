package faultpoint

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// Env names the environment variable that arms the points: "N" kills the
// process (SIGKILL, as kill -9 does: no deferred function runs) at the
// N-th point it passes, counting from 1; "N:PREFIX" counts only the points
// whose name starts with PREFIX. Unset, empty or malformed, Hit does
// nothing. Before it dies, the process writes the point's name to stderr
// as "faultpoint: NAME", so a test can tell where it stopped.
const Env = "GRAPHPERF_FAULT_AT"

var (
	target = parse(os.Getenv(Env))
	hits   atomic.Int64
)

type armed struct {
	n      int64
	prefix string
}

func parse(v string) *armed {
	if v == "" {
		return nil
	}
	nStr, prefix, _ := strings.Cut(v, ":")
	n, err := strconv.ParseInt(nStr, 10, 64)
	if err != nil || n < 1 {
		return nil
	}
	return &armed{n: n, prefix: prefix}
}

// Hit marks the write point name. It costs one comparison when Env is not
// set.
func Hit(name string) {
	if target == nil || !strings.HasPrefix(name, target.prefix) {
		return
	}
	if hits.Add(1) == target.n {
		fmt.Fprintf(os.Stderr, "faultpoint: %s\n", name)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL is not deferred
	}
}
