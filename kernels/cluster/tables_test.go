package cluster

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// ShardTable names a shard's first and last graphs; Status.Table marks the
// shards to resume and puts "-" for no task or state.
func TestTables(t *testing.T) {
	p := &Plan{Shards: []Shard{{Index: 0, Graphs: []string{"a"}, Edges: 10}, {Index: 1, Graphs: []string{"b", "c", "d"}, Edges: 1 << 40}}}
	want := [][]string{{"0", "1", "10", "a"}, {"1", "3", "1099511627776", "b .. d"}}
	if tb := p.ShardTable(); !reflect.DeepEqual(tb.Rows, want) || len(tb.Header) != 4 {
		t.Errorf("shards %v %v, want %v", tb.Header, tb.Rows, want)
	}
	st := &Status{Shards: []ShardStatus{
		{Index: 0, Graphs: 2, Jobs: 4, Done: 4, Complete: true, Task: "12_0", State: "COMPLETED"},
		{Index: 1, Graphs: 2, Jobs: 4, Done: 1, Task: "12_1", State: "FAILED"},
		{Index: 2, Graphs: 1, Jobs: 2},
	}}
	want = [][]string{{"0", "2", "4/4", "12_0", "COMPLETED"}, {"1", "2", "1/4", "12_1", "FAILED (to resume)"}, {"2", "1", "0/2", "-", "-"}}
	if tb := st.Table(); !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("status %v, want %v", tb.Rows, want)
	}
	// Both declare their columns, and their cells agree (named: a report
	// would name them).
	for _, tb := range []table.Table{p.ShardTable(), st.Table()} {
		tb.Name = "t"
		if len(tb.Columns) != len(tb.Header) || tb.Check() != nil {
			t.Errorf("%v: columns %v, check %v", tb.Header, tb.Columns, tb.Check())
		}
	}
}

// Report counts the graphs of the shards submitted and writes the array
// with its limit; its JSON keys are those "bench sweep --slurm --json"
// prints.
func TestSubmissionReport(t *testing.T) {
	p := &Plan{Shards: []Shard{{Index: 0, Graphs: []string{"a"}}, {Index: 1, Graphs: []string{"b", "c"}}, {Index: 2, Graphs: []string{"d"}}}}
	sub := &Submission{JobID: "77", Shards: []int{1, 2}, Slurm: &SlurmOptions{ArrayMax: 3}, Command: []string{"sbatch", "x"}}
	r := p.Report("/r", sub)
	if r.Graphs != 3 || r.Array != "1-2%3" || r.Script != ScriptPath("/r") || r.JobID != "77" {
		t.Errorf("%+v", r)
	}
	data, _ := json.Marshal(r)
	if !strings.HasPrefix(string(data), `{"job_id":"77","array":"1-2%3","shards":[1,2],"graphs":3,"results":"/r","script":`) {
		t.Errorf("JSON %s", data)
	}
}

// ShellQuote leaves plain words and quotes the rest, quotes included.
func TestShellQuote(t *testing.T) {
	got := ShellQuote([]string{"sbatch", "--array=0-5%2", "", "it's $(x)"})
	if want := `sbatch --array=0-5%2 '' 'it'\''s $(x)'`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
