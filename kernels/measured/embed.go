//go:build !gpdatadir

package measured

import (
	"embed"
	"io/fs"
)

//go:embed h100/README.md h100/manifest.json h100/microbench.jsonl h100/graph-properties.json.gz h100/level-properties.json.gz
//go:embed h100/ncu-heldout/*.csv.gz h100/ncu-heldout/*.log h100/ncu-heldout/PROVENANCE.txt
//go:embed h100/*.jsonl.gz h100/ncu/*.csv.gz h100/ncu/*.log h100/ncu/PROVENANCE.txt h100/pagerank/manifest.json h100/pagerank/*.jsonl.gz
//go:embed h100/orderings/manifest.json h100/orderings/orderings.yaml h100/orderings/*.jsonl.gz
//go:embed h100/switch/README.md h100/switch/*/manifest.json h100/switch/*/*.switch.jsonl.gz h100/switch/*/*.decisions.txt
//go:embed h100/la/README.md h100/la/timed/*.la.jsonl.gz h100/la/ncu/*.ncu.jsonl.gz h100/la/ncu/*.csv.gz h100/la/call*/*.txt h100/la/call*/*.tsv h100/la/call*/*.log
//go:embed h200/README.md h200/manifest.json h200/microbench.jsonl h200/graph-properties.json.gz h200/level-properties.json.gz
//go:embed h200/*.jsonl.gz h200/ncu/*.csv.gz h200/ncu/*.log h200/ncu/PROVENANCE.txt h200/pagerank/manifest.json h200/pagerank/*.jsonl.gz
var embedded embed.FS

// files is the dataset: embedded in the binary (the default build).
var files fs.FS = embedded
