package latime

import (
	"io/fs"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/kernels/measured"
)

// EmbeddedSource is the H100 graphperf-la measurements of the repository
// (kernels/measured/h100/la, embedded).
func EmbeddedSource() (la.Source, error) {
	sub, err := fs.Sub(measured.FS(), "la")
	if err != nil {
		return la.Source{}, err
	}
	return la.Source{Name: measured.Prefix + "la", FS: sub}, nil
}
