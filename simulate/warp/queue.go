package warp

import (
	"math/bits"

	"github.com/graphperf/graphperf/simulate/layout"
	"github.com/graphperf/graphperf/workload/catalog"
)

// queueState is the host and device state of the queue kinds (queue and
// dobfs), as kernels/cuda/runner.cu keeps it.
type queueState struct {
	// q and deg are the two queues q_[0], q_[1] with the out-degree of each
	// entry (qdeg_); cur is the one holding the frontier, tail the length
	// of the other while a level fills it.
	q, deg [2][]int64
	cur    int
	tail   int64
	qoff   []int64 // exclusive scan of deg[cur]
	// bm are the two frontier bitmaps bm_[0], bm_[1]; bcur holds the
	// frontier of a bottom-up level.
	bm   [2][]uint32
	bcur int

	nf, mf, mu      int64 // frontier size, its out-degree sum, unexplored out-degree sum
	prevNF, prevMF  int64
	bottomUp        bool // the previous level ran bottom-up
	queueValid      bool // the frontier is in q[cur]
	bitmapValid     bool // the frontier is in bm[bcur]
	count, levelMF  int64
	warpMF, warpCnt []int64 // per warp of the current launch: m_f and discovery sums
}

var (
	queueArrays  = [2]layout.Array{layout.Queue, layout.QueueNext}
	degArrays    = [2]layout.Array{layout.QueueDeg, layout.QueueDegNext}
	bitmapArrays = [2]layout.Array{layout.Bitmap, layout.BitmapNext}
)

// initQueue resets the queue state for a traversal from root: the queue
// [root] with its out-degree (runner.cu reset()).
func (s *sim) initQueue(root uint32) {
	if s.k.Family != catalog.Queue && s.k.Family != catalog.DOBFS {
		return
	}
	q := &s.q
	q.q[0], q.q[1] = make([]int64, 0, s.n), make([]int64, 0, s.n)
	q.deg[0], q.deg[1] = make([]int64, 0, s.n), make([]int64, 0, s.n)
	d := s.g.Degree(root)
	q.q[0] = append(q.q[0], int64(root))
	q.deg[0] = append(q.deg[0], d)
	q.nf, q.mf, q.mu = 1, d, s.m-d
	q.queueValid = true
	if s.k.Family == catalog.DOBFS {
		words := (s.n + 31) / 32
		q.bm[0], q.bm[1] = make([]uint32, words), make([]uint32, words)
	}
	s.warnings = append(s.warnings,
		"the CUB exclusive scan of the frontier's out-degrees (8 n_f bytes read and written per top-down level) is not simulated")
	if s.k.Family == catalog.DOBFS {
		s.warnings = append(s.warnings,
			"the cudaMemset clearing the frontier bitmap (n/8 bytes) before a queue-to-bitmap conversion is not simulated")
	}
}

// dobfsBottomUp is the runner's switching rule (hostutil.h
// dobfs_bottom_up; seed 002 §2.4.2, §4.2.1): top-down -> bottom-up when m_f
// > m_u / alpha and m_f grew; bottom-up -> top-down when n_f < n / beta and
// n_f shrank.
func (s *sim) dobfsBottomUp() bool {
	q := &s.q
	if !q.bottomUp {
		return float64(q.mf) > float64(q.mu)/s.cfg.Alpha && q.mf > q.prevMF
	}
	back := float64(q.nf) < float64(s.n)/s.cfg.Beta && q.nf < q.prevNF
	return !back
}

// queueLevel runs one level of queue or dobfs: the conversion the level
// needs, then k_queue_expand (top-down) or k_bottom_up.
func (s *sim) queueLevel() {
	q := &s.q
	bu := s.k.Family == catalog.DOBFS && s.dobfsBottomUp()
	s.level.BottomUp = bu
	q.count, q.levelMF = 0, 0
	if !bu {
		if !q.queueValid {
			s.bitmapToQueue()
		}
		s.queueExpand()
		return
	}
	if !q.bitmapValid {
		clear(q.bm[q.bcur])
		s.queueToBitmap()
	}
	s.bottomUp()
}

