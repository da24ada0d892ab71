package machine

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// embedded holds the machine files that ship with graphperf.
//
//go:embed machines/*.yaml
var embedded embed.FS

// Names returns the names of the embedded machines, sorted: h100, h200, k40c,
// p100, titanx, westmere.
func Names() []string {
	files, _ := fs.Glob(embedded, "machines/*.yaml")
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(path.Base(f), ".yaml")
	}
	sort.Strings(names)
	return names
}

// Lookup returns the embedded machine called name (case does not matter:
// "H100" is "h100"). Each call parses the file afresh, so the caller may
// change the result. The error wraps ErrUnknownMachine for a name that is
// not embedded.
func Lookup(name string) (*Machine, error) {
	base := strings.ToLower(name) + ".yaml"
	data, err := embedded.ReadFile("machines/" + base)
	if err != nil || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("%w %q (embedded: %s)", ErrUnknownMachine, name, strings.Join(Names(), ", "))
	}
	return Parse(data, base)
}

// List returns every embedded machine, sorted by name.
func List() ([]*Machine, error) {
	var ms []*Machine
	for _, n := range Names() {
		m, err := Lookup(n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// DefaultName is the machine the simulators and models assume when the
// caller gives none: the GPU the measured dataset comes from.
const DefaultName = "h100"

// Default returns the embedded DefaultName machine (h100.yaml), freshly
// parsed, so the caller may change it. It panics if the embedded file does
// not parse, a build error that TestEmbedded rules out.
func Default() *Machine {
	m, err := Lookup(DefaultName)
	if err != nil {
		panic(err)
	}
	return m
}

// EmbeddedFiles returns the embedded machine files by their path in the
// repository ("model/machine/machines/h100.yaml"), for a report's
// manifest. It reads each once.
func EmbeddedFiles() map[string][]byte {
	out := map[string][]byte{}
	files, _ := fs.Glob(embedded, "machines/*.yaml")
	for _, f := range files {
		if b, err := embedded.ReadFile(f); err == nil {
			out["model/machine/"+f] = b
		}
	}
	return out
}
