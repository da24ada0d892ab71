package gpu

import "github.com/graphperf/graphperf/simulate/warp"

// ServerRecord is one server's jobs and traffic in a LevelRecord.
type ServerRecord struct {
	Jobs              int64 `json:"jobs"`
	L2Transactions    int64 `json:"l2_transactions"`
	L2Hits            int64 `json:"l2_hits"`
	L2Misses          int64 `json:"l2_misses"`
	DRAMReads         int64 `json:"dram_reads"`
	RowHits           int64 `json:"row_hits"`
	RowMisses         int64 `json:"row_misses"`
	WriteTransactions int64 `json:"write_transactions"`
	WriteHits         int64 `json:"write_hits"`
	WriteMisses       int64 `json:"write_misses"`
}

// LevelRecord is a Level as "graphperf sim bfs --json" prints it: the
// servers by name, those without jobs or traffic left out.
type LevelRecord struct {
	Level             int                     `json:"level"`
	Jobs              map[string]int64        `json:"jobs"`
	JobsTotal         int64                   `json:"jobs_total"`
	L2Transactions    int64                   `json:"l2_transactions"`
	L2Hits            int64                   `json:"l2_hits"`
	L2Misses          int64                   `json:"l2_misses"`
	DRAMReads         int64                   `json:"dram_reads"`
	RowHits           int64                   `json:"row_hits"`
	RowMisses         int64                   `json:"row_misses"`
	WriteTransactions int64                   `json:"write_transactions"`
	WriteHits         int64                   `json:"write_hits"`
	WriteMisses       int64                   `json:"write_misses"`
	DRAMWrites        int64                   `json:"dram_writes"`
	WMax              int64                   `json:"w_max"`
	LoadEstimate      float64                 `json:"load_estimate"`
	Servers           map[string]ServerRecord `json:"servers"`
}

// Record is lv as a LevelRecord.
func (lv *Level) Record() LevelRecord {
	o := LevelRecord{Level: lv.Level, Jobs: map[string]int64{}, JobsTotal: lv.JobsTotal,
		L2Transactions: lv.L2Transactions, L2Hits: lv.L2Hits, L2Misses: lv.L2Misses,
		DRAMReads: lv.DRAMReads, RowHits: lv.RowHits, RowMisses: lv.RowMisses,
		WriteTransactions: lv.WriteTransactions, WriteHits: lv.WriteHits, WriteMisses: lv.WriteMisses,
		DRAMWrites: lv.DRAMWrites, WMax: lv.WMax, LoadEstimate: lv.LoadEstimate, Servers: map[string]ServerRecord{}}
	for srv := range warp.NumServers {
		if lv.Jobs[srv] == 0 && lv.Servers[srv] == (Traffic{}) {
			continue
		}
		t := lv.Servers[srv]
		o.Jobs[srv.String()] = lv.Jobs[srv]
		o.Servers[srv.String()] = ServerRecord{lv.Jobs[srv], t.L2Transactions, t.L2Hits, t.L2Misses, t.DRAMReads,
			t.RowHits, t.RowMisses, t.WriteTransactions, t.WriteHits, t.WriteMisses}
	}
	return o
}

// Records is every level of r as a LevelRecord.
func (r *Result) Records() []LevelRecord {
	out := make([]LevelRecord, len(r.Levels))
	for i := range r.Levels {
		out[i] = r.Levels[i].Record()
	}
	return out
}
