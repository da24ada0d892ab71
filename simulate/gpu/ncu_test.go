package gpu

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/ncu"
	"github.com/graphperf/graphperf/simulate/warp"
)

var (
	ncuCompare = flag.Bool("ncu", false, "TestNCU compares topo's simulated load instructions and memory traffic with kernels/measured/h100/ncu (regenerates the graphs: minutes, several GB)")
	ncuOnly    = flag.String("ncu-only", "", "TestNCU: only the graphs whose name matches this `regexp`")
)

// ncuDir holds the ncu profiles of k_topo, one NAME.csv.gz (or NAME.csv)
// and NAME.log per corpus graph; ncuCorpus names the graphs.
const (
	ncuDir    = "../../kernels/measured/h100/ncu"
	ncuCorpus = "../../kernels/corpus/h100-bfs.yaml"
	// ncuGraphs holds the SNAP files of the corpus's file graphs.
	ncuGraphs = "../../../shared/graphs"
)

// The ncu metrics TestNCU reads.
const (
	ncuLoads     = "smsp__inst_executed_op_global_ld.sum"
	ncuStores    = "smsp__inst_executed_op_global_st.sum"
	ncuL1Sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
	ncuL1Hits    = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
	ncuL2Read    = "lts__t_sectors_srcunit_tex_op_read.sum"
	ncuDRAMRead  = "dram__sectors_read.sum"
	ncuDRAMWrite = "dram__sectors_write.sum"
)

// ncuLog reads the root and the edge count of a profiled traversal from
// ncu_topo.sh's log: "... from root R -> ..." and "...: n=N m=M ...".
func ncuLog(path string) (root uint32, edges int64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	r := regexp.MustCompile(`from root (\d+)`).FindSubmatch(data)
	m := regexp.MustCompile(` m=(\d+) `).FindSubmatch(data)
	if r == nil || m == nil {
		return 0, 0, fmt.Errorf("%s: no root or edge count", path)
	}
	r64, err := strconv.ParseUint(string(r[1]), 10, 32)
	if err != nil {
		return 0, 0, err
	}
	edges, err = strconv.ParseInt(string(m[1]), 10, 64)
	return uint32(r64), edges, err
}

