package dist

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/predict"
)

// DefaultIDBytes is the size of one vertex sent: the CUDA BFS
// (kernels/cuda/dist_bfs.cu) sends uint32 ids.
const DefaultIDBytes = 4

// countsBytes is the payload of the counts exchange per pair and level:
// two int64s, the vertices that will follow and the sender's frontier size
// (the termination test), as dist_bfs.cu sends them.
const countsBytes = 16

// Options selects what Model computes. The zero value gives volumes with
// sort-unique off and 4-byte ids, without times.
type Options struct {
	SortUnique bool
	// IDBytes is the bytes per vertex sent; 0 means DefaultIDBytes.
	IDBytes int
	// Machine gives the per-process kernel time (KernelNs); nil leaves the
	// times out.
	Machine *machine.Machine
	// AllToAll gives the exchange time; nil leaves the times out: times
	// need it and Machine or Kernel.
	AllToAll *AllToAll
	// Kernel, when set, replaces Machine's bandwidth bound as the
	// per-process kernel time (KernelFit, fitted on runs that are not
	// scored).
	Kernel *KernelFit
}

// Row is one level of a Prediction. Vertex counts are vertices, bytes are
// bytes, times milliseconds; the time fields are nil without an AllToAll.
type Row struct {
	Level      int   `json:"level"`
	Frontier   int64 `json:"frontier"`
	Discovered int64 `json:"discovered"`
	// NLFSMax and NLFSUniqueMax are the largest m_p and n_p over the
	// processes (seed 003's NLFS and NLFS-after-SU of the busiest one).
	NLFSMax       int64 `json:"nlfs_max"`
	NLFSUniqueMax int64 `json:"nlfs_unique_max"`
	// SentVertices and SentBytes are over all pairs p ≠ q.
	SentVertices int64 `json:"sent_vertices"`
	SentBytes    int64 `json:"sent_bytes"`
	// MaxPairBytes is the largest message; MaxOutBytes and MaxInBytes the
	// most one process sends and receives.
	MaxPairBytes int64 `json:"max_pair_bytes"`
	MaxOutBytes  int64 `json:"max_out_bytes"`
	MaxInBytes   int64 `json:"max_in_bytes"`
	// KernelMs is max_p of the per-process kernel time; CommMs the counts
	// and vertex exchanges; TotalMs their sum.
	KernelMs *float64 `json:"kernel_ms,omitempty"`
	CommMs   *float64 `json:"comm_ms,omitempty"`
	TotalMs  *float64 `json:"total_ms,omitempty"`
}

// Pair is one message: level, source, destination, vertices and bytes.
type Pair struct {
	Level    int   `json:"level"`
	Src      int   `json:"src"`
	Dst      int   `json:"dst"`
	Vertices int64 `json:"vertices"`
	Bytes    int64 `json:"bytes"`
}

// Prediction is Model's result.
type Prediction struct {
	Procs        int    `json:"procs"`
	Root         uint32 `json:"root"`
	SortUnique   bool   `json:"sort_unique"`
	IDBytes      int    `json:"id_bytes"`
	Vertices     int64  `json:"vertices"`
	Edges        int64  `json:"edges"`
	Reached      int64  `json:"reached"`
	EdgesReached int64  `json:"edges_reached"`
	DepthHash    string `json:"depth_hash"`
	Rows         []Row  `json:"levels"`
	Pairs        []Pair `json:"pairs,omitempty"`
	// SentBytes is over all levels and pairs.
	SentBytes int64 `json:"sent_bytes"`
	// Timed says whether the rows carry times; TotalMs then includes the
	// final counts-only exchange that finds every frontier empty, and
	// GTEPS is EdgesReached/2 (undirected edges in the reached component,
	// Graph500's count) per TotalMs.
	Timed    bool         `json:"timed"`
	TotalMs  *float64     `json:"total_ms,omitempty"`
	GTEPS    *float64     `json:"gteps,omitempty"`
	Machine  string       `json:"machine,omitempty"`
	AllToAll *AllToAllFit `json:"alltoall,omitempty"`
	Kernel   *KernelFit   `json:"kernel,omitempty"`
	Warnings []string     `json:"warnings"`
}

// ErrNeedAllToAll says why a Prediction has no times.
var ErrNeedAllToAll = errors.New("dist: times need a measured all-to-all (--alltoall FILE, written by kernels/measure-dist.sh); these are volumes only")