// queueAfterLevel is the host's bookkeeping after a level (runner.cu
// traverse()).
func (s *sim) queueAfterLevel(lv *Level) {
	q := &s.q
	if !lv.BottomUp {
		q.cur ^= 1
		q.queueValid, q.bitmapValid = true, false
	} else {
		q.bcur ^= 1
		q.bitmapValid, q.queueValid = true, false
	}
	q.prevNF, q.prevMF = q.nf, q.mf
	q.nf = lv.Discovered
	q.mf = q.levelMF
	q.mu = max(q.mu-q.mf, 0)
	q.bottomUp = lv.BottomUp
}

// startQueueLaunch opens a launch and its per-warp sums.
func (s *sim) startQueueLaunch(kernel string, work int64) {
	s.startLaunch(kernel, s.gridFor(work))
	warps := len(s.launch.WarpJobs)
	s.q.warpMF = make([]int64, warps)
	s.q.warpCnt = make([]int64, warps)
}

// blockSums issues the end-of-kernel block reductions of k_queue_expand and
// k_bottom_up: per block, thread 0 adds the block's discovery count (when
// withCount) and its m_f, each only if nonzero (COUNT atomics).
func (s *sim) blockSums(withCount bool) {
	perBlock := s.cfg.BlockSize / 32
	warps := len(s.launch.WarpJobs)
	for b := 0; b*perBlock < warps; b++ {
		var cnt, mf int64
		for w := b * perBlock; w < (b+1)*perBlock; w++ {
			cnt += s.q.warpCnt[w]
			mf += s.q.warpMF[w]
		}
		s.warp = b * perBlock
		if withCount && cnt != 0 {
			s.counter(layout.CountWord)
		}
		if mf != 0 {
			s.counter(layout.MFWord)
		}
	}
}

// queueExpand is the top-down step: the host's exclusive scan of the
// frontier's degrees (not simulated: CUB), then k_queue_expand over the
// frontier's m_f edges. Thread e: binary search of qoff for its frontier
// entry (QUEUE loads, lockstep while any lane searches); QUEUE q[lo],
// QUEUE qoff[lo], ERL off[u]; EDL tgt; NF2 depth[v] == -1; OP atomicCAS;
// for the winners ERL off[v], off[v+1] (the new entry's degree), one QUEUE
// atomicAdd on the tail by the leader, and QUEUE stores of the entry and
// its degree. The block sums of m_f end the kernel (COUNT).
func (s *sim) queueExpand() {
	q := &s.q
	cur, nxt := q.cur, q.cur^1
	q.q[nxt], q.deg[nxt] = q.q[nxt][:0], q.deg[nxt][:0]
	q.qoff = q.qoff[:0]
	var total int64
	for _, d := range q.deg[cur] {
		q.qoff = append(q.qoff, total)
		total += d
	}
	if total <= 0 {
		return
	}
	s.startQueueLaunch("k_queue_expand", total)
	nf := int64(len(q.q[cur]))
	qArr, qdegNext, qNext := queueArrays[cur], degArrays[nxt], queueArrays[nxt]
	offsets, targets := s.g.Offsets, s.g.Targets
	s.gridStride(total, func(first int64) {
		var e, lo, hi [32]int64
		mask := lanes(first, total, &e)
		s.control(ANI)
		search := uint32(0)
		forEach(mask, func(l int) {
			lo[l], hi[l] = 0, nf-1
			if lo[l] < hi[l] {
				search |= 1 << l
			}
		})
		for search != 0 {
			var mid [32]int64
			forEach(search, func(l int) { mid[l] = (lo[l] + hi[l] + 1) >> 1 })
			s.access(QUEUE, Load, layout.QueueOffsets, search, &mid)
			forEach(search, func(l int) {
				if q.qoff[mid[l]] <= e[l] {
					lo[l] = mid[l]
				} else {
					hi[l] = mid[l] - 1
				}
				if lo[l] >= hi[l] {
					search &^= 1 << l
				}
			})
		}
		var u, idx, v [32]int64
		s.access(QUEUE, Load, qArr, mask, &lo)
		forEach(mask, func(l int) { u[l] = q.q[cur][lo[l]] })
		s.access(QUEUE, Load, layout.QueueOffsets, mask, &lo)
		s.access(ERL, Load, layout.Offsets, mask, &u)
		forEach(mask, func(l int) { idx[l] = offsets[u[l]] + e[l] - q.qoff[lo[l]] })
		s.access(EDL, Load, layout.Targets, mask, &idx)
		forEach(mask, func(l int) { v[l] = int64(targets[idx[l]]) })
		s.access(NF2, Load, layout.Depth, mask, &v)
		wins := s.claimAs(s.unreached(mask, &v), &v, Atomic)
		if wins == 0 {
			return
		}
		var v1, slot [32]int64
		forEach(wins, func(l int) { v1[l] = v[l] + 1 })
		s.access(ERL, Load, layout.Offsets, wins, &v)
		s.access(ERL, Load, layout.Offsets, wins, &v1)
		s.counterOn(QUEUE, layout.TailWord)
		forEach(wins, func(l int) {
			slot[l] = int64(len(q.q[nxt]))
			d := offsets[v[l]+1] - offsets[v[l]]
			q.q[nxt] = append(q.q[nxt], v[l])
			q.deg[nxt] = append(q.deg[nxt], d)
			s.q.warpMF[s.warp] += d
			q.levelMF += d
		})
		s.access(QUEUE, Store, qNext, wins, &slot)
		s.access(QUEUE, Store, qdegNext, wins, &slot)
	})
	s.blockSums(false)
}

