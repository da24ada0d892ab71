package notebook

import _ "embed"

// Default is the embedded default notebook that "graphperf report" runs
// without arguments: the story of the embedded H100 dataset.
//
//go:embed default.md
var Default []byte

// DefaultName is how a report names the default notebook among its inputs.
const DefaultName = "default notebook (embedded)"