// TestNCU prints, with -ncu -v, the tables of docs/ACCURACY.md that put
// the simulation of topology-driven BFS beside Nsight Compute's counters of
// k_topo on the H100, per graph and level, for every profile in
// kernels/measured/h100/ncu whose graph it can rebuild (the corpus entry,
// as a sweep builds it; the log's root and edge count, checked). The
// simulation runs as ncu measured: nvcc's unrolling (warp.NVCCUnroll), and
// an L2 and row buffers emptied before every level (ColdLevels: ncu
// --cache-control all flushes the caches before each profiled launch).
//
// The simulation has the H100's per-SM L1s (DefaultGeometry().L1, block b on SM b mod
// 132), so C_L2 is the L1 misses, as ncu's L2 read sectors are.
//
// It asserts what TestMeasuredCounters in simulate/warp asserts on small
// graphs: the load and store instructions and the L1 load sectors of every
// level equal ncu's. The memory traffic is only printed: L1 hits, L2
// reads, DRAM reads and writes, simulated and measured.
func TestNCU(t *testing.T) {
	if !*ncuCompare {
		t.Skip("run with -ncu")
	}
	corpus, err := kernels.LoadCorpus(ncuCorpus)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(ncuDir, "*.csv*"))
	if len(files) == 0 {
		t.Skip("no ncu profiles in " + ncuDir)
	}
	only := regexp.MustCompile(*ncuOnly)
	var summary strings.Builder
	summary.WriteString("| graph | root | levels | loads: ncu | simulated (nvcc unroll) | levels exact | seed 000 §6.3 / ncu | L1 load sectors exact | stores exact | L1 hit share: ncu | sim | L1 hits: sim / ncu | L2 reads: sim / ncu | DRAM reads: sim / ncu | DRAM writes: ncu | sim |\n")
	summary.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".gz"), ".csv")
		if !only.MatchString(name) {
			continue
		}
		cg, ok := corpus.Graph(name)
		if !ok {
			t.Logf("%s: not in %s, skipped", name, ncuCorpus)
			continue
		}
		root, edges, err := ncuLog(filepath.Join(ncuDir, name+".log"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		g, err := kernels.BuildGraph(cg, ncuGraphs)
		if err != nil {
			t.Logf("%s: %v, skipped", name, err)
			continue
		}
		if g.NumEdges() != edges {
			t.Errorf("%s: %d edges, the profiled graph had %d", name, g.NumEdges(), edges)
			continue
		}
		res, err := Simulate(g, root, Config{Kernel: "topo", ColdLevels: true, L1: DefaultGeometry().L1, Warp: warp.Config{Unroll: warp.NVCCUnroll}})
		if err != nil {
			t.Fatal(err)
		}
		seed000, err := warp.Run(g, root, warp.Config{Kernel: "topo"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var metrics []ncu.Metric
		for _, m := range []string{ncuLoads, ncuStores, ncuL1Sectors, ncuL1Hits, ncuL2Read, ncuDRAMRead, ncuDRAMWrite} {
			metrics = append(metrics, ncu.Metric{Name: m, Kind: ncu.Count})
		}
		launches, err := ncu.Read(f, file, metrics...)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		levels := res.Levels
		if n := len(levels); n == len(launches)+1 && len(res.Warp.Levels[n-1].Launches) == 0 {
			levels = levels[:n-1] // a last frontier without out-edges launches nothing
		}
		levelsNote := fmt.Sprint(len(launches))
		switch {
		case len(launches) < len(levels):
			// ncu_topo.sh's --launch-count profiles the first launches only.
			levelsNote = fmt.Sprintf("first %d of %d", len(launches), len(levels))
			t.Logf("%s: ncu profiled the first %d of %d levels", name, len(launches), len(levels))
		case len(launches) > len(levels):
			t.Errorf("%s: %d ncu launches, %d simulated levels", name, len(launches), len(levels))
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s, root %d:\n\n", name, root)
		b.WriteString("| level | loads: ncu | sim | seed 000 §6.3 | L1 load sectors: ncu | sim | L1 hits: ncu | sim | L2 read sectors: ncu | sim C_L2 | DRAM reads: ncu | sim | DRAM writes: ncu | sim |\n")
		b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		var ncuLd, simLd, seedLd, ncuRd, simRd, ncuWr, simWr, ncuSec, ncuHit, simHit, ncuL2, simL2 float64
		exactLd, exactSec, exactSt := 0, 0, 0
		for i, l := range launches {
			lv, m := levels[i], l.Metrics
			ld := res.Warp.Levels[i].Op(warp.Load)
			seedJobs := seed000.Levels[i].Op(warp.Load).Jobs
			if float64(ld.Jobs) == m[ncuLoads] {
				exactLd++
			} else {
				t.Errorf("%s level %d: %d load instructions, ncu %.0f", name, i, ld.Jobs, m[ncuLoads])
			}
			if float64(ld.Sectors) == m[ncuL1Sectors] {
				exactSec++
			} else {
				t.Errorf("%s level %d: %d L1 load sectors, ncu %.0f", name, i, ld.Sectors, m[ncuL1Sectors])
			}
			if st := res.Warp.Levels[i].Op(warp.Store).Jobs; float64(st) == m[ncuStores] {
				exactSt++
			} else {
				t.Errorf("%s level %d: %d store instructions, ncu %.0f", name, i, st, m[ncuStores])
			}
			ncuLd += m[ncuLoads]
			simLd += float64(ld.Jobs)
			seedLd += float64(seedJobs)
			ncuRd += m[ncuDRAMRead]
			simRd += float64(lv.DRAMReads)
			ncuWr += m[ncuDRAMWrite]
			simWr += float64(lv.DRAMWrites)
			ncuSec += m[ncuL1Sectors]
			ncuHit += m[ncuL1Hits]
			simHit += float64(lv.L1Hits)
			ncuL2 += m[ncuL2Read]
			simL2 += float64(lv.L2Transactions)
			fmt.Fprintf(&b, "| %d | %.0f | %d | %d | %.0f | %d | %.0f | %d | %.0f | %d | %.0f | %d | %.0f | %d |\n", lv.Level,
				m[ncuLoads], ld.Jobs, seedJobs, m[ncuL1Sectors], ld.Sectors, m[ncuL1Hits], lv.L1Hits, m[ncuL2Read], lv.L2Transactions,
				m[ncuDRAMRead], lv.DRAMReads, m[ncuDRAMWrite], lv.DRAMWrites)
		}
		t.Log("\n" + b.String())
		fmt.Fprintf(&summary, "| %s | %d | %s | %.0f | %.0f | %d of %d | %.3f | %d of %d | %d of %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.0f |\n",
			name, root, levelsNote, ncuLd, simLd, exactLd, len(launches), seedLd/ncuLd, exactSec, len(launches),
			exactSt, len(launches), ncuHit/ncuSec, simHit/ncuSec, ratio(simHit, ncuHit), ratio(simL2, ncuL2), ratio(simRd, ncuRd), ncuWr, simWr)
	}
	t.Log("\n" + summary.String())
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
