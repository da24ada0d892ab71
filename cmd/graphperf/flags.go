package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/graphperf/graphperf/analysis/store"
)

// errHelpShown is returned by parse when -h printed the help text.
var errHelpShown = errors.New("help shown")

// newFlagSet makes a FlagSet for "graphperf GROUP VERB" whose -h prints the
// usage line, the description and the flags to stdout.
func newFlagSet(e *env, name, usageLine, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "Usage: graphperf %s\n\n%s\n\nFlags:\n", usageLine, strings.TrimSpace(description))
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses flags that may come before or after the positional arguments
// ("stats --json g.txt" and "stats g.txt --json" both work; "--" ends flags)
// and returns the positional arguments. It checks their count against
// [minArgs, maxArgs] (maxArgs < 0: no limit). -h prints the help to
// stdout (errHelpShown); a bad flag is an error, which main prints to
// stderr, naming the flags nearest a mistyped one and no help text.
func parse(fs *flag.FlagSet, args []string, minArgs, maxArgs int) ([]string, error) {
	// The flag package calls Usage on every error; only -h shows it.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, errHelpShown
			}
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			positional = append(positional, args[1:]...)
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	if len(positional) < minArgs || (maxArgs >= 0 && len(positional) > maxArgs) {
		switch {
		case maxArgs == 0:
			return nil, fmt.Errorf("unexpected argument %q", positional[0])
		case minArgs == maxArgs:
			return nil, fmt.Errorf("want %d argument(s), got %d (-h for help)", minArgs, len(positional))
		case maxArgs < 0:
			return nil, fmt.Errorf("want at least %d argument(s), got %d (-h for help)", minArgs, len(positional))
		default:
			return nil, fmt.Errorf("want %d to %d arguments, got %d (-h for help)", minArgs, maxArgs, len(positional))
		}
	}
	return positional, nil
}

// isTerminal reports whether w is a terminal (progress bars go only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// flagError is the flag package's error err as the user reads it: a flag
// that fs does not define names the nearest ones it does ("flag provided
// but not defined: -jsn; did you mean --json?"); every error ends by
// pointing at -h.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		near := store.Nearest(strings.TrimLeft(name, "-"), names, 3)
		for i, n := range near {
			near[i] = "--" + n
		}
		msg = "unknown flag -" + name
		if len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		}
	}
	return fmt.Errorf("%s (-h for help)", msg)
}