// Model turns one Volumes into the per-level table: volumes always, and
// with opt.Machine and opt.AllToAll the time of every level,
//
//	T_level = max_p T_kernel(p) + T_counts + T_vertices
//	T_kernel(p) = T_0 + B_p / β_DRAM                       (KernelNs)
//	T_counts = α + 16(P-1) / β                              (AllToAllFit.ExchangeUs)
//	T_vertices = α + max_p max(out_p, in_p) / β
//
// with T_0 the machine's level_overhead, β_DRAM its measured read
// bandwidth (the constants of model/predict's physical base time), B_p
// the bytes process p's kernels move (KernelBytes), out_p and in_p the
// bytes p sends and receives, α and β the measured all-to-all's; with
// opt.Kernel, T_kernel(p) = FixedUs + B_p / GBs instead. For P = 1
// there is no exchange. Without both, Warnings says times need a measured
// all-to-all. O(levels × P²).
func Model(v *Volumes, opt Options) (*Prediction, error) {
	idBytes := opt.IDBytes
	if idBytes == 0 {
		idBytes = DefaultIDBytes
	}
	if idBytes < 1 {
		return nil, fmt.Errorf("dist: %d bytes per vertex id: want at least 1", idBytes)
	}
	P := v.Procs
	pr := &Prediction{
		Procs: P, Root: v.Root, SortUnique: opt.SortUnique, IDBytes: idBytes,
		Vertices: v.Vertices, Edges: v.Edges, Reached: v.Reached, EdgesReached: v.EdgesReached,
		DepthHash: fmt.Sprintf("%016x", v.DepthHash), Warnings: []string{},
	}
	tm, err := newLevelTimer(P, opt, pr)
	if err != nil {
		return nil, err
	}
	var totalMs float64
	for i := range v.Levels {
		l := &v.Levels[i]
		r, pairs := levelRow(l, idBytes, opt.SortUnique)
		pr.Pairs = append(pr.Pairs, pairs...)
		pr.SentBytes += r.SentBytes
		if tm != nil {
			k, c := tm.kernelMs(v, l), tm.commMs(&r)
			t := k + c
			r.KernelMs, r.CommMs, r.TotalMs = &k, &c, &t
			totalMs += t
		}
		pr.Rows = append(pr.Rows, r)
	}
	if tm != nil {
		totalMs += tm.finalMs()
		pr.TotalMs = &totalMs
		if totalMs > 0 {
			g := float64(v.EdgesReached) / 2 / (totalMs * 1e6)
			pr.GTEPS = &g
		}
	}
	return pr, nil
}

// levelRow is the volumes of level l at idBytes per vertex: its Row
// without times, and every message p -> q ≠ p. O(P²).
func levelRow(l *Level, idBytes int, sortUnique bool) (Row, []Pair) {
	P := len(l.Procs)
	r := Row{Level: l.Level, Frontier: l.Frontier, Discovered: l.Discovered}
	var pairs []Pair
	for p := range P {
		r.NLFSMax = max(r.NLFSMax, l.Procs[p].EdgesScanned)
		r.NLFSUniqueMax = max(r.NLFSUniqueMax, l.Procs[p].NLFSUnique)
		out := l.SentBy(p, sortUnique) * int64(idBytes)
		in := l.ReceivedBy(p, sortUnique) * int64(idBytes)
		r.MaxOutBytes, r.MaxInBytes = max(r.MaxOutBytes, out), max(r.MaxInBytes, in)
		for q := range P {
			if q == p {
				continue
			}
			n := l.Sent(p, q, sortUnique)
			b := n * int64(idBytes)
			r.SentVertices += n
			r.SentBytes += b
			r.MaxPairBytes = max(r.MaxPairBytes, b)
			pairs = append(pairs, Pair{Level: l.Level, Src: p, Dst: q, Vertices: n, Bytes: b})
		}
	}
	return r, pairs
}

// levelTimer is Model's time of a level: the kernel time (the machine's
// physics, or the fitted kernel) and the all-to-all fit for P processes.
type levelTimer struct {
	P          int
	sortUnique bool
	ph         predict.Physics
	kernel     *KernelFit
	fit        AllToAllFit
}

// newLevelTimer returns the timer opt gives, and marks pr timed, with its
// machine, all-to-all fit, kernel fit and warnings; nil (and pr's warning
// that times need a measured all-to-all) without opt.AllToAll or without
// both opt.Machine and opt.Kernel.
func newLevelTimer(P int, opt Options, pr *Prediction) (*levelTimer, error) {
	if opt.AllToAll == nil || (opt.Machine == nil && opt.Kernel == nil) {
		pr.Warnings = append(pr.Warnings, strings.TrimPrefix(ErrNeedAllToAll.Error(), "dist: "))
		return nil, nil
	}
	tm := &levelTimer{P: P, sortUnique: opt.SortUnique, kernel: opt.Kernel}
	if opt.Kernel == nil {
		var err error
		if tm.ph, err = predict.NewPhysics(opt.Machine); err != nil {
			return nil, err
		}
	}
	f, warn, ok := opt.AllToAll.For(P)
	if !ok && P > 1 {
		return nil, errors.New("dist: the all-to-all file has no fits")
	}
	if warn != "" && P > 1 {
		pr.Warnings = append(pr.Warnings, warn)
	}
	tm.fit = f
	pr.Timed = true
	if opt.Machine != nil {
		pr.Machine = opt.Machine.Name
	}
	if P > 1 {
		pr.AllToAll = &tm.fit
	}
	if opt.Kernel != nil {
		pr.Kernel = opt.Kernel
		pr.Warnings = append(pr.Warnings, fmt.Sprintf(
			"kernel time is %.1f µs + bytes / %.0f GB/s on the bytes KernelBytes counts, fitted on %d levels of the runs %s",
			opt.Kernel.FixedUs, opt.Kernel.GBs, opt.Kernel.Points, strings.Join(opt.Kernel.Runs, ", ")))
	} else {
		pr.Warnings = append(pr.Warnings,
			"kernel time is a bandwidth bound (level overhead + bytes / measured DRAM read bandwidth) on the bytes KernelBytes counts; CUB's sort and select launch several kernels, whose fixed costs beyond one level overhead are not counted")
	}
	return tm, nil
}

