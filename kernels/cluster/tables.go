package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// ShardTable is p's shards, one row each: the index, the number of
// graphs, the estimated stored edges and the first and last graph's names
// ("a .. b"; one name for a shard of one graph). The table is unnamed
// (never part of a report). O(shards).
func (p *Plan) ShardTable() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("shard", ""), table.IntCol("graphs", ""), table.IntCol("est_edges", "edges"), table.TextCol("names"))
	for _, s := range p.Shards {
		names := s.Graphs[0]
		if len(s.Graphs) > 1 {
			names += " .. " + s.Graphs[len(s.Graphs)-1]
		}
		t.Add(strconv.Itoa(s.Index), strconv.Itoa(len(s.Graphs)), strconv.FormatInt(s.Edges, 10), names)
	}
	return t
}

// Table is st's shards, one row each: the index, the number of graphs,
// the measurements done ("done/jobs"), the last task and its state ("-"
// for none; " (to resume)" added to a shard that is neither complete nor
// active but was submitted). The table is unnamed. O(shards).
func (st *Status) Table() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("shard", ""), table.IntCol("graphs", ""), table.TextUnitCol("done", "done/jobs"),
		table.TextCol("task"), table.TextCol("state"))
	for _, s := range st.Shards {
		state := orDash(s.State)
		if !s.Complete && !s.Active && s.Task != "" {
			state += " (to resume)"
		}
		t.Add(strconv.Itoa(s.Index), strconv.Itoa(s.Graphs), fmt.Sprintf("%d/%d", s.Done, s.Jobs), orDash(s.Task), state)
	}
	return t
}

// Failures are the shards that are neither complete nor queued or running
// and whose last task failed or said why, one line each: "shard 2
// (12_2, FAILED): REASON; output: PATH". O(shards).
func (st *Status) Failures() []string {
	var out []string
	for _, s := range st.Shards {
		if s.Complete || s.Active || s.Task == "" || (s.Reason == "" && !failedState(s.State)) {
			continue
		}
		line := fmt.Sprintf("shard %d (%s", s.Index, s.Task)
		if s.State != "" {
			line += ", " + s.State
		}
		line += "): "
		if s.Reason != "" {
			line += s.Reason
		} else {
			line += "its output says nothing more"
		}
		if s.Output != "" {
			line += "; output: " + s.Output
		} else {
			line += "; no output file"
		}
		out = append(out, line)
	}
	return out
}

// failedState says whether a task's state is one that ended badly.
func failedState(state string) bool {
	switch state {
	case "", "COMPLETED", "running", "PENDING", "RUNNING":
		return false
	}
	return !active(state)
}

// orDash is s, or "-" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SubmissionReport is one Slurm submission of a sharded sweep as
// "graphperf bench sweep --slurm --json" (and --resume --json) prints it.
type SubmissionReport struct {
	JobID   string   `json:"job_id"`
	Array   string   `json:"array"` // the --array specification (ArraySpec)
	Shards  []int    `json:"shards"`
	Graphs  int      `json:"graphs"`  // in the shards submitted
	Results string   `json:"results"` // the results directory, absolute
	Script  string   `json:"script"`  // the batch script's path (ScriptPath)
	Command []string `json:"command"` // the sbatch command line
}

// Report is sub, a submission of p's shards of the sweep in results, with
// its graph count, array specification and script path. O(shards).
func (p *Plan) Report(results string, sub *Submission) SubmissionReport {
	most := 0
	if sub.Slurm != nil {
		most = sub.Slurm.ArrayMax
	}
	return SubmissionReport{JobID: sub.JobID, Array: ArraySpec(sub.Shards, most), Shards: sub.Shards, Graphs: p.GraphsIn(sub.Shards),
		Results: results, Script: ScriptPath(results), Command: sub.Command}
}

// NotResumed is what "bench sweep --resume --json" prints when nothing
// was submitted: Submitted false and the sweep's status.
type NotResumed struct {
	Submitted bool    `json:"submitted"`
	Status    *Status `json:"status"`
}

// ShellQuote is args as a POSIX shell would need them typed, for display
// only: arguments of letters, digits and -_./=:,%+@ as they are, others
// in single quotes. O(total length).
func ShellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,%+@") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
