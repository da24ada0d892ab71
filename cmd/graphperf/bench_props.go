package main

import (
	"fmt"

	"github.com/graphperf/graphperf/kernels"
)

func benchProps(e *env, args []string) error {
	fs := newFlagSet(e, "props", "bench props --corpus FILE [--graphs DIR] [--manifest FILE] -o OUT.json.gz",
		`Build every graph of a corpus exactly as "bench sweep" does (same seed and
build options), compute its properties (those of "graph stats --json") and
write them, in corpus order, as one gzipped JSON document:
{"corpus", "corpus_sha256", "graphs": [{"name", "vertices", ...}, ...]}.
--manifest checks each graph's n and m against a sweep's manifest.json and
fails on a mismatch, proving the measured graphs were rebuilt. One progress
line per graph goes to stderr. The output is written atomically.`)
	corpusPath := fs.String("corpus", "", "the corpus file, or a comma-separated list of the corpora measured into one results directory (required)")
	graphsDir := fs.String("graphs", "", "the directory of the corpus's file graphs")
	manifest := fs.String("manifest", "", "a sweep's manifest.json to check n and m against")
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
	if *graphsDir == "" {
		for _, g := range c.Graphs {
			if g.File != "" {
				return fmt.Errorf("--graphs: the corpus has file graphs (%s); give the directory that holds them", g.Name)
			}
		}
	}
	var man *kernels.Manifest
	if *manifest != "" {
		if man, err = kernels.ReadManifest(*manifest); err != nil {
			return err
		}
	}
	doc, err := kernels.CorpusProps(c, *graphsDir, man, e.stderr)
	if err != nil {
		return err
	}
	if err := kernels.WritePropsFile(*out, doc); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s: %d graphs\n", *out, len(doc.Graphs))
	return nil
}
