#include "textflag.h"

// func prefetchOffsets(base unsafe.Pointer, offsets *uint64, n int)
//
// PREFETCHT0 of the host cache lines at base+offsets[0], ...,
// base+offsets[n-1]. A prefetch retires at once and never faults, so the
// misses overlap with the work that follows (Intel 64 and IA-32
// Architectures Software Developer's Manual, vol. 2, PREFETCHh).
TEXT ·prefetchOffsets(SB), NOSPLIT, $0-24
	MOVQ	base+0(FP), DI
	MOVQ	offsets+8(FP), SI
	MOVQ	n+16(FP), CX
	TESTQ	CX, CX
	JLE	done
loop:
	MOVQ	(SI), AX
	PREFETCHT0	(DI)(AX*1)
	ADDQ	$8, SI
	DECQ	CX
	JNZ	loop
done:
	RET
