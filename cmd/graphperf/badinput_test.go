package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/store"
)

// badInput is one bad invocation: the files it reads (written into a fresh
// working directory beside s.db, a store holding fig2.jsonl and the CSV
// timings), its arguments, and the file:line or flag its message must name.
type badInput struct {
	name  string
	files map[string]string
	args  []string
	want  string
}

// fig2JSONL and timingsCSV are the runner and CSV test files, read once.
var fig2JSONL, timingsCSV = mustRead("../../kernels/testdata/fig2.jsonl"), mustRead(csvTimings)

func mustRead(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// editLine returns text with old replaced by new in its 1-based line n.
func editLine(text string, n int, old, new string) string {
	lines := strings.Split(text, "\n")
	if !strings.Contains(lines[n-1], old) {
		panic(fmt.Sprintf("line %d has no %q", n, old))
	}
	lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
	return strings.Join(lines, "\n")
}

// badInputs is the shared table of bad inputs, files and flags.
func badInputs() []badInput {
	var cs []badInput
	add := func(name string, files map[string]string, want string, args ...string) {
		cs = append(cs, badInput{name, files, args, want})
	}
	one := func(name, text string) map[string]string { return map[string]string{name: text} }

	// Runner lines out of range or malformed (fig2.jsonl: line 2 topo's
	// level 0 from root 0, line 3 its level 1, line 5 its total).
	for _, m := range []struct {
		line     int
		old, new string
	}{
		{2, `"level":0,`, `"level":-1,`}, {3, `"level":1,`, `"level":2,`}, {3, `"level":1,`, `"level":0,`},
		{2, `"level":0,`, `"level":6,`}, {2, `"median_ns":4112.5`, `"median_ns":-4112.5`},
		{2, `"max_ns":4146.1`, `"max_ns":1e300`}, {5, `"max_ns":12270.9`, `"max_ns":1e300`},
		{2, `"stddev_ns":25.4`, `"stddev_ns":-1`}, {2, `"median_ns":4112.5`, `"median_ns":5000`},
		{5, `"mean_ns":12189.8`, `"mean_ns":100`}, {2, `"min_ns":4096.0`, `"min_ns":9000`},
		{2, `"frontier":1,`, `"frontier":-1,`}, {2, `"frontier":1,`, `"frontier":7,`},
		{3, `"discovered":3,`, `"discovered":-3,`}, {3, `"discovered":3,`, `"discovered":60,`},
		{2, `"reps":3,`, `"reps":0,`}, {2, `"grid":1,`, `"grid":-1,`}, {2, `"n":6,`, `"n":0,`},
		{2, `"m":6,`, `"m":-6,`}, {5, `"root":0,`, `"root":9,`}, {5, `"reached":6,`, `"reached":7,`},
		{5, `"reached":6,`, `"reached":-1,`}, {5, `"depth_hash":"b20ac75dffed2c97",`, ``},
		{5, `"depth_hash":"b20ac75dffed2c97",`, `"depth_hash":"zz",`}, {5, `"warmup":1,`, `"warmup":-1,`},
		{5, `"wall_min_ns":33121.6`, `"wall_min_ns":-1`}, {5, `"grid_cap":2112,`, `"grid_cap":-2112,`},
		{2, `"graph":"fig2.gpg",`, `"graph":"",`}, {2, `"level":0,`, `"level":"zero",`},
		{2, `"frontier":1,`, `"frontier":1.5,`}, {5, `"levels":3,`, `"levels":4,`},
		{2, `"median_ns":4112.5`, `"median_ns":NaN`}, {5, `"verified":true`, `"verified":"yes"`},
		{2, `{"type":"level",`, `{"type":"level",,`}, {5, `"impl":"topo",`, ``},
	} {
		text := editLine(fig2JSONL, m.line, m.old, m.new)
		add(fmt.Sprintf("jsonl %d %s -> %s", m.line, m.old, m.new), one("bad.jsonl", text), fmt.Sprintf("bad.jsonl:%d:", m.line),
			"bench", "ingest", "--db", "s.db", "bad.jsonl")
	}
	lines := strings.Split(fig2JSONL, "\n")
	add("jsonl level without total", one("bad.jsonl", strings.Join(lines[:4], "\n")), "bad.jsonl:2:",
		"bench", "ingest", "--db", "s.db", "bad.jsonl")
	add("jsonl total before device", one("bad.jsonl", strings.Join(lines[1:], "\n")), "bad.jsonl:4:",
		"bench", "ingest", "--db", "s.db", "bad.jsonl")
	add("jsonl not json", one("bad.jsonl", "not json\n"), "bad.jsonl:1:", "bench", "ingest", "--db", "s.db", "bad.jsonl")
	add("jsonl truncated gzip", one("bad.jsonl.gz", "\x1f\x8b\x08\x00garbage"), "bad.jsonl.gz",
		"bench", "ingest", "--db", "s.db", "bad.jsonl.gz")
	// A corrected file under a stored source needs --replace.
	add("jsonl changed source", one("fig2.jsonl", editLine(fig2JSONL, 2, `"median_ns":4112.5`, `"median_ns":4100.5`)),
		"fig2.jsonl", "bench", "ingest", "--db", "s.db", "--dataset", "d", "fig2.jsonl")
	add("jsonl bad replacement", one("fig2.jsonl", editLine(fig2JSONL, 2, `"frontier":1,`, `"frontier":-1,`)),
		"fig2.jsonl:2:", "bench", "ingest", "--db", "s.db", "--dataset", "d", "--replace", "fig2.jsonl")

	// CSV rows (timings.csv: header, then fig2 rows; line 2 gunrock/lb's
	// level 0 from root 0, repetition 1).
	csvArgs := func(file string, more ...string) []string {
		return append([]string{"bench", "ingest", "--db", "s.db", "--csv", file, "--map", csvTimingsMap, "--time-unit", "ms"}, more...)
	}
	for i, row := range []struct {
		line int
		text string
	}{
		{2, "fig2,0,gunrock/lb,0,1,1e300"}, {2, "fig2,0,gunrock/lb,0,1,Inf"}, {2, "fig2,0,gunrock/lb,0,1,NaN"},
		{2, "fig2,0,gunrock/lb,0,1,-0.01"}, {2, "fig2,0,gunrock/lb,0,1,0.0x1"}, {2, "fig2,0,,0,1,0.010"},
		{2, ",0,gunrock/lb,0,1,0.010"}, {2, "fig2,0,gunrock/lb,-1,1,0.010"}, {2, "fig2,zero,gunrock/lb,0,1,0.010"},
		{2, "fig2,0,gunrock/lb,0,1"}, {2, "fig2,0,gunrock/lb,0,1,0.010,x"}, {2, `fig2,0,"gunrock/lb,0,1,0.010`},
		{2, "fig2,-2,gunrock/lb,0,1,0.010"}, {2, "fig2,0,gunrock/lb,0,,0.010"}, {2, "fig2,0,gunrock/lb,0,1,"},
	} {
		ls := strings.Split(timingsCSV, "\n")
		ls[row.line-1] = row.text
		add(fmt.Sprintf("csv row %d %s", i, row.text), one("bad.csv", strings.Join(ls, "\n")),
			fmt.Sprintf("bad.csv:%d:", row.line), csvArgs("bad.csv")...)
	}
	add("csv no header", one("bad.csv", ""), "bad.csv:1:", csvArgs("bad.csv")...)
	add("csv level gap", one("bad.csv", strings.ReplaceAll(timingsCSV, "fig2,0,gunrock/lb,1,", "fig2,0,gunrock/lb,3,")),
		"bad.csv:", csvArgs("bad.csv")...)
	for _, m := range []struct{ spec, want string }{
		{"graph=GraphName,impl=impl", "--map"},
		{"graph=GraphName,impl=impl,time=nope", "--map"},
		{"graph=GraphName,impl=impl,time=ms,color=red", "--map"},
		{"graph=GraphName,impl=impl,time_parsecs=ms", "--map"},
		{"graph=GraphName,graph=src,impl=impl,time=ms", "--map"},
		{"graph,impl=impl,time=ms", "--map"},
		{"", "--map"},
	} {
		// Other bytes than the stored timings.csv, or it is "already stored".
		add("csv mapping "+m.spec, one("t.csv", timingsCSV+"\n"), m.want,
			"bench", "ingest", "--db", "s.db", "--csv", "t.csv", "--map", m.spec, "--time-unit", "ms")
	}
	add("csv bad time unit", one("t.csv", timingsCSV), "--time-unit",
		"bench", "ingest", "--db", "s.db", "--csv", "t.csv", "--map", csvTimingsMap, "--time-unit", "parsecs")
	add("csv no time unit", one("t.csv", timingsCSV), "--map",
		"bench", "ingest", "--db", "s.db", "--csv", "t.csv", "--map", csvTimingsMap)
	add("csv unit twice", one("t.csv", timingsCSV), "--time-unit",
		"bench", "ingest", "--db", "s.db", "--csv", "t.csv", "--map", strings.Replace(csvTimingsMap, "time=", "time_us=", 1), "--time-unit", "ms")
	add("map without csv", one("x.jsonl", fig2JSONL), "--map", "bench", "ingest", "--db", "s.db", "--map", csvTimingsMap, "x.jsonl")

	// Ingest and data flags.
	add("ingest without db", one("x.jsonl", fig2JSONL), "--db", "bench", "ingest", "x.jsonl")
	add("ingest missing file", nil, "missing.jsonl", "bench", "ingest", "--db", "s.db", "missing.jsonl")
	add("ingest source of two files", map[string]string{"a.jsonl": fig2JSONL, "b.jsonl": fig2JSONL}, "--source",
		"bench", "ingest", "--db", "s.db", "--source", "x", "a.jsonl", "b.jsonl")
	add("ingest bad manifest", map[string]string{"x.jsonl": fig2JSONL, "manifest.json": "{"}, "manifest.json",
		"bench", "ingest", "--db", "s.db", "--manifest", "manifest.json", "x.jsonl")
	add("ingest missing manifest", one("x.jsonl", fig2JSONL), "--manifest",
		"bench", "ingest", "--db", "s.db", "--manifest", "none.json", "x.jsonl")
	add("ingest ncu without graph", one("n.csv", "x"), "--ncu", "bench", "ingest", "--db", "s.db", "--ncu", "n.csv")
	add("ingest graph without ncu", one("x.jsonl", fig2JSONL), "--graph", "bench", "ingest", "--db", "s.db", "--graph", "fig2", "x.jsonl")
	add("ingest ncu bad root", one("n.csv", "x"), "--root",
		"bench", "ingest", "--db", "s.db", "--ncu", "n.csv", "--graph", "fig2", "--root", "x")
	notStore := map[string]string{"notdb.db": "hello, not a database\n", "x.jsonl": fig2JSONL}
	for _, args := range [][]string{
		{"data", "list", "--db", "notdb.db"}, {"data", "query", "--db", "notdb.db"},
		{"data", "export", "--db", "notdb.db", "--table", "runs", "-o", "out.csv"},
		{"data", "delete", "--db", "notdb.db", "--source", "x"}, {"bench", "ingest", "--db", "notdb.db", "x.jsonl"},
	} {
		add("not a store "+args[1], notStore, "notdb.db is not a graphperf store", args...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"data", "query", "--db", "s.db", "--graph", "fig3"}, "--graph"},
		{[]string{"data", "query", "--db", "s.db", "--impl", "tpoo"}, "--impl"},
		{[]string{"data", "query", "--db", "s.db", "--columns", "graph,medain_ns"}, "--columns"},
		{[]string{"data", "query", "--db", "s.db", "--columns", "graph", "--json"}, "--columns"},
		{[]string{"data", "query", "--db", "s.db", "--root", "x"}, "--root"},
		{[]string{"data", "query", "--db", "s.db", "--json", "--csv"}, "--json"},
		{[]string{"data", "query", "--db", "missing.db"}, "--db"},
		{[]string{"data", "list", "--db", "s.db", "--json", "--csv"}, "--json"},
		{[]string{"data", "export", "--db", "s.db", "--table", "nope", "-o", "x.csv"}, "--table"},
		{[]string{"data", "export", "--db", "s.db", "--table", "runs"}, "-o"},
		{[]string{"data", "delete", "--db", "s.db", "--source", "fig3.jsonl"}, "--source"},
		{[]string{"data", "delete", "--db", "s.db"}, "--source"},
		{[]string{"data", "delete", "--source", "fig2.jsonl"}, "--db"},
		{[]string{"data", "delete", "--db", "missing.db", "--source", "fig2.jsonl"}, "--db"},
	} {
		add(strings.Join(c.args[:2], " ")+" "+strings.Join(c.args[3:], " "), nil, c.want, c.args...)
	}

	// Graph files no command has a meaning for, or malformed.
	graphFiles := []struct {
		name, text, want string
	}{
		{"empty.txt", "", "empty.txt: empty graph"},
		{"comments.txt", "# only\n# comments\n", "comments.txt: empty graph"},
		{"sparse.txt", "0 2147483648\n", "sparse.txt: vertex ids too sparse"},
		{"badline.txt", "0 1\nx 2\n", "badline.txt:2:"},
		{"negative.txt", "0 -1\n", "negative.txt:1:"},
		{"huge.txt", "0 4294967296\n", "huge.txt:1:"},
		{"onecol.txt", "0 1\n2\n", "onecol.txt:2:"},
	}
	graphCommands := [][]string{
		{"graph", "stats"}, {"graph", "levels"}, {"graph", "convert", "-o", "out.gpg"},
		{"graph", "reorder", "--order", "random", "-o", "out.gpg"}, {"graph", "roots"}, {"sim", "bfs"}, {"sim", "cpu"},
		{"model", "om", "--root", "0", "--simulate"}, {"model", "workload", "--algo", "bfs"},
	}
	for _, f := range graphFiles {
		for _, c := range graphCommands {
			add(strings.Join(c[:2], " ")+" "+f.name, one(f.name, f.text), f.want, append(slices.Clone(c), f.name)...)
		}
	}
	// Degenerate graphs that are graphs, with a flag they cannot meet.
	iso := "# Nodes: 1 Edges: 0\n"
	loops := "0 0\n1 1\n2 2\n"
	for _, c := range [][]string{{"graph", "levels"}, {"sim", "bfs"}, {"sim", "cpu"}, {"model", "workload", "--algo", "bfs"}} {
		add(strings.Join(c[:2], " ")+" isolated root 1", one("iso.txt", iso), "--root", append(slices.Clone(c), "--root", "1", "iso.txt")...)
		add(strings.Join(c, " ")+" loops root 3", one("loops.txt", loops), "--root", append(slices.Clone(c), "--root", "3", "loops.txt")...)
	}
	add("roots of an isolated vertex", one("iso.txt", iso), "-k", "graph", "roots", "iso.txt")
	add("roots of self-loops", one("loops.txt", loops), "-k", "graph", "roots", "-k", "4", "loops.txt")

	// Flags.
	fig2 := one("fig2.txt", mustRead("testdata/fig2.txt"))
	for _, root := range []string{"-1", "abc", "99", "4294967296", "1.5", "random5"} {
		for _, c := range [][]string{{"graph", "levels"}, {"sim", "bfs"}, {"sim", "cpu"}} {
			add(strings.Join(c, " ")+" --root "+root, fig2, "--root", append(slices.Clone(c), "--root", root, "fig2.txt")...)
		}
	}
	for _, c := range [][]string{
		{"graph", "stats"}, {"graph", "levels"}, {"graph", "convert"}, {"graph", "roots"}, {"graph", "reorder"},
		{"graph", "gen", "rmat"}, {"sim", "bfs"}, {"sim", "cpu"}, {"model", "om"}, {"model", "workload"},
		{"data", "list"}, {"data", "query"}, {"data", "export"}, {"data", "delete"}, {"bench", "ingest"},
		{"model", "roofline"}, {"tree", "train"},
	} {
		add(strings.Join(c, " ")+" --bogus", fig2, "-bogus", append(slices.Clone(c), "--bogus", "fig2.txt")...)
	}
	for _, c := range [][]string{{"graph", "stats"}, {"graph", "levels"}, {"graph", "roots"}, {"sim", "bfs"}, {"sim", "cpu"}} {
		add(strings.Join(c, " ")+" --json --csv", fig2, "--json", append(slices.Clone(c), "--json", "--csv", "fig2.txt")...)
		add(strings.Join(c, " ")+" --format", fig2, "--format", append(slices.Clone(c), "--format", "xml", "fig2.txt")...)
	}
	add("convert without -o", fig2, "-o", "graph", "convert", "fig2.txt")
	add("convert unknown extension", fig2, "out.bin", "graph", "convert", "fig2.txt", "-o", "out.bin")
	add("convert into missing directory", fig2, "nodir/out.gpg", "graph", "convert", "fig2.txt", "-o", "nodir/out.gpg")
	add("reorder without -o", fig2, "-o", "graph", "reorder", "--order", "random", "fig2.txt")
	add("reorder unknown order", fig2, "--order", "graph", "reorder", "--order", "sideways", "-o", "o.gpg", "fig2.txt")
	add("roots -k 0", fig2, "-k", "graph", "roots", "-k", "0", "fig2.txt")
	add("sim bfs unknown kernel", fig2, "--kernel", "sim", "bfs", "--kernel", "nope", "fig2.txt")
	add("sim bfs unknown machine", fig2, "--machine", "sim", "bfs", "--machine", "nope", "fig2.txt")
	for _, g := range []struct {
		args []string
		want string
	}{
		{[]string{"rmat", "--scale", "0"}, "--scale"}, {[]string{"rmat", "--scale", "40"}, "--scale"},
		{[]string{"rmat", "--edge-factor", "0"}, "--edge-factor"}, {[]string{"rmat", "--a", "0.9", "--b", "0.3"}, "--a"},
		{[]string{"rmat", "--a", "-0.1"}, "--a"}, {[]string{"er", "--n", "0", "--m", "3"}, "--n"},
		{[]string{"ws", "--n", "10", "--k", "3"}, "--k"}, {[]string{"ws", "--n", "10", "--k", "4", "--p", "2"}, "--p"},
		{[]string{"ba", "--n", "10", "--attach", "0"}, "--attach"}, {[]string{"road", "--rows", "0"}, "--rows"},
		{[]string{"road", "--remove", "1.5"}, "--remove"}, {[]string{"config", "--dist", "powerlaw", "--alpha", "-1"}, "--alpha"},
		{[]string{"config", "--dist", "normal", "--sigma", "-1"}, "--sigma"}, {[]string{"config", "--dist", "zipf"}, "--dist"},
		{[]string{"ws", "--scale", "3"}, "--scale"}, {[]string{"rmat", "--scale", "x"}, "-scale"},
	} {
		add("gen "+strings.Join(g.args, " "), nil, g.want, append([]string{"graph", "gen"}, append(g.args, "-o", "g.gpg")...)...)
	}
	add("gen without -o", nil, "-o", "graph", "gen", "rmat", "--scale", "4")

	// Machine files: YAML errors name the line at fault.
	h100 := mustRead("../../model/machine/machines/h100.yaml")
	at := 0
	for i, l := range strings.Split(h100, "\n") {
		if strings.HasPrefix(l, "schedulers_per_sm:") {
			at = i + 1
		}
	}
	for _, text := range []string{"schedulers_per_sm: [4", "\tschedulers_per_sm: 4", "  schedulers_per_sm: 4",
		"schedulers_per_sm: 4: 4", "schedulers_per_sm", "schedulers_per_sm: four", "schedulers_pr_sm: 4", "sms: 2"} {
		ls := strings.Split(h100, "\n")
		ls[at-1] = text
		add("machine "+text, one("m.yaml", strings.Join(ls, "\n")), fmt.Sprintf("m.yaml:%d:", at),
			"model", "machine", "show", "m.yaml")
	}
	add("machine empty", one("m.yaml", ""), "m.yaml", "model", "machine", "show", "m.yaml")
	add("sim bfs machine file", map[string]string{"m.yaml": "name: [x\n", "fig2.txt": mustRead("testdata/fig2.txt")},
		"--machine", "sim", "bfs", "--machine", "m.yaml", "fig2.txt")

	// la analyze: a results directory's bad line, no results directory,
	// two directories timing one graph, bad flags.
	laLine := `{"type":"total","graph":"g.gpg","n":4,"m":8,"root":0,"impl":"bfs-push","algorithm":"bfs","verified":true,"reps":3,"median_ns":10}`
	add("la analyze bad timed line", one("r/timed/g.la.jsonl", laLine+"\n{\"type\":\n"), "r/timed/g.la.jsonl:2", "la", "analyze", "r")
	add("la analyze no results", one("r/x.txt", ""), "r: no timed/*.la.jsonl", "la", "analyze", "r")
	add("la analyze timed twice", map[string]string{"r/timed/g.la.jsonl": laLine + "\n", "q/timed/g.la.jsonl": laLine + "\n"},
		"graph g timed twice", "la", "analyze", "r,q")
	add("la analyze unknown table", one("r/timed/g.la.jsonl", laLine+"\n"), "--table", "la", "analyze", "--table", "nope", "r")
	// A bad --table is named before any input is read, --json or not.
	add("la analyze unknown table first", nil, `--table "nope": want points, groups`, "la", "analyze", "--table", "nope", "missing")
	add("la analyze unknown table json", nil, `--table "nope"`, "la", "analyze", "--json", "--table", "nope", "missing")
	add("la analyze vertex-centric", one("r/timed/g.la.jsonl", laLine+"\n"), "--vertex-centric", "la", "analyze", "--vertex-centric", "nope", "r")
	add("la analyze embedded", nil, "embedded:nope", "la", "analyze", "embedded:nope")
	// la ingest: no store, no results directory, a bad timed line (the
	// store's parser names the file and line).
	add("la ingest no db", one("r/timed/g.la.jsonl", laLine+"\n"), "--db", "la", "ingest", "r")
	add("la ingest no results", one("r/x.txt", ""), "not a measure-la.sh directory", "la", "ingest", "--db", "s.db", "r")
	add("la ingest bad timed line", one("r/timed/g.la.jsonl", "{\"type\":\n"), "g.la.jsonl:1", "la", "ingest", "--db", "s.db", "r")
	return cs
}

