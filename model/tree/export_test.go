package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// exportTree is a tree with awkward names (quotes, backslashes, a
// newline, a comment terminator, non-ASCII, '?') and thresholds that need
// all 17 digits, for the export tests.
func exportTree(t *testing.T) (*Classifier, [][]float64) {
	t.Helper()
	X, y, w := levelData(3000, 5)
	nf := len(levelFeatures)
	classes := append([]string(nil), implementations...)
	classes[0] = `push "warp" \ 32`
	classes[1] = "pull\nrow */ ??="
	features := append([]string(nil), levelFeatures...)
	features[0] = "vertices (ñ)"
	for i := range nf {
		X[i] += 1.0 / 3 // thresholds like 12.833333333333334
	}
	c, err := FitFlat(X, nf, y, w, classes, features, Params{MaxDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	test := cachedLevelData(500, 6)
	inputs := rows(test.X, nf)
	// Inputs exactly at thresholds exercise <= against >.
	for i := range c.Nodes[:min(len(c.Nodes), 50)] {
		if n := c.Nodes[i]; n.Feature >= 0 {
			x := append([]float64(nil), inputs[i]...)
			x[n.Feature] = n.Threshold
			inputs = append(inputs, x)
		}
	}
	return c, inputs
}

func TestJSONRoundTrip(t *testing.T) {
	c, inputs := exportTree(t)
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Classifier
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, &back) {
		t.Errorf("round trip differs:\n%v\n%v", c, &back)
	}
	for _, x := range inputs {
		if c.Predict(x) != back.Predict(x) {
			t.Fatalf("prediction differs for %v", x)
		}
	}
}

// TestJSONSchema pins the stored form of the tree of TestHandComputedSplits
// at depth 1: a change here breaks files written by earlier versions, so it
// needs a new JSONVersion.
func TestJSONSchema(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}, {5}, {6}}
	y := []int{0, 0, 0, 1, 0, 1}
	c, err := Fit(X, y, nil, []string{"a", "b"}, []string{"x"}, Params{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
 "format": "graphperf.tree",
 "version": 1,
 "classes": [
  "a",
  "b"
 ],
 "features": [
  "x"
 ],
 "params": {
  "max_depth": 1,
  "min_samples_leaf": 1,
  "min_samples_split": 2,
  "min_impurity_decrease": 0,
  "max_features": 0,
  "seed": 0
 },
 "nodes": [
  {
   "feature": 0,
   "threshold": 3.5,
   "left": 1,
   "right": 2,
   "class": 0,
   "samples": 6,
   "weight": 6,
   "impurity": 0.4444444444444444,
   "counts": [
    4,
    2
   ]
  },
  {
   "feature": -1,
   "threshold": 0,
   "left": -1,
   "right": -1,
   "class": 0,
   "samples": 3,
   "weight": 3,
   "impurity": 0,
   "counts": [
    3,
    0
   ]
  },
  {
   "feature": -1,
   "threshold": 0,
   "left": -1,
   "right": -1,
   "class": 1,
   "samples": 3,
   "weight": 3,
   "impurity": 0.4444444444444444,
   "counts": [
    1,
    2
   ]
  }
 ]
}`
	if string(data) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", data, want)
	}
}

func TestJSONWithoutStats(t *testing.T) {
	data := `{"format": "graphperf.tree", "version": 1, "classes": ["a", "b"], "features": ["x"],
		"nodes": [{"feature": 0, "threshold": 2, "left": 1, "right": 2, "class": 0},
		          {"feature": -1, "left": -1, "right": -1, "class": 0},
		          {"feature": -1, "left": -1, "right": -1, "class": 1}]}`
	var c Classifier
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		t.Fatal(err)
	}
	if c.Stats != nil || c.Predict([]float64{2}) != 0 || c.Predict([]float64{2.5}) != 1 {
		t.Errorf("stats %v, predictions %d %d", c.Stats, c.Predict([]float64{2}), c.Predict([]float64{2.5}))
	}
	if p := c.Probabilities([]float64{3}, nil); p[1] != 1 {
		t.Errorf("Probabilities without stats = %v", p)
	}
}

func TestJSONErrors(t *testing.T) {
	leaf := `{"feature": -1, "left": -1, "right": -1, "class": 0}`
	tree := func(nodes ...string) string {
		return `{"format": "graphperf.tree", "version": 1, "classes": ["a"], "features": ["x"], "nodes": [` +
			strings.Join(nodes, ",") + `]}`
	}
	for name, data := range map[string]string{
		"not JSON":         `{`,
		"wrong format":     `{"format": "other", "version": 1, "classes": ["a"], "nodes": [` + leaf + `]}`,
		"wrong version":    `{"format": "graphperf.tree", "version": 2, "classes": ["a"], "nodes": [` + leaf + `]}`,
		"no classes":       `{"format": "graphperf.tree", "version": 1, "nodes": [` + leaf + `]}`,
		"no nodes":         tree(),
		"child backwards":  tree(`{"feature": 0, "left": 0, "right": 1}`, leaf),
		"child outside":    tree(`{"feature": 0, "left": 1, "right": 3}`, leaf, leaf),
		"same child":       tree(`{"feature": 0, "left": 1, "right": 1}`, leaf),
		"two parents":      tree(`{"feature": 0, "left": 1, "right": 2}`, `{"feature": 0, "left": 2, "right": 3}`, leaf, leaf),
		"orphan":           tree(leaf, leaf),
		"feature range":    tree(`{"feature": 1, "left": 1, "right": 2}`, leaf, leaf),
		"feature negative": tree(`{"feature": -2, "left": -1, "right": -1}`),
		"class range":      tree(`{"feature": -1, "left": -1, "right": -1, "class": 1}`),
		"leaf children":    tree(`{"feature": -1, "left": 1, "right": -1}`, leaf),
		"counts length":    tree(`{"feature": -1, "left": -1, "right": -1, "counts": [1, 2]}`),
		"negative count":   tree(`{"feature": -1, "left": -1, "right": -1, "counts": [-1]}`),
		"bad params":       strings.Replace(tree(leaf), `"nodes"`, `"params": {"max_depth": -1}, "nodes"`, 1),
	} {
		var c Classifier
		if err := c.UnmarshalJSON([]byte(data)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

// FuzzUnmarshalJSON: whatever UnmarshalJSON accepts, Predict walks to a
// leaf and the tree survives another round trip.
func FuzzUnmarshalJSON(f *testing.F) {
	X := [][]float64{{1, 0}, {2, 1}, {3, 0}, {4, 1}, {5, 0}, {6, 1}}
	c, err := Fit(X, []int{0, 0, 0, 1, 0, 1}, nil, nil, nil, Params{})
	if err != nil {
		f.Fatal(err)
	}
	data, err := c.MarshalJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"format": "graphperf.tree", "version": 1, "classes": ["a"], "nodes": [{"feature": -1, "left": -1, "right": -1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Classifier
		if c.UnmarshalJSON(data) != nil {
			return
		}
		x := make([]float64, len(c.Features))
		for _, v := range []float64{-1e300, 0, 3.5, 1e300} {
			for i := range x {
				x[i] = v
			}
			if k := c.Predict(x); k < 0 || k >= len(c.Classes) {
				t.Fatalf("class %d of %d", k, len(c.Classes))
			}
		}
		c.Importances()
		again, err := c.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back Classifier
		if err := back.UnmarshalJSON(again); err != nil {
			t.Fatalf("re-read: %v", err)
		}
	})
}

// TestWriteGo parses the generated source and, unless -short, builds and
// runs it in a temporary module to check that it predicts as Predict does.
func TestWriteGo(t *testing.T) {
	c, inputs := exportTree(t)
	var src bytes.Buffer
	if err := c.WriteGo(&src, "main", "PredictImpl"); err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "tree.go", src.Bytes(), parser.AllErrors); err != nil {
		t.Fatalf("generated Go does not parse: %v\n%s", err, src.Bytes())
	}
	for _, bad := range [][2]string{{"main", "func"}, {"2x", "F"}, {"main", "a-b"}, {"main", "_"}} {
		if err := c.WriteGo(&bytes.Buffer{}, bad[0], bad[1]); !errors.Is(err, ErrName) {
			t.Errorf("WriteGo(%q, %q): err = %v, want ErrName", bad[0], bad[1], err)
		}
	}
	if testing.Short() {
		t.Skip("building generated Go takes a second or two")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module generated\n\ngo 1.21\n")
	write("tree.go", src.String())
	var main strings.Builder
	main.WriteString("package main\n\nimport \"fmt\"\n\nvar inputs = [][]float64{\n")
	for _, x := range inputs {
		main.WriteString("\t{")
		for f, v := range x {
			if f > 0 {
				main.WriteString(", ")
			}
			main.WriteString(formatFloat(v))
		}
		main.WriteString("},\n")
	}
	main.WriteString("}\n\nfunc main() {\n\tfor _, x := range inputs {\n\t\tfmt.Println(PredictImpl(x))\n\t}\n\tfmt.Println(PredictImplClasses[0], len(PredictImplFeatures))\n}\n")
	write("main.go", main.String())
	cmd := exec.Command(goTool, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	checkPredictions(t, c, inputs, string(out), c.Classes[0]+" "+strconv.Itoa(len(c.Features)))
}

// checkPredictions compares a program's output, one class index per input
// and then a last line, with Predict.
func checkPredictions(t *testing.T, c *Classifier, inputs [][]float64, out, last string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(inputs)+1 {
		t.Fatalf("%d lines of output for %d inputs:\n%s", len(lines), len(inputs), out)
	}
	for i, x := range inputs {
		if want := strconv.Itoa(c.Predict(x)); lines[i] != want {
			t.Errorf("input %d: exported tree says %s, Predict %s", i, lines[i], want)
		}
	}
	if lines[len(inputs)] != last {
		t.Errorf("names: %q, want %q", lines[len(inputs)], last)
	}
}

// TestWriteC compiles the header with a small main, as C (gcc -std=c99) and
// as C++ (g++, as CUDA host code is), with warnings as errors, and checks
// its predictions against Predict. Skipped when the compiler is missing.
func TestWriteC(t *testing.T) {
	c, inputs := exportTree(t)
	var header bytes.Buffer
	if err := c.WriteC(&header, "bfs_model"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "int", "2x", "a b", "class"} {
		if err := c.WriteC(&bytes.Buffer{}, bad); !errors.Is(err, ErrName) {
			t.Errorf("WriteC(%q): err = %v, want ErrName", bad, err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bfs_model.h"), header.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var main strings.Builder
	main.WriteString("#include <stdio.h>\n#include \"bfs_model.h\"\n\n")
	fmt.Fprintf(&main, "static const double inputs[%d][BFS_MODEL_NUM_FEATURES] = {\n", len(inputs))
	for _, x := range inputs {
		main.WriteString("\t{")
		for f, v := range x {
			if f > 0 {
				main.WriteString(", ")
			}
			main.WriteString(formatFloat(v))
		}
		main.WriteString("},\n")
	}
	fmt.Fprintf(&main, "};\n\nint main(void)\n{\n\tint i;\n\tfor (i = 0; i < %d; i++)\n", len(inputs))
	main.WriteString("\t\tprintf(\"%d\\n\", bfs_model_predict(inputs[i]));\n")
	main.WriteString("\tprintf(\"%s %d\\n\", bfs_model_classes[0], (int)(sizeof bfs_model_features / sizeof bfs_model_features[0]));\n")
	main.WriteString("\treturn 0;\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := false
	for _, compiler := range [][]string{
		{"gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2"},
		{"g++", "-x", "c++", "-Wall", "-Wextra", "-Werror", "-O2"},
	} {
		path, err := exec.LookPath(compiler[0])
		if err != nil {
			t.Logf("%s not found", compiler[0])
			continue
		}
		exe := filepath.Join(dir, "main-"+compiler[0])
		args := append(compiler[1:], "-o", exe, filepath.Join(dir, "main.c"))
		if out, err := exec.Command(path, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s\n%s", compiler[0], err, out, header.String())
		}
		out, err := exec.Command(exe).Output()
		if err != nil {
			t.Fatal(err)
		}
		checkPredictions(t, c, inputs, string(out), c.Classes[0]+" "+strconv.Itoa(len(c.Features)))
		ran = true
	}
	if !ran {
		t.Skip("no C compiler")
	}
	// A translation unit that only includes the header must compile
	// without warnings about the unused tables.
	if gcc, err := exec.LookPath("gcc"); err == nil {
		unit := filepath.Join(dir, "unused.c")
		if err := os.WriteFile(unit, []byte("#include \"bfs_model.h\"\nint unused(void);\nint unused(void) { return 0; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(gcc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "-o", filepath.Join(dir, "unused.o"), unit).CombinedOutput(); err != nil {
			t.Errorf("header alone: %v\n%s", err, out)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -2.5, 1.0 / 3, 1e300, 5e-324, 12345678901234567890, 0.1} {
		s := formatFloat(v)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != v || !strings.ContainsAny(s, ".e") {
			t.Errorf("formatFloat(%v) = %q", v, s)
		}
	}
}
