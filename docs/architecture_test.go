// Package docs_test keeps docs/ARCHITECTURE.md true: its package map
// against the packages of the repository and their imports, and its
// checklists against the files and names they mention.
package docs_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const (
	module   = "github.com/graphperf/graphperf/"
	archFile = "ARCHITECTURE.md"
	root     = ".."
)

// stageOrder is the data flow of ARCHITECTURE.md: a package may import
// packages of its stage or an earlier one. Stage "test" may import any
// stage but cmd.
var stageOrder = []string{"base", "workload", "simulate", "measure", "model", "analysis", "reports", "cmd"}

var (
	mapRow       = regexp.MustCompile("^\\| `([a-z0-9/]+)` \\| ([a-z]+) \\| (.+) \\|$")
	exceptionRow = regexp.MustCompile("^- `([a-z0-9/]+)` -> `([a-z0-9/]+)`$")
	// mention is a backticked repository path, optionally followed by
	// ": `Name`".
	mention = regexp.MustCompile("`((?:[a-z0-9_]+/)+[A-Za-z0-9_.-]+)`(?::\\s*`([A-Za-z_][A-Za-z0-9_]*)`)?")
)

// architecture is what the test reads from ARCHITECTURE.md.
type architecture struct {
	stages     map[string]string // package -> stage
	exceptions map[[2]string]bool
	checklist  string // the text of the Checklists section
}

func readArchitecture(t *testing.T) *architecture {
	t.Helper()
	f, err := os.Open(archFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := &architecture{stages: map[string]string{}, exceptions: map[[2]string]bool{}}
	var section string
	var checklist strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		switch section {
		case "Package map":
			if m := mapRow.FindStringSubmatch(line); m != nil {
				if _, dup := a.stages[m[1]]; dup {
					t.Errorf("%s: %s is in the package map twice", archFile, m[1])
				}
				a.stages[m[1]] = m[2]
			}
			if m := exceptionRow.FindStringSubmatch(line); m != nil {
				a.exceptions[[2]string{m[1], m[2]}] = true
			}
		case "Checklists":
			checklist.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	a.checklist = checklist.String()
	if len(a.stages) == 0 || a.checklist == "" {
		t.Fatalf("%s: no package map or no checklists", archFile)
	}
	return a
}

// packages returns the package directories of the repository (those with
// a non-test Go file outside testdata) and the repository packages each
// one's non-test files import.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		dir = filepath.ToSlash(dir)
		if _, ok := pkgs[dir]; !ok {
			pkgs[dir] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, module); ok && !slices.Contains(pkgs[dir], dep) {
				pkgs[dir] = append(pkgs[dir], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestPackageMap checks that the package map lists every package of the
// repository, and only those, each in a known stage.
func TestPackageMap(t *testing.T) {
	a := readArchitecture(t)
	pkgs := packages(t)
	for dir := range pkgs {
		if _, ok := a.stages[dir]; !ok {
			t.Errorf("package %s is not in the package map of %s", dir, archFile)
		}
	}
	for p, stage := range a.stages {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("%s names package %s, which does not exist", archFile, p)
		}
		if stage != "test" && !slices.Contains(stageOrder, stage) {
			t.Errorf("%s: package %s: unknown stage %q (want one of %s, test)", archFile, p, stage, strings.Join(stageOrder, ", "))
		}
	}
}

// TestImportOrder checks that no package imports one of a later stage,
// but for the exceptions listed, and that every exception listed is still
// one (so the list shrinks as the code is fixed).
func TestImportOrder(t *testing.T) {
	a := readArchitecture(t)
	rank := func(stage string) int {
		if stage == "test" {
			return len(stageOrder) - 2 // anything but cmd
		}
		return slices.Index(stageOrder, stage)
	}
	seen := map[[2]string]bool{}
	pkgs := packages(t)
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		from, ok := a.stages[p]
		if !ok {
			continue // TestPackageMap reports it
		}
		for _, dep := range pkgs[p] {
			to, ok := a.stages[dep]
			if !ok || rank(to) <= rank(from) {
				continue
			}
			if a.exceptions[[2]string{p, dep}] {
				seen[[2]string{p, dep}] = true
				continue
			}
			t.Errorf("%s (stage %s) imports %s (stage %s, later in the data flow)", p, from, dep, to)
		}
	}
	for e := range a.exceptions {
		if !seen[e] {
			t.Errorf("%s lists %s -> %s as an exception, but it no longer is one: remove it", archFile, e[0], e[1])
		}
	}
}

// TestChecklists checks that every path the checklists mention exists
// and that every name given after one (`path`: `Name`) is declared there:
// at the top level of a Go file (a method counts by its name), or as text
// in any other file.
func TestChecklists(t *testing.T) {
	a := readArchitecture(t)
	matches := mention.FindAllStringSubmatch(a.checklist, -1)
	if len(matches) < 10 {
		t.Fatalf("%s: only %d paths in the checklists", archFile, len(matches))
	}
	for _, m := range matches {
		path, name := m[1], m[2]
		full := filepath.Join(root, filepath.FromSlash(path))
		if _, err := os.Stat(full); err != nil {
			t.Errorf("%s: checklist names %s: %v", archFile, path, err)
			continue
		}
		if name == "" {
			continue
		}
		if !declares(t, full, name) {
			t.Errorf("%s: checklist names %s in %s, which does not declare it", archFile, name, path)
		}
	}
}

// declares reports whether the file at path declares name.
func declares(t *testing.T, path, name string) bool {
	t.Helper()
	if !strings.HasSuffix(path, ".go") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(data), name)
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
