package notebook

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const sample = "# Title\n" + // line 1
	"\n" +
	"Intro text.\n" + // line 3
	"\n" +
	"```graphperf\n" + // line 5
	"graph stats --json 'my graph.gpg'\n" +
	"```\n" +
	"Between.\n" + // line 8
	"\n" +
	"~~~~ graphperf extra\n" + // line 10
	"model om \\\n" +
	"  --machine h100\n" +
	"~~~~\n" +
	"\n" +
	"```go\n" + // line 15: not a cell
	"x := 1\n" +
	"```\n" +
	"\n" +
	"    ```graphperf\n" + // line 19: indented code block, not a cell
	"    nope\n" +
	"    ```\n" +
	"\n" +
	"<div>\n" + // line 23: HTML block, the fence inside is not a cell
	"```graphperf\n" +
	"nope\n" +
	"```\n" +
	"</div>\n" +
	"\n" +
	"```graphperf\n" + // line 29: unterminated, runs to the end
	"data list\n"

func TestParse(t *testing.T) {
	nb, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	type blk struct {
		Line  int
		Prose string
		Args  []string
	}
	var got []blk
	for _, b := range nb.Blocks {
		x := blk{Line: b.Line, Prose: b.Prose}
		if b.Cell != nil {
			x.Args = b.Cell.Args
		}
		got = append(got, x)
	}
	want := []blk{
		{Line: 1, Prose: "# Title\n\nIntro text.\n\n"},
		{Line: 5, Args: []string{"graph", "stats", "--json", "my graph.gpg"}},
		{Line: 8, Prose: "Between.\n\n"},
		{Line: 10, Args: []string{"model", "om", "--machine", "h100"}},
		{Line: 15, Prose: sample[strings.Index(sample, "```go"):strings.LastIndex(sample, "```graphperf\ndata")]},
		{Line: 29, Args: []string{"data", "list"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks:\n got %+v\nwant %+v", got, want)
	}
	cells := nb.Cells()
	if len(cells) != 3 || cells[2].Index != 2 || cells[1].Command() != "graphperf model om --machine h100" {
		t.Errorf("cells = %+v", cells)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"empty", "text\n\n```graphperf\n```\n", 3, "empty"},
		{"only graphperf", "```graphperf\ngraphperf\n```\n", 1, "empty"},
		{"comment only", "```graphperf\n# nothing\n```\n", 1, "empty"},
		{"unterminated single", "a\n\n```graphperf\nsim bfs \\\n  'x\n```\n", 5, "unterminated single quote"},
		{"unterminated double", "```graphperf\nsim \"x\ny\n```\n", 2, "unterminated double quote"},
		{"two commands", "```graphperf\ndata list\ndata query\n```\n", 3, "more than one command"},
		{"in list", "- item\n\n  ```graphperf\n  data list\n  ```\n", 3, "top level"},
		{"in quote", "> ```graphperf\n> data list\n> ```\n", 1, "top level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("err = %v, want line %d containing %q", err, tc.line, tc.msg)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a b\tc", []string{"a", "b", "c"}},
		{"  a   ", []string{"a"}},
		{`'a b' "c d"`, []string{"a b", "c d"}},
		{`'it'\''s'`, []string{"it's"}},
		{`"a\"b\\c\d\$"`, []string{`a"b\c\d$`}},
		{`a\ b \'`, []string{"a b", "'"}},
		{`'' ""`, []string{"", ""}},
		{"a\\\nb c\\\n d", []string{"ab", "c", "d"}},
		{"# comment\n\na b # trailing\n\n# more\n", []string{"a", "b"}},
		{"a#b", []string{"a#b"}},
		{`'$HOME' *.gpg`, []string{"$HOME", "*.gpg"}},
		{"\"multi\nline\"", []string{"multi\nline"}},
		{"héllo 'wörld'", []string{"héllo", "wörld"}},
	} {
		got, err := Split(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	for _, in := range []string{`a \`, `'a`, `"a`, "a\nb", `"a\"`} {
		if args, err := Split(in); err == nil {
			t.Errorf("Split(%q) = %q, want error", in, args)
		}
	}
}

func TestQuoteRoundTrip(t *testing.T) {
	args := []string{"plain", "", "a b", "it's", `"q"`, "$x", "a\nb", "<script>alert(1)</script>&", "--x=1"}
	got, err := Split(Quote(args))
	if err != nil || !reflect.DeepEqual(got, args) {
		t.Errorf("Split(Quote(%q)) = %q, %v", args, got, err)
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a 'b c' \"d\\\"e\"", "x\\\ny", "#c\nz", "'", "\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := Split(s)
		if err != nil {
			return
		}
		again, err := Split(Quote(args))
		if err != nil || !reflect.DeepEqual(again, args) && !(len(args) == 0 && len(again) == 0) {
			t.Fatalf("Split(Quote(%q)) = %q, %v", args, again, err)
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("- x\n  ```graphperf\n  a\n  ```\n")
	f.Fuzz(func(t *testing.T, s string) {
		nb, err := Parse([]byte(s))
		if err != nil {
			return
		}
		for _, c := range nb.Cells() {
			if len(c.Args) == 0 || c.Line < 1 {
				t.Fatalf("bad cell %+v", c)
			}
		}
	})
}

func TestRun(t *testing.T) {
	nb, err := Parse([]byte("```graphperf\nok 1\n```\n```graphperf\nfail\n```\n```graphperf\npanic\n```\n```graphperf\nok 2\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	results := Run(nb, func(args []string) (Output, error) {
		ran = append(ran, strings.Join(args, " "))
		switch args[0] {
		case "fail":
			return Output{}, errors.New("boom")
		case "panic":
			panic("oops")
		}
		return Output{Text: args[1]}, nil
	})
	if want := []string{"ok 1", "fail", "panic", "ok 2"}; !reflect.DeepEqual(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
	if len(results) != 4 || results[0].Err != nil || results[0].Output.Text != "1" ||
		results[1].Err == nil || results[2].Err == nil || results[3].Err != nil || results[3].Output.Text != "2" {
		t.Errorf("results = %+v", results)
	}
	err = Err(results)
	if err == nil || !strings.Contains(err.Error(), "cell 2 (line 4): boom") || !strings.Contains(err.Error(), "panic: oops") {
		t.Errorf("Err = %v", err)
	}
	if Err(results[:1]) != nil {
		t.Error("Err of successes is not nil")
	}
}

func ExampleParse() {
	nb, err := Parse([]byte("# Levels\n\n```graphperf\ngraph levels 'road usa.gpg' --json\n```\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range nb.Blocks {
		if b.Cell != nil {
			fmt.Printf("line %d: cell %q\n", b.Line, b.Cell.Args)
		} else {
			fmt.Printf("line %d: prose %q\n", b.Line, b.Prose)
		}
	}
	// Output:
	// line 1: prose "# Levels\n\n"
	// line 3: cell ["graph" "levels" "road usa.gpg" "--json"]
}

func ExampleRun() {
	nb, _ := Parse([]byte("```graphperf\ndata list\n```\n```graphperf\nmissing verb\n```\n"))
	results := Run(nb, func(args []string) (Output, error) {
		if args[0] != "data" {
			return Output{}, fmt.Errorf("unknown command %q", args[0])
		}
		return Output{Text: "3 runs"}, nil
	})
	for _, r := range results {
		fmt.Println(r.Cell.Command(), "->", r.Output.Text, r.Err)
	}
	fmt.Println(Err(results))
	// Output:
	// graphperf data list -> 3 runs <nil>
	// graphperf missing verb ->  unknown command "missing"
	// cell 2 (line 4): unknown command "missing"
}
