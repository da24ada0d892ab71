//go:build gpdatadir

package measured

import (
	"io/fs"
	"os"
)

// DataDirEnv names the directory that holds the dataset folder (h100/) in a
// binary built with -tags gpdatadir (default: kernels/measured, relative to
// the working directory, i.e. a checkout's root).
//
// Such a binary is 31 MiB smaller and reads the dataset from a checkout; it
// exists for the GPU machine, where the checkout travels anyway and the
// copy's size limit would not hold the tree and a full binary together.
const DataDirEnv = "GRAPHPERF_DATA_DIR"

var files fs.FS = dirFS()

func dirFS() fs.FS {
	d := os.Getenv(DataDirEnv)
	if d == "" {
		d = "kernels/measured"
	}
	return os.DirFS(d)
}