// queueToBitmap is k_queue_to_bitmap: thread i loads q[i] (QUEUE) and sets
// its bit with atomicOr (BITMAP; nvcc emits REDG.OR).
func (s *sim) queueToBitmap() {
	q := &s.q
	nf := int64(len(q.q[q.cur]))
	s.startQueueLaunch("k_queue_to_bitmap", nf)
	bm := q.bm[q.bcur]
	s.gridStride(nf, func(first int64) {
		var i, word [32]int64
		mask := lanes(first, nf, &i)
		s.control(ANI)
		s.access(QUEUE, Load, queueArrays[q.cur], mask, &i)
		forEach(mask, func(l int) {
			v := q.q[q.cur][i[l]]
			word[l] = v >> 5
			bm[v>>5] |= 1 << (v & 31)
		})
		s.access(BITMAP, Atomic, bitmapArrays[q.bcur], mask, &word)
	})
}

// bitmapToQueue is k_bitmap_to_queue: thread w loads bitmap word w
// (BITMAP); a nonzero word takes popcount slots with an atomicAdd on
// conv_tail (QUEUE; nvcc aggregates it to one per warp); then, one set bit
// per iteration in lockstep, ERL off[v], off[v+1] and QUEUE stores of the
// entry and its degree.
func (s *sim) bitmapToQueue() {
	q := &s.q
	words := int64(len(q.bm[q.bcur]))
	s.startQueueLaunch("k_bitmap_to_queue", words)
	bm := q.bm[q.bcur]
	cur := q.cur
	q.q[cur], q.deg[cur] = q.q[cur][:0], q.deg[cur][:0]
	offsets := s.g.Offsets
	s.gridStride(words, func(first int64) {
		var w [32]int64
		mask := lanes(first, words, &w)
		s.control(ANI)
		s.access(BITMAP, Load, bitmapArrays[q.bcur], mask, &w)
		var busy uint32
		var left [32]uint32
		forEach(mask, func(l int) {
			if left[l] = bm[w[l]]; left[l] != 0 {
				busy |= 1 << l
			}
		})
		if busy == 0 {
			return
		}
		s.counterOn(QUEUE, layout.ConvTailWord)
		var slot [32]int64
		forEach(busy, func(l int) {
			slot[l] = int64(len(q.q[cur]))
			for b := left[l]; b != 0; b &= b - 1 {
				q.q[cur] = append(q.q[cur], 0) // reserved, filled below
				q.deg[cur] = append(q.deg[cur], 0)
			}
		})
		for busy != 0 {
			var v, v1 [32]int64
			forEach(busy, func(l int) {
				v[l] = w[l]*32 + int64(bits.TrailingZeros32(left[l]))
				v1[l] = v[l] + 1
			})
			s.access(ERL, Load, layout.Offsets, busy, &v)
			s.access(ERL, Load, layout.Offsets, busy, &v1)
			s.access(QUEUE, Store, queueArrays[cur], busy, &slot)
			s.access(QUEUE, Store, degArrays[cur], busy, &slot)
			forEach(busy, func(l int) {
				q.q[cur][slot[l]] = v[l]
				q.deg[cur][slot[l]] = offsets[v[l]+1] - offsets[v[l]]
				slot[l]++
				if left[l] &= left[l] - 1; left[l] == 0 {
					busy &^= 1 << l
				}
			})
		}
	})
}