// goSpeak matches what a user should never read: Go package prefixes of
// sentinel errors, encoding/json's Go types, hidden temporary files, raw
// SQLite messages.
var goSpeak = regexp.MustCompile(`Go struct|json: cannot|\.tmp|uint32|\(26\)|file is not a database|` +
	`(^|: )(store|graph|warp|order|props|gen|kernels|roofline|machine): `)

// TestBadInputs runs every bad input: each must fail as main would exit 1
// (an error, no panic), with a message naming its file:line or flag, and
// leave the store byte-identical and the directory without new files.
func TestBadInputs(t *testing.T) {
	cases := badInputs()
	if len(cases) < 150 {
		t.Errorf("%d bad inputs, want at least 150", len(cases))
	}
	template := filepath.Join(t.TempDir(), "s.db")
	db, err := store.Open(template)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "d", nil); err != nil {
		t.Fatal(err)
	}
	m, err := store.ParseCSVMapping(strings.Replace(csvTimingsMap, "time=", "time_ms=", 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.IngestCSV(csvTimings, m, "d"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	storeBytes, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("two cases named %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if err := os.WriteFile("s.db", storeBytes, 0o644); err != nil {
				t.Fatal(err)
			}
			for name, text := range c.files {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := listDir(t)
			stderr, err := runNoPanic(t, c.args)
			if err == nil {
				t.Fatalf("%v: exit 0, want 1\n%s", c.args, stderr)
			}
			if m := goSpeak.FindString(stderr); m != "" {
				t.Errorf("%v: the message speaks Go (%q):\n%s", c.args, m, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("%v: the message does not name %q:\n%s", c.args, c.want, stderr)
			}
			if !strings.HasPrefix(stderr, "graphperf: ") && !strings.Contains(stderr, "\ngraphperf: ") {
				t.Errorf("%v: no \"graphperf: \" error line:\n%s", c.args, stderr)
			}
			if b, err := os.ReadFile("s.db"); err != nil || !bytes.Equal(b, storeBytes) {
				t.Errorf("%v: the store changed (%v)", c.args, err)
			}
			if after := listDir(t); !slices.Equal(before, after) {
				t.Errorf("%v: files %v, were %v", c.args, after, before)
			}
		})
	}
}

// runNoPanic runs the command as main would and returns its stderr with
// the error line; a panic (exit 2) fails the test.
func runNoPanic(t *testing.T, args []string) (stderr string, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%v: panic (exit 2): %v\n%s", args, p, debug.Stack())
		}
	}()
	_, stderr, err = runCLI(t, args...)
	return stderr, err
}

func listDir(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDegenerateGraphs: one isolated vertex and self-loops only are graphs:
// every command that reads a graph runs on them from the default root
// (max), without a panic.
func TestDegenerateGraphs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"iso.txt": "# Nodes: 1 Edges: 0\n", "loops.txt": "0 0\n1 1\n2 2\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range files {
		path := filepath.Join(dir, name)
		for _, c := range [][]string{
			{"graph", "stats"}, {"graph", "levels"}, {"graph", "roots", "--max"}, {"sim", "bfs"}, {"sim", "cpu"},
			{"graph", "convert", "-o", filepath.Join(dir, name+".gpg")}, {"model", "workload", "--algo", "bfs"},
		} {
			args := append(slices.Clone(c), path)
			if stderr, err := runNoPanic(t, args); err != nil {
				t.Errorf("%v: %v\n%s", args, err, stderr)
			}
		}
	}
}