// kernelMs is max_p T_kernel(p) of level l in ms.
func (tm *levelTimer) kernelMs(v *Volumes, l *Level) float64 {
	var kernelNs float64
	for p := range tm.P {
		b := KernelBytes(v, l, p, tm.sortUnique)
		if tm.kernel != nil {
			kernelNs = max(kernelNs, tm.kernel.Ns(b))
		} else {
			kernelNs = max(kernelNs, KernelNs(tm.ph, b))
		}
	}
	return kernelNs / 1e6
}

// commMs is T_counts + T_vertices of the level of r in ms, 0 for P = 1.
func (tm *levelTimer) commMs(r *Row) float64 {
	var commUs float64
	if tm.P > 1 {
		commUs = tm.countsUs() + tm.fit.ExchangeUs(r.MaxOutBytes, r.MaxInBytes)
	}
	return commUs / 1e3
}

// finalMs is the final counts-only exchange that finds every frontier
// empty, in ms, 0 for P = 1.
func (tm *levelTimer) finalMs() float64 {
	if tm.P > 1 {
		return tm.countsUs() / 1e3
	}
	return 0
}

// countsUs is T_counts in µs.
func (tm *levelTimer) countsUs() float64 {
	return tm.fit.ExchangeUs(countsBytes*int64(tm.P-1), countsBytes*int64(tm.P-1))
}

// KernelNs is T_0 + bytes / β_DRAM in ns: model/predict's physical base
// time (Physics) without its latency term, which a level of streaming
// scans, sorts and scatters does not have.
func KernelNs(ph predict.Physics, bytes float64) float64 {
	return ph.OverheadNs + bytes/ph.BytesPerNs
}

// KernelBytes counts the DRAM bytes process p's kernels move at level l in
// kernels/cuda/dist_bfs.cu, with Q = |Q_p|, m = m_p, u = n_p (sort-unique)
// or m (without), r = the vertices it receives plus its own part, d = the
// vertices it discovers, s = 32 bytes (one sector, a random access):
//
//	expand   4Q (frontier) + 2sQ (offsets[u], offsets[u+1]) + 16Q (degree scan)
//	         + 4m + sQ (neighbour lists, one partial sector each) + 4m (NLFS)
//	         + 4m (owner-major keys)
//	sort     8m per radix pass (read and write the keys), passes = ⌈k/8⌉
//	         over the key's k bits: all of them with sort-unique, the owner's
//	         ⌈log2 P⌉ without (the CUDA sorts by owner only)
//	unique   4m + 4u (sort-unique only)
//	update   s·r (depth test, random) + s·d + 4d (depth write, next frontier)
//
// One read and one write of the keys per radix pass is the count used (CUB's
// onesweep sort reads the keys once more for its histograms; not counted).
// O(1).
func KernelBytes(v *Volumes, l *Level, p int, sortUnique bool) float64 {
	const s = 32
	pl := l.Procs[p]
	Q, m, d := float64(pl.Frontier), float64(pl.EdgesScanned), float64(pl.Discovered)
	u := m
	passes := 0
	P := len(l.Procs)
	ownerBits := bits.Len(uint(P - 1))
	if sortUnique {
		u = float64(pl.NLFSUnique)
		local := (v.Vertices + int64(P) - 1) / int64(P)
		passes = (ownerBits + bits.Len64(uint64(max(local-1, 0))) + 7) / 8
	} else {
		passes = (ownerBits + 7) / 8
	}
	var r float64
	for q := range P {
		if sortUnique {
			r += float64(l.Unique[q][p])
		} else {
			r += float64(l.Raw[q][p])
		}
	}
	b := 4*Q + 2*s*Q + 16*Q + 4*m + s*Q + 4*m + 4*m
	b += 8 * m * float64(passes)
	if sortUnique {
		b += 4*m + 4*u
	}
	b += s*r + s*d + 4*d
	return math.Max(b, 0)
}
