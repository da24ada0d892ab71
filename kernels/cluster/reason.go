package cluster

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// trailerPrefix starts the line that RunLocal adds to a local task's
// output when the task ends: "... shard K ended: ok" or "... shard K
// ended: exit status 1".
const trailerPrefix = "--- graphperf bench sweep --local: shard "

// LocalOutput is where RunLocal writes the output of shard index of the
// plan in results: RESULTS/local/shard-NNN.out.
func (p *Plan) LocalOutput(results string, index int) string {
	width := max(3, len(strconv.Itoa(len(p.Shards)-1)))
	return filepath.Join(results, LocalDir, fmt.Sprintf("shard-%0*d.out", width, index))
}

// SlurmOutput is where the Slurm task of shard index of job writes its
// output: RESULTS/slurm/JOB_INDEX.out (SbatchArgs' --output).
func SlurmOutput(results, job string, index int) string {
	return filepath.Join(results, SlurmDir, job+"_"+strconv.Itoa(index)+".out")
}

// causeLine matches the lines of a task's output that say why it ended:
// graphperf's own error, Slurm's, a crash's first line.
var causeLine = regexp.MustCompile(`^(graphperf: |slurmstepd: |srun: error|panic: |fatal error: |Segmentation fault|Killed|terminate called)`)

// TaskOutcome is what a task's output says about how it ended: Reason,
// why it did not complete its shard (a graph's FAILED line, which names
// the runner's log, or graphperf's or Slurm's error; empty when it says
// nothing), and for a local task its exit (Ended: "ok", "exit status 1";
// empty when RunLocal recorded none).
type TaskOutcome struct {
	Reason string
	Ended  string
}

// ReadOutcome reads the task output file path (its last 64 KiB). A file
// that cannot be read says nothing.
func ReadOutcome(path string) TaskOutcome {
	var o TaskOutcome
	f, err := os.Open(path)
	if err != nil {
		return o
	}
	defer f.Close()
	const most = 64 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > most {
		f.Seek(fi.Size()-most, io.SeekStart)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return o
	}
	var failed []string
	var cause, last string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case strings.HasPrefix(l, trailerPrefix):
			if _, ended, ok := strings.Cut(l, " ended: "); ok {
				o.Ended = ended
			}
		case strings.Contains(l, ": FAILED: "):
			failed = append(failed, l)
		case causeLine.MatchString(l):
			cause = l
		default:
			last = l
		}
	}
	switch {
	case len(failed) == 1:
		o.Reason = failed[0]
	case len(failed) > 1:
		o.Reason = fmt.Sprintf("%s (and %d more FAILED lines)", failed[len(failed)-1], len(failed)-1)
	case cause != "":
		o.Reason = cause
	case o.Ended != "" && o.Ended != "ok":
		o.Reason = last
	}
	return o
}
