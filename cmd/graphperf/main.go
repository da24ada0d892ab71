// Command graphperf explains and predicts the performance of graph programs
// (BFS, PageRank) on GPUs and CPUs. Run "graphperf help" for the commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "graphperf: %v\n", err)
		os.Exit(1)
	}
}

// command is one verb of a group: "graph stats".
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) error
}

// group is a set of verbs: "graph".
type group struct {
	name     string
	summary  string
	commands []command
}

// env carries what every command writes to.
type env struct {
	stdout, stderr io.Writer
	// interactive is true when stderr is a terminal: progress bars are shown.
	interactive bool
	// defaultDB is the store data commands read without --db ("" is the
	// embedded dataset's); graphperf report --db sets it for its cells.
	defaultDB string
}

func groups() []group {
	return []group{graphGroup(), benchGroup(), modelGroup(), simGroup(), dataGroup(), treeGroup(), predictGroup(), portGroup(), laGroup()}
}

// run is main without the process: it parses args and dispatches.
func run(stdout, stderr io.Writer, args []string) error {
	e := &env{stdout: stdout, stderr: stderr, interactive: isTerminal(stderr)}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			return run(stdout, stderr, append(args[1:], "-h"))
		}
		usage(stdout)
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "graphperf", version())
		return nil
	}
	if args[0] == "report" && !(len(args) > 1 && args[1] == "summary") {
		if err := reportCommand(e, args[1:]); err != nil && err != errHelpShown {
			return fmt.Errorf("report: %w", err)
		}
		return nil
	}
	return dispatch(e, args)
}

// dispatch runs "GROUP VERB ARGS..." in e.
func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		return errors.New("no command")
	}
	if args[0] == "report" {
		// "report summary" is a verb; "report" itself writes a bundle.
		if len(args) > 1 && args[1] == "summary" {
			if err := reportSummary(e, args[2:]); err != nil && err != errHelpShown {
				return fmt.Errorf("report summary: %w", err)
			}
			return nil
		}
		return errors.New("report cannot run inside a report")
	}
	for _, g := range groups() {
		if g.name != args[0] {
			continue
		}
		if len(args) == 1 || isHelp(args[1]) {
			groupUsage(e.stdout, g)
			return nil
		}
		for _, c := range g.commands {
			if c.name == args[1] {
				rest, err := resolveArgs(e, args[2:])
				if err != nil {
					return fmt.Errorf("%s %s: %w", g.name, c.name, err)
				}
				if err := c.run(e, rest); err != nil {
					if err == errHelpShown {
						return nil
					}
					return fmt.Errorf("%s %s: %w", g.name, c.name, err)
				}
				return nil
			}
		}
		var verbs []string
		for _, c := range g.commands {
			verbs = append(verbs, c.name)
		}
		return fmt.Errorf("%s: unknown command %q%s (run \"graphperf %s\" for its commands)", g.name, args[1], nearestHint(args[1], verbs), g.name)
	}
	names := []string{"report"}
	for _, g := range groups() {
		names = append(names, g.name)
	}
	return fmt.Errorf("unknown command %q%s (run \"graphperf help\" for the commands)", args[0], nearestHint(args[0], names))
}

func isHelp(s string) bool { return s == "-h" || s == "--help" || s == "-help" || s == "help" }

func usage(w io.Writer) {
	fmt.Fprint(w, `graphperf explains and predicts how graph programs (BFS, PageRank) perform on GPUs and CPUs.

Usage:
  graphperf <group> <command> [flags] [args]

Groups:
`)
	for _, g := range groups() {
		fmt.Fprintf(w, "  %-8s %s\n", g.name, g.summary)
	}
	fmt.Fprintf(w, "  %-8s %s\n", "report", "run a notebook (default: the embedded one) into an HTML/XLSX/LaTeX report bundle")
	fmt.Fprint(w, `
Run "graphperf <group>" for its commands and "graphperf <group> <command> -h" for flags.
`)
}

func groupUsage(w io.Writer, g group) {
	fmt.Fprintf(w, "graphperf %s: %s\n\nCommands:\n", g.name, g.summary)
	for _, c := range g.commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"graphperf %s <command> -h\" for its flags.\n", g.name)
}