// bottomUp is k_bottom_up (seed 002 algorithm 2 with a frontier bitmap):
// each warp takes 32 consecutive vertices; ANI; NF1 depth[v] == -1; ERL
// roff[v+1], roff[v]; per in-edge EDL rtgt[i] and BITMAP fb[u/32] (stop at
// the first parent in the frontier); a lane that found one loads ERL
// off[v+1], off[v] (its out-degree, for m_f) and stores depth[v] (OP), one
// instruction per iteration in which some lane found (as vertex-pull); then
// lane 0 stores the warp's ballot as the next bitmap's word (BITMAP, one
// lane, every warp). The block sums of the count and m_f end the kernel.
func (s *sim) bottomUp() {
	q := &s.q
	s.startQueueLaunch("k_bottom_up", s.n)
	fb, nb := q.bm[q.bcur], q.bm[q.bcur^1]
	nbArr := bitmapArrays[q.bcur^1]
	rev, offsets := s.rev, s.g.Offsets
	s.gridStride(s.n, func(first int64) {
		var v [32]int64
		mask := lanes(first, s.n, &v)
		s.control(ANI)
		s.access(NF1, Load, layout.Depth, mask, &v)
		front := s.unreached(mask, &v)
		var ballot uint32
		if front != 0 {
			var start, count [32]int64
			s.rowRange(front, &v, layout.RevOffsets, rev.Offsets, true, &start, &count)
			var loop uint32
			forEach(front, func(l int) {
				if count[l] > 0 {
					loop |= 1 << l
				}
			})
			for j := int64(0); loop != 0; j++ {
				var e, word [32]int64
				var u [32]int64
				forEach(loop, func(l int) { e[l] = start[l] + j })
				s.access(EDL, Load, layout.RevTargets, loop, &e)
				forEach(loop, func(l int) {
					u[l] = int64(rev.Targets[e[l]])
					word[l] = u[l] >> 5
				})
				s.access(BITMAP, Load, bitmapArrays[q.bcur], loop, &word)
				var found uint32
				forEach(loop, func(l int) {
					if fb[word[l]]>>(u[l]&31)&1 != 0 {
						found |= 1 << l
					}
					if count[l] == j+1 {
						loop &^= 1 << l
					}
				})
				loop &^= found
				if found == 0 {
					continue
				}
				var outStart, outDegree [32]int64 // the out-degree, for m_f
				s.rowRange(found, &v, layout.Offsets, offsets, true, &outStart, &outDegree)
				s.access(OP, Store, layout.Depth, found, &v)
				forEach(found, func(l int) {
					s.write(v[l])
					d := outDegree[l]
					q.warpMF[s.warp] += d
					q.warpCnt[s.warp]++
					q.levelMF += d
				})
				ballot |= found
			}
		}
		var word [32]int64
		word[0] = first >> 5
		nb[first>>5] = ballot
		s.access(BITMAP, Store, nbArr, 1, &word)
	})
	s.blockSums(true)
}

// counterOn issues one single-lane atomic on a LevelStats word for server
// srv.
func (s *sim) counterOn(srv Server, word int64) {
	var idx [32]int64
	idx[0] = word
	s.access(srv, Atomic, layout.Counters, 1, &idx)
}
