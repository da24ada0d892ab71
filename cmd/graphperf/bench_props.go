package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

func benchProps(e *env, args []string) error {
	fs := newFlagSet(e, "props", "bench props --corpus FILE [--graphs DIR] [--manifest FILE [--measured]] [--only NAMES] [--base FILE] -o OUT.json.gz",
		`Build every graph of a corpus exactly as "bench sweep" does (same seed and
build options), compute its properties (those of "graph stats --json") and
write them, in corpus order, as one gzipped JSON document:
{"corpus", "corpus_sha256", "graphs": [{"name", "vertices", ...}, ...]}.
--manifest checks each graph's n and m against a sweep's manifest.json and
fails on a mismatch, proving the measured graphs were rebuilt; with
--measured only the corpus graphs the manifest holds are built (a corpus
measured over several sessions). --base FILE adds to an earlier output:
its graphs that are not built now are kept, and the result is in corpus
order. One progress line per graph goes to stderr. The output is written
atomically.`)
	corpusPath := fs.String("corpus", "", "the corpus file, or a comma-separated list of the corpora measured into one results directory (required)")
	graphsDir := fs.String("graphs", "", "the directory of the corpus's file graphs")
	manifest := fs.String("manifest", "", "a sweep's manifest.json to check n and m against")
	sel := addGraphSelection(fs)
	out := fs.String("o", "", "the output file, gzipped JSON (required)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	switch {
	case *corpusPath == "":
		return fmt.Errorf("--corpus: a corpus file is required")
	case *out == "":
		return fmt.Errorf("-o: an output file is required")
	}
	c, err := kernels.LoadCorpora(*corpusPath)
	if err != nil {
		return err
	}
	var man *kernels.Manifest
	if *manifest != "" {
		if man, err = kernels.ReadManifest(*manifest); err != nil {
			return err
		}
	}
	if c.Graphs, err = sel.apply(c, man); err != nil {
		return err
	}
	if *graphsDir == "" {
		for _, g := range c.Graphs {
			if g.File != "" {
				return fmt.Errorf("--graphs: the graphs to build include file graphs (%s); give the directory that holds them", g.Name)
			}
		}
	}
	doc, err := kernels.CorpusProps(c, *graphsDir, man, e.stderr)
	if err != nil {
		return err
	}
	if *sel.base != "" {
		base, err := kernels.ReadPropsFile(*sel.base)
		if err != nil {
			return fmt.Errorf("--base: %w", err)
		}
		if doc, err = kernels.MergeProps(sel.full, base, doc); err != nil {
			return fmt.Errorf("--base %s: %w", *sel.base, err)
		}
	}
	if err := kernels.WritePropsFile(*out, doc); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s: %d graphs\n", *out, len(doc.Graphs))
	return nil
}

// graphSelection is the flags "bench props" and "bench levels" share to
// choose the corpus graphs they build and to add to an earlier output.
type graphSelection struct {
	only     *string
	measured *bool
	base     *string
	full     *kernels.Corpus // the corpus before selection (apply sets it)
}

func addGraphSelection(fs *flag.FlagSet) *graphSelection {
	return &graphSelection{
		only:     fs.String("only", "", "only these graphs (comma-separated names), in corpus order"),
		measured: fs.Bool("measured", false, "only the graphs the --manifest holds (a corpus measured over several sessions)"),
		base:     fs.String("base", "", "an earlier output whose graphs not built now are kept"),
	}
}

// apply returns the graphs of c to build, and keeps c as it was in full.
func (s *graphSelection) apply(c *kernels.Corpus, man *kernels.Manifest) ([]kernels.Graph, error) {
	full := *c
	s.full = &full
	graphs := c.Graphs
	if *s.only != "" {
		var err error
		if graphs, err = c.Select(strings.Split(*s.only, ",")); err != nil {
			return nil, fmt.Errorf("--only: %w", err)
		}
	}
	if *s.measured {
		if man == nil {
			return nil, fmt.Errorf("--measured: needs --manifest")
		}
		sub := *c
		sub.Graphs = graphs
		graphs = sub.Measured(man)
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("no graph to build (--only %q, --measured %v)", *s.only, *s.measured)
	}
	return graphs, nil
}
