package dist

import (
	"fmt"
	"strconv"
	"strings"
)

// SeedWeakRow is one row of seed 003's weak-scaling table ("Sort-Unique
// BFS: weak scaling analysis"; "figures are for third-level of BFS"):
// times in seconds, NLFS and NLFS-after-SU in vertices, of one process.
type SeedWeakRow struct {
	Scale, Procs      int
	KernelS, MPIS     float64
	NLFS, NLFSAfterSU int64
}

// SeedWeakScaling is seed 003's weak-scaling table as printed.
var SeedWeakScaling = []SeedWeakRow{
	{21, 1, 0.68, 0.0, 37651259, 1043789},
	{22, 2, 0.85, 0.1, 37906934, 1678486},
	{23, 4, 0.85, 0.4, 37739872, 2688755},
	{24, 8, 0.85, 0.5, 58416610, 4502903},
	{25, 16, 0.9, 0.6, 45334918, 5519616},
	{26, 32, 0.95, 0.7, 58863642, 8703456},
	{27, 64, 1.01, 0.9, 42174869, 9316248},
}

// SeedLevel is the level seed 003's weak-scaling table is for.
const SeedLevel = 3

// SeedMessage is one message of seed 003's "Network pattern" list for
// SCALE 20, N_P = 4: Printed as the slides print it ("1.6MB", "588").
type SeedMessage struct {
	Level, Src, Dst int
	Printed         string
}

// Bytes reads Printed with KB = 10^3 and MB = 10^6 bytes (the slides do not
// say which; 1024-based units change the values by 2.4 % and 4.9 %).
func (m SeedMessage) Bytes() float64 {
	s := m.Printed
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "MB"):
		mult, s = 1e6, strings.TrimSuffix(s, "MB")
	case strings.HasSuffix(s, "KB"):
		mult, s = 1e3, strings.TrimSuffix(s, "KB")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("dist: seed message %q: %v", m.Printed, err)) // a typo in the table below
	}
	return x * mult
}

// SeedMessages is seed 003's list for SCALE 20, N_P = 4, in its order.
// Level 6 lists 11 messages: 1 -> 0 is missing from the slide.
var SeedMessages = func() []SeedMessage {
	text := `1 0 1 64; 1 0 2 64; 1 0 3 64;
2 1 0 588; 2 2 0 256; 2 3 0 268KB; 2 0 1 576; 2 2 1 192; 2 3 1 263KB; 2 0 2 576; 2 1 2 5.8KB; 2 3 2 261KB; 2 0 3 576; 2 1 3 5.9KB; 2 2 3 192;
3 1 0 1.0MB; 3 2 0 1.6MB; 3 3 0 1.6MB; 3 0 1 1.6MB; 3 2 1 1.6MB; 3 3 1 1.6MB; 3 0 2 1.6MB; 3 1 2 1.6MB; 3 3 2 1.6MB; 3 0 3 1.6MB; 3 1 3 1.6MB; 3 2 3 1.6MB;
4 1 0 1MB; 4 2 0 1MB; 4 3 0 1MB; 4 0 1 1MB; 4 2 1 1MB; 4 3 1 1MB; 4 0 2 1MB; 4 1 2 1MB; 4 3 2 1MB; 4 0 3 1MB; 4 1 3 1MB; 4 2 3 1MB;
5 1 0 128; 5 3 0 41KB; 5 2 0 41KB; 5 0 1 41KB; 5 2 1 41KB; 5 3 1 40KB; 5 1 2 41KB; 5 0 2 40KB; 5 3 2 42KB; 5 1 3 41KB; 5 0 3 41KB; 5 2 3 42KB;
6 3 0 128; 6 2 0 128; 6 0 1 128; 6 2 1 128; 6 3 1 128; 6 1 2 128; 6 0 2 128; 6 3 2 128; 6 1 3 192; 6 0 3 256; 6 2 3 128`
	var out []SeedMessage
	for _, rec := range strings.Split(text, ";") {
		f := strings.Fields(rec)
		if len(f) != 4 {
			panic("dist: bad seed message record " + rec)
		}
		l, _ := strconv.Atoi(f[0])
		s, _ := strconv.Atoi(f[1])
		d, _ := strconv.Atoi(f[2])
		out = append(out, SeedMessage{l, s, d, f[3]})
	}
	return out
}()

// TableRow is one (scale, P) row of the weak-scaling reproduction: level
// SeedLevel's NLFS (m_p) and NLFS after sort-unique (n_p) of process 0, the
// largest and the mean over the processes, in vertices, beside the seed's
// printed values for the same scale and P (zero where the seed has none).
type TableRow struct {
	Scale, Procs int
	Level        int
	Root         uint32
	NLFS0        int64   `json:"nlfs_proc0"`
	NLFSMax      int64   `json:"nlfs_max"`
	NLFSMean     float64 `json:"nlfs_mean"`
	Unique0      int64   `json:"nlfs_su_proc0"`
	UniqueMax    int64   `json:"nlfs_su_max"`
	UniqueMean   float64 `json:"nlfs_su_mean"`
	// Cut is 1 - Σn_p/Σm_p, the share of NLFS entries sort-unique removes
	// (the seed: "cuts ≃ 90 %").
	Cut float64 `json:"cut"`
	// SeedNLFS and SeedNLFSAfterSU are the seed's values, 0 if none.
	SeedNLFS        int64 `json:"seed_nlfs"`
	SeedNLFSAfterSU int64 `json:"seed_nlfs_su"`
}

// Table returns the rows of run for every process count it was traversed
// for, at level (seed numbering; 0 means SeedLevel, -1 the peak level,
// PeakLevel). A BFS shorter than level gives zero counts. The seed's values
// are beside the rows of its (scale, P) at level 3 and at the peak level.
func Table(run *Run, level int) []TableRow {
	if level == 0 {
		level = SeedLevel
	}
	peak := level < 0
	var rows []TableRow
	for _, v := range run.Volumes {
		if peak {
			level = PeakLevel(v)
		}
		r := TableRow{Scale: run.Scale, Procs: v.Procs, Level: level, Root: v.Root}
		if level <= len(v.Levels) {
			l := v.Levels[level-1]
			var sumM, sumU int64
			for p, pl := range l.Procs {
				if p == 0 {
					r.NLFS0, r.Unique0 = pl.EdgesScanned, pl.NLFSUnique
				}
				r.NLFSMax, r.UniqueMax = max(r.NLFSMax, pl.EdgesScanned), max(r.UniqueMax, pl.NLFSUnique)
				sumM += pl.EdgesScanned
				sumU += pl.NLFSUnique
			}
			r.NLFSMean, r.UniqueMean = float64(sumM)/float64(v.Procs), float64(sumU)/float64(v.Procs)
			if sumM > 0 {
				r.Cut = 1 - float64(sumU)/float64(sumM)
			}
		}
		for _, s := range SeedWeakScaling {
			if s.Scale == run.Scale && s.Procs == v.Procs && (level == SeedLevel || peak) {
				r.SeedNLFS, r.SeedNLFSAfterSU = s.NLFS, s.NLFSAfterSU
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// PeakLevel returns the level whose frontier has the most out-edges (the
// largest total NLFS; the same for every process count): seed 003's "sharp
// peak at level 3" is its graph's peak, which is a different level on
// another graph instance or from another root.
func PeakLevel(v *Volumes) int {
	best, bestEdges := 0, int64(-1)
	for _, l := range v.Levels {
		var e int64
		for _, p := range l.Procs {
			e += p.EdgesScanned
		}
		if e > bestEdges {
			best, bestEdges = l.Level, e
		}
	}
	return best
}
