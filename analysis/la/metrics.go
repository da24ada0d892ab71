package la

import "github.com/graphperf/graphperf/kernels/ncu"

// MetricMap is one row of the mapping from seed 001's nvprof metrics
// (tables 4, 6-8, 10, 11; eq. 2-3) to what Nsight Compute calls them on
// sm_90. The names follow NVIDIA's nvprof-to-ncu metric comparison (Nsight
// Compute CLI, "Nvprof Transition Guide"); kernels/measure-ncu.sh and
// kernels/ncu already use the count metrics on the H100.
type MetricMap struct {
	Seed   string   // the seed's (nvprof) name
	NCU    []string // the ncu metrics it is computed from
	Unit   string   // the unit of the value analysis reports
	How    string   // how the value is formed from the ncu metrics
	Tables string   // where the seed uses it
}

// The ncu metric names graphperf-la is profiled with (kernels/measure-la.sh
// passes exactly Metrics()).
const (
	MInst         = "smsp__inst_executed.sum"                                       // warp instructions
	MThreadInst   = "smsp__thread_inst_executed.sum"                                // thread instructions
	MCyclesActive = "sm__cycles_active.avg"                                         // active cycles, mean over SMs
	MDuration     = "gpu__time_duration.sum"                                        // ns
	MDramRead     = "dram__sectors_read.sum"                                        // 32 B sectors
	MDramWrite    = "dram__sectors_write.sum"                                       // 32 B sectors
	MGldSectors   = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"                // gld_transactions
	MGstSectors   = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"                // gst_transactions
	MAtomSectors  = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"              // atomic transactions (atom)
	MRedSectors   = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"               // atomic transactions (red)
	MGldEff       = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct" // gld_efficiency
	MGstEff       = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct" // gst_efficiency
	MSharedEff    = "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct"    // shared_efficiency
	MSharedLd     = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"          // shared_load_transactions
	MSharedSt     = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"          // shared_store_transactions
	MSharedInst   = "smsp__inst_executed_op_shared_ld.sum"                          // shared load requests
	ML2GldBytes   = "lts__t_bytes_equiv_l1sectormiss_pipe_lsu_mem_global_op_ld.sum" // l2_global_load_bytes
	MWarps        = "smsp__warps_launched.sum"                                      // unique_warps_launched
)

// Mapping is the table of LINALG.md: every metric of seed 001 graphperf-la
// collects, its sm_90 ncu source, and its unit here.
var Mapping = []MetricMap{
	{"inst_executed", []string{MInst}, "warp instructions", "sum over launches", "eq. 2-3, table 9, fig. 4"},
	{"inst_executed_thread / 32", []string{MThreadInst}, "warp instructions", "thread instructions / 32 (eq. 2-3's form; inst_executed counts issued warp instructions, this only active threads)", "eq. 2-3"},
	{"ipc", []string{MInst, MCyclesActive}, "warp instructions per SM cycle", "Σ inst / (SMs · Σ sm__cycles_active.avg): per SM, as nvprof's ipc (transition tables quote it as sm__ or smsp__inst_executed.avg.per_cycle_active; computed from the counts so launches add up)", "table 6, 9"},
	{"run_time", []string{MDuration}, "ns", "sum over launches (the profiled pass's kernel time)", "eq. 2"},
	{"dram_read_transactions + dram_write_transactions", []string{MDramRead, MDramWrite}, "32 B transactions", "sum", "eq. 3"},
	{"gld_transactions", []string{MGldSectors}, "32 B sectors", "sum", "table 4, 7"},
	{"gst_transactions", []string{MGstSectors}, "32 B sectors", "sum", "table 4, 7"},
	{"atomic_transactions", []string{MAtomSectors, MRedSectors}, "32 B sectors", "sum of atom and red sectors (ncu's own mapping counts set accesses; sectors match gld/gst)", "table 4"},
	{"gld_throughput", []string{MGldSectors, MDuration}, "GB/s", "32 B · sectors / duration (ncu: l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second)", "table 7"},
	{"gst_throughput", []string{MGstSectors, MDuration}, "GB/s", "32 B · sectors / duration (ncu: l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second)", "table 7"},
	{"gld_efficiency", []string{MGldEff, MGldSectors}, "%", "per launch, weighted by its load sectors", "table 8, 10"},
	{"gst_efficiency", []string{MGstEff, MGstSectors}, "%", "per launch, weighted by its store sectors", "table 8, 10"},
	{"shared_efficiency", []string{MSharedEff, MSharedLd, MSharedSt}, "%", "per launch, weighted by its shared wavefronts", "table 8, 10"},
	{"shared_load_transactions", []string{MSharedLd}, "wavefronts", "sum", "table 4"},
	{"shared_store_transactions", []string{MSharedSt}, "wavefronts", "sum", "table 4"},
	{"shared_transactions_per_request", []string{MSharedLd, MSharedInst}, "wavefronts per request", "shared load wavefronts / shared load instructions (ncu has no direct counterpart)", "table 11"},
	{"l2_global_load_bytes", []string{ML2GldBytes}, "bytes", "sum", "table 11"},
	{"unique_warps_launched", []string{MWarps}, "warps", "sum", "table 11"},
}

// Metrics returns the distinct ncu metrics of Mapping in order, with their
// kinds: the --metrics list of kernels/measure-la.sh.
func Metrics() []ncu.Metric {
	var out []ncu.Metric
	seen := map[string]bool{}
	for _, m := range Mapping {
		for _, name := range m.NCU {
			if seen[name] {
				continue
			}
			seen[name] = true
			k := ncu.Count
			switch name {
			case MDuration:
				k = ncu.Time
			case MGldEff, MGstEff, MSharedEff:
				k = ncu.Percent
			}
			out = append(out, ncu.Metric{Name: name, Kind: k})
		}
	}
	return out
}
