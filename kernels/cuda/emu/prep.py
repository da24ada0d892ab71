#!/usr/bin/env python3
"""emu/prep.py: rewrites a CUDA source for emu/cuda_runtime.h.

  prep.py IN OUT

Kernel launches `k<<<g, b[, s]>>>(args);` become
`gp_emu::launch(g, b, s, [&] { k(args); });` and
`extern __shared__ T name[];` becomes `T* name = (T*)gp_emu::dyn_smem();`.
Everything else is copied unchanged (see cuda_runtime.h for what the
emulation does and does not check)."""
import re, sys

src = open(sys.argv[1]).read()
launch = re.compile(r"([A-Za-z_][\w:]*(?:<[^<>;]*>)?)\s*<<<(.*?)>>>\s*\((.*?)\);", re.S)

def repl(m):
    cfg = [c.strip() for c in split_top(m.group(2))]
    while len(cfg) < 3:
        cfg.append("0")
    return "gp_emu::launch(dim3(%s), dim3(%s), (size_t)(%s), [&] { %s(%s); });" % (cfg[0], cfg[1], cfg[2], m.group(1), m.group(3))

def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur); cur = ""
        else:
            cur += ch
    out.append(cur)
    return out

src = launch.sub(repl, src)
src = re.sub(r"extern\s+__shared__\s+(\w+)\s+(\w+)\[\];", r"\1* \2 = (\1*)gp_emu::dyn_smem();", src)
open(sys.argv[2], "w").write(src)
