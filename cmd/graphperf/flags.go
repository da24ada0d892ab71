package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
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
// [minArgs, maxArgs] (maxArgs < 0: no limit).
func parse(fs *flag.FlagSet, args []string, minArgs, maxArgs int) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) { // the flag package has printed Usage
				return nil, errHelpShown
			}
			return nil, err
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
