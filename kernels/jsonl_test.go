package kernels

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// fig2 is the graph of seed 000 figure 2 (testdata/fig2.txt), directed:
// A..F = 0..5.
func fig2(t testing.TB) *graph.CSR {
	t.Helper()
	g, err := graph.Load("testdata/fig2.txt", graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// testdata/fig2.jsonl is written by hand after kernels/cuda/README.md's
// schema, not measured: a run of topo, queue, dobfs and vertex-push/atomic
// on fig2 from roots 0 and 1 with 3 repetitions, in which
// vertex-push/atomic's result from root 1 is wrong (its total says
// verified false and two error lines follow). Its depth hashes are those
// of props.DepthHash (checked below); one total line carries a key the
// parser does not know.
func TestParseFixture(t *testing.T) {
	res, err := ReadFile("testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	d := res.Device
	if d == nil {
		t.Fatal("no device line")
	}
	if d.Name != "NVIDIA H100 80GB HBM3" || d.ComputeCapability != "9.0" || d.SMCount != 132 || d.L2Bytes != 50<<20 ||
		d.GlobalMemBytes != 84929347584 || d.RuntimeVersion != 12040 || d.NvccVersion != "12.4.131" ||
		d.NvccFlags != "-O3 -std=c++17 -arch=sm_90 -lineinfo" || d.CUDAModuleLoading != "EAGER" || !strings.HasPrefix(d.Command, "./graphperf-bfs") {
		t.Errorf("device %+v", d)
	}
	// 2 roots x 4 implementations, 3 levels each.
	if len(res.Totals) != 8 || len(res.Levels) != 24 || len(res.Errors) != 2 {
		t.Fatalf("%d totals, %d levels, %d errors; want 8, 24, 2", len(res.Totals), len(res.Levels), len(res.Errors))
	}
	l := res.Levels[1]
	if l.Graph != "fig2.gpg" || l.Root != 0 || l.Impl != "topo" || l.Level != 1 || l.Frontier != 2 || l.Discovered != 3 ||
		l.DeviceCount != 1 || l.Claim != "plain" || l.Grid != 1 || l.BlockSize != 256 || l.Reps != 3 || l.MedianNs != 4064.0 {
		t.Errorf("level line %+v", l)
	}
	var dobfs *Total
	for i := range res.Totals {
		if res.Totals[i].Impl == "dobfs" && res.Totals[i].Root == 0 {
			dobfs = &res.Totals[i]
		}
	}
	if dobfs == nil || dobfs.Directions != "TBT" || dobfs.BottomUpLevels != 1 || dobfs.Levels != 3 || dobfs.Reached != 6 ||
		!dobfs.L2Flush || dobfs.GridCap != 2112 || dobfs.MedianNs != 12176.5 || dobfs.WallMedianNs != 33676.9 || !dobfs.Verified {
		t.Errorf("dobfs total %+v", dobfs)
	}
	e := res.Errors[0]
	if e.Root != 1 || e.Impl != "vertex-push/atomic" || e.ReferenceHash != "8726d5346cf31292" || e.FirstImpl != "topo" || !strings.Contains(e.What, "CPU reference") {
		t.Errorf("error line %+v", e)
	}

	// The fixture's hashes are the Go reference's.
	g := fig2(t)
	roots := []uint32{0, 1}
	hashes := ReferenceHashes(g, roots)
	for i, r := range roots {
		if want := props.DepthHash(props.BFS(g, r)); hashes[i] != want {
			t.Errorf("ReferenceHashes[%d] = %x, want %x", i, hashes[i], want)
		}
	}
	if FormatHash(hashes[0]) != "b20ac75dffed2c97" {
		t.Errorf("root 0 hash %s, the fixture has b20ac75dffed2c97", FormatHash(hashes[0]))
	}
	v := Validate(res, Expect{N: 6, M: 6, Roots: roots, Hashes: hashes, Impls: []string{"topo", "queue", "dobfs", "vertex-push/atomic"}})
	if !v.Complete() || v.OK() || v.Traversals != 8 {
		t.Fatalf("validation %+v: want complete, not OK, 8 traversals", v)
	}
	// The wrong hash and the runner's two error lines.
	if len(v.Problems) != 3 || !strings.Contains(v.Problems[0], "root 1 vertex-push/atomic: depth hash 0123456789abcdef, Go reference 8726d5346cf31292") {
		t.Errorf("problems %q", v.Problems)
	}
	v = Validate(res, Expect{N: 6, M: 7, Roots: []uint32{0, 1, 2}, Hashes: []uint64{hashes[0], hashes[1], 0}, Impls: []string{"topo", "queue", "dobfs", "vertex-push/atomic", "edge-list/bulk"}})
	if v.Complete() || len(v.Missing) != 7 || !strings.Contains(v.Problems[0], "not 6 and 7") {
		t.Errorf("validation against more than was run: %+v", v)
	}
}

func TestParseGzip(t *testing.T) {
	data, err := os.ReadFile("testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	path := filepath.Join(t.TempDir(), "results.jsonl.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ReadFile(path)
	if err != nil || len(res.Totals) != 8 {
		t.Fatalf("gzip: %v, %d totals", err, len(res.Totals))
	}
	// A truncated stream is an error, not a short result.
	if err := os.WriteFile(path, buf.Bytes()[:buf.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var fe *FileError
	if _, err := ReadFile(path); !errors.As(err, &fe) || fe.Err != ErrTruncatedGzip ||
		err.Error() != fmt.Sprintf("%s: truncated gzip stream (after %d bytes)", path, buf.Len()/2) {
		t.Errorf("a truncated gzip file: %v", err)
	}
	// So is one cut between two lines: the stream knows its end.
	var cut bytes.Buffer
	zw = gzip.NewWriter(&cut)
	zw.Write(data[:bytes.IndexByte(data, '\n')+1])
	zw.Flush()
	os.WriteFile(path, cut.Bytes(), 0o644)
	if _, err := ReadFile(path); !errors.As(err, &fe) || fe.Err != ErrTruncatedGzip {
		t.Errorf("a gzip file cut after a line: %v", err)
	}
	// An empty file is no output.
	os.WriteFile(path, nil, 0o644)
	if _, err := ReadFile(path); !errors.As(err, &fe) || err.Error() != path+": empty file" {
		t.Errorf("an empty file: %v", err)
	}
}

// TestParseErrors checks that a malformed line is a *ParseError with the
// file, the line, and the record and field at fault.
func TestParseErrors(t *testing.T) {
	device, level, total := string(fig2Line(t, 1)), string(fig2Line(t, 2)), string(fig2Line(t, 5))
	edit := func(line, old, new string) string {
		if !strings.Contains(line, old) {
			t.Fatalf("no %s in %s", old, line)
		}
		return strings.Replace(line, old, new, 1)
	}
	tests := []struct {
		name, text, want, field string
	}{
		{"not JSON", device + "\n" + "{\"type\":\"level\",\n", `out.jsonl:2: not a JSON object: the line ends inside it, after field "type"`, "type"},
		{"no type", device + "\n\n" + `{"impl":"topo"}`, `out.jsonl:3: no "type" key`, ""},
		{"array", `[1,2]`, "out.jsonl:1: not a JSON object", ""},
		{"wrong key type", device + "\n" + edit(level, `"root":0`, `"root":"zero"`),
			`out.jsonl:2: level record: field "root": got a string, want an integer in 0..4294967295`, "root"},
		{"root out of range", edit(total, `"root":0`, `"root":4294967296`),
			`out.jsonl:1: total record: field "root": got 4294967296, want an integer in 0..4294967295`, "root"},
		{"bad hash", edit(total, `"b20ac75dffed2c97"`, `"b20ac75d"`),
			`out.jsonl:1: total record: field "depth_hash": "b20ac75d": want 16 lowercase hex digits`, "depth_hash"},
		{"hash not hex", edit(total, `"b20ac75dffed2c97"`, `"b20ac75dffed2cXX"`), `out.jsonl:1: total record: field "depth_hash"`, "depth_hash"},
		{"no impl", edit(total, `"impl":"topo",`, ``), `out.jsonl:1: total record: field "impl" missing`, "impl"},
		{"level without frontier", edit(level, `"frontier":1,`, ``), `out.jsonl:1: level record: field "frontier" missing`, "frontier"},
		{"device without sm_count", edit(device, `"sm_count":132,`, ``), `out.jsonl:1: device record: field "sm_count" missing`, "sm_count"},
		{"dobfs without directions", strings.Join([]string{device, string(fig2Line(t, 10)), string(fig2Line(t, 11)),
			string(fig2Line(t, 12)), edit(string(fig2Line(t, 13)), `"directions":"TBT",`, ``)}, "\n"),
			`out.jsonl:5: total record: field "directions" missing`, "directions"},
		{"duplicated traversal", strings.Join([]string{device, level, string(fig2Line(t, 3)), string(fig2Line(t, 4)), total, level}, "\n"),
			`out.jsonl:6: level record: a traversal of topo of fig2.gpg from root 0 again: its total is at line 5`, ""},
		{"duplicated total", strings.Join([]string{device, level, string(fig2Line(t, 3)), string(fig2Line(t, 4)), total, total}, "\n"),
			`out.jsonl:6: total record: a second total of topo of fig2.gpg from root 0: the first is at line 5`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.text), "out.jsonl")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) || pe.Field != tt.field {
				t.Errorf("error %q (field %q), want %q... (field %q)", err, pe.Field, tt.want, tt.field)
			}
		})
	}
}

// TestReaderOther checks that unknown line types and unknown keys pass.
func TestReaderOther(t *testing.T) {
	device, total := string(fig2Line(t, 1)), string(fig2Line(t, 5))
	text := strings.Replace(device, `{"type":"device",`, `{"type":"device","new_key":[1],`, 1) + "\n" +
		`{"type":"pagerank-total","impl":"pr"}` + "\n" +
		strings.Replace(total, `"impl":"topo",`, `"impl":"topo","extra":{"a":1},`, 1) + "\n"
	r := NewReader(strings.NewReader(text), "x")
	var types []string
	for r.Next() {
		types = append(types, r.Record().Type())
		if o, ok := r.Record().(*Other); ok && !strings.Contains(string(o.Raw), `"impl":"pr"`) {
			t.Errorf("Other.Raw = %s", o.Raw)
		}
	}
	if r.Err() != nil || strings.Join(types, ",") != "device,pagerank-total,total" || r.Line() != 3 {
		t.Errorf("types %v, line %d, err %v", types, r.Line(), r.Err())
	}
	if h, err := ParseHash("0000000000000001"); err != nil || h != 1 {
		t.Errorf("ParseHash = %d, %v", h, err)
	}
}

// FuzzParse checks that no input makes the reader panic, and that a
// parsed total always has an implementation and a well-formed hash.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("testdata/fig2.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range bytes.Split(data, []byte("\n"))[:6] {
		f.Add(line)
	}
	f.Add([]byte(`{"type":"total","depth_hash":"zz"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := Parse(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		for _, tot := range res.Totals {
			if _, err := ParseHash(tot.DepthHash); err != nil || tot.Impl == "" {
				t.Errorf("accepted total %+v", tot)
			}
		}
	})
}

func TestParsePageRankTotal(t *testing.T) {
	device := strings.Replace(string(fig2Line(t, 1)), `"graphperf-bfs"`, `"graphperf-pr"`, 1)
	in := device + `
{"type":"total","graph":"g.gpg","graph_hash":"0000abcd","n":3,"m":3,"impl":"vertex-pull-nodiv","algorithm":"pagerank","warp_width":1,"chunk":1,"iterations":2,"damping":0.850000,"precision":"float32","verified":true,"reference":"file","max_abs_error":0.000000000030,"l1_error":0.000000000060,"rank_sum":0.355416000,"reference_rank_sum":0.355416667,"l2_flush":true,"block_size":256,"grid_cap":2112,"reps":10,"warmup":1,"min_ns":1.0,"median_ns":2.0,"mean_ns":2.0,"max_ns":3.0,"stddev_ns":0.5,"update_min_ns":0.5,"update_median_ns":1.0,"update_mean_ns":1.0,"update_max_ns":1.5,"update_stddev_ns":0.1,"consolidate_min_ns":0.5,"consolidate_median_ns":1.0,"consolidate_mean_ns":1.0,"consolidate_max_ns":1.5,"consolidate_stddev_ns":0.1,"iteration_median_ns":[1.0,2.0]}
{"type":"total","graph":"g.gpg","graph_hash":"0000abcd","n":3,"m":3,"impl":"edge-list","algorithm":"pagerank","warp_width":1,"chunk":1,"iterations":2,"damping":0.850000,"precision":"float32","verified":false,"reference":"cpu","max_abs_error":0.1,"l1_error":0.2,"rank_sum":0.355416000,"reference_rank_sum":0.355416667,"last_delta":0.000001,"l2_flush":true,"block_size":256,"grid_cap":2112,"reps":10,"warmup":1,"min_ns":1.0,"median_ns":2.0,"mean_ns":2.0,"max_ns":3.0,"stddev_ns":0.5,"update_min_ns":0.5,"update_median_ns":1.0,"update_mean_ns":1.0,"update_max_ns":1.5,"update_stddev_ns":0.1,"consolidate_min_ns":0.5,"consolidate_median_ns":1.0,"consolidate_mean_ns":1.0,"consolidate_max_ns":1.5,"consolidate_stddev_ns":0.1,"iteration_median_ns":[1.0,2.0]}
{"type":"error","graph":"g.gpg","graph_hash":"0000abcd","n":3,"m":3,"impl":"edge-list","algorithm":"pagerank","warp_width":1,"chunk":1,"iterations":2,"what":"ranks differ"}
`
	res, err := Parse(strings.NewReader(in), "pr.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Totals) != 2 || len(res.Errors) != 1 {
		t.Fatalf("%+v", res)
	}
	p := res.Totals[0]
	if p.Iterations != 2 || p.Reference != "file" || !p.Verified || p.MaxAbsError != 3e-11 || p.ConsolidateMedianNs != 1 ||
		len(p.IterationMedianNs) != 2 || p.LastDelta != nil || p.DepthHash != "" {
		t.Errorf("total %+v", p)
	}
	if d := res.Totals[1].LastDelta; d == nil || *d != 1e-6 {
		t.Errorf("last_delta %v", d)
	}
	v := ValidatePageRank(res, ExpectPageRank{N: 3, M: 3, Impls: []string{"vertex-pull-nodiv", "edge-list", "vertex-push"}, Iterations: 2, Reference: "file"})
	if v.Complete() || len(v.Missing) != 1 || len(v.Problems) != 2 { // edge-list: no reference kind, an error line
		t.Errorf("validation %+v", v)
	}
	// Without iterations a pagerank total is malformed; without its last
	// delta too, unless it is a NoDiv kind's.
	lines := strings.Split(in, "\n")
	for _, c := range []struct{ line, old, want string }{
		{lines[1], `"iterations":2,`, `pagerank total record: field "iterations" missing`},
		{lines[2], `"last_delta":0.000001,`, `pagerank total record: field "last_delta" missing`},
		{lines[1], `"reference":"file",`, `pagerank total record: field "reference" missing`},
	} {
		bad := strings.Replace(c.line, c.old, "", 1)
		if _, err := Parse(strings.NewReader(bad), "bad.jsonl"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// testdata/switch-rmat16.jsonl is measured (H200, 2025-11-25, make
// smoke-switch's rmat16 graph, root 0, decisions queue-dobfs-0: queue and
// dobfs alternating, dobfs bottom-up at levels 1 and 3): the switching
// BFS's lines (kernels/cuda/README.md, "Switching BFS"), with the
// queue-to-bitmap and bitmap-to-queue conversions timed apart.
func TestParseSwitch(t *testing.T) {
	res, err := ReadFile("testdata/switch-rmat16.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Levels) != 6 || len(res.Totals) != 1 || len(res.Errors) != 0 {
		t.Fatalf("%d levels, %d totals, %d errors; want 6, 1, 0", len(res.Levels), len(res.Totals), len(res.Errors))
	}
	impls := []string{"queue", "dobfs", "queue", "dobfs", "queue", "dobfs"}
	convs := []string{"-", "queue-to-bitmap", "bitmap-to-queue", "queue-to-bitmap", "bitmap-to-queue", "-"}
	var kernel, conv float64
	for i, l := range res.Levels {
		if l.Impl != ImplSwitch || l.SwitchImpl != impls[i] || l.Convert != convs[i] {
			t.Errorf("level %d: impl %q switch_impl %q convert %q; want switch, %s, %s", i, l.Impl, l.SwitchImpl, l.Convert, impls[i], convs[i])
		}
		if (l.Convert == "-") != (l.ConvertMedianNs == 0) {
			t.Errorf("level %d: convert %q with convert_median_ns %v", i, l.Convert, l.ConvertMedianNs)
		}
		kernel += l.MedianNs
		conv += l.ConvertMedianNs
	}
	if l := res.Levels[1]; l.Form != "bitmap" || l.Direction != "bottom-up" || l.ConvertMedianNs != 12096.0 || l.MedianNs != 10720.0 {
		t.Errorf("level 1: %+v", l)
	}
	tot := res.Totals[0]
	if !tot.Verified || tot.DepthHash != "209f2c2eaad3504e" || tot.Decisions != "queue-dobfs-0.txt" || len(tot.DecisionsHash) != 16 ||
		tot.DecisionsSource != "smoke_switch.sh queue-dobfs+0" || !slices.Equal(tot.SwitchImpls, impls) || tot.Conversions != 4 {
		t.Errorf("total: %+v", tot.SwitchTotal)
	}
	// The total is kernels plus conversions, repetition by repetition;
	// the medians of the sums need not be the sums of the medians.
	if tot.KernelMedianNs <= 0 || tot.ConvertMedianNs <= 0 || tot.KernelMinNs+tot.ConvertMinNs > tot.MaxNs ||
		tot.MinNs < tot.KernelMinNs+tot.ConvertMinNs-1 {
		t.Errorf("total %v = kernel %v + convert %v?", tot.Times, tot.KernelMedianNs, tot.ConvertMedianNs)
	}
	if r := (kernel + conv) / tot.MedianNs; r < 0.9 || r > 1.1 {
		t.Errorf("levels sum to %.0f ns, total median %.0f ns", kernel+conv, tot.MedianNs)
	}
}
