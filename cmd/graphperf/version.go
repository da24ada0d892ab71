package main

import (
	"runtime/debug"
	"sync"

	"github.com/graphperf/graphperf/reports/bundle"
)

// buildCommit is the commit graphperf was built from (bundle.ReadCommit:
// the build's stamp, else the checkout's HEAD under go run), read once.
var buildCommit = sync.OnceValue(bundle.ReadCommit)

// version reports the module version ("(devel)" in a checkout) and the
// commit, "+dirty" when the tree had uncommitted changes: "(devel)
// 72af9ad0c1de+dirty", or "(devel) unknown" when neither the build nor a
// checkout says.
func version() string {
	v := "(unknown)"
	if info, ok := debug.ReadBuildInfo(); ok {
		v = info.Main.Version
	}
	return v + " " + buildCommit().Short()
}
