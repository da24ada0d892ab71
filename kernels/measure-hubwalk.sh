#!/usr/bin/env bash
# measure-hubwalk.sh: the time one lane of the topology-driven BFS (k_topo)
# takes per edge when it walks a hub's adjacency alone, the tail phase of the
# operator machine's two-phase evaluation (om.TopoWarpLoads). Run from the
# repository root on a GPU machine after "make -C kernels/cuda graphperf-bfs":
#
#   kernels/measure-hubwalk.sh OUT_DIR
#
# For each depth-array size n (2^12, 2^18, 2^24 vertices: 16 KB, 1 MB and
# 64 MB of depth[], within an SM's L1, within the L2, beyond the L2) and two
# hub degrees D1 < D2, it builds a graph of two stars over the same D random
# targets: x = 0 and the hub h = 1 are each joined to every target and to
# each other (undirected). A BFS from x then has two timed levels:
#   level 0: lane 0 walks x's D + 1 edges, every target unvisited: each edge
#            loads tgt[e] and depth[tgt[e]], stores depth and the changed flag;
#   level 1: lane 1 walks h's D + 1 edges, every target already visited: each
#            edge loads tgt[e] and depth[tgt[e]], no store (the targets walk
#            two edges each beside it).
# The per-edge time is the slope (t(D2) - t(D1)) / (D2 - D1) of the level's
# median over 10 timed repetitions (graphperf-bfs --impl topo --root 0), so
# the level's fixed cost and the other lanes cancel. Writes OUT_DIR/NAME.jsonl
# (the runner's lines), OUT_DIR/hubwalk.tsv (n, D, level, median_ns) and
# OUT_DIR/provenance.txt. Environment: GRAPHPERF (default ./graphperf),
# RUNNER (default kernels/cuda/graphperf-bfs), WORK (default /tmp/gp-hubwalk).
set -euo pipefail
OUTDIR=${1:?usage: kernels/measure-hubwalk.sh OUT_DIR}
GP=${GRAPHPERF:-./graphperf}
RUNNER=${RUNNER:-kernels/cuda/graphperf-bfs}
WORK=${WORK:-/tmp/gp-hubwalk}
mkdir -p "$OUTDIR" "$WORK"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /' || true
  nvcc --version 2>&1 | tail -1 | sed 's/^/nvcc: /' || true
  echo "runner: $RUNNER --impl topo --roots 0 --reps 10 (defaults otherwise: L2 flush per traversal, block 256, grid cap SMs x 16)"
} >"$OUTDIR/provenance.txt"
printf 'n\tD\tlevel\tmedian_ns\n' >"$OUTDIR/hubwalk.tsv"
for spec in "12 512 2048" "18 4096 65536" "24 4096 65536"; do
  read -r logn d1 d2 <<<"$spec"
  for d in $d1 $d2; do
    name=hub-s$logn-d$d
    python3 - "$logn" "$d" >"$WORK/$name.txt" <<'PY'
import random, sys
logn, d = int(sys.argv[1]), int(sys.argv[2])
n = 1 << logn
rng = random.Random(1000 * logn + d)
targets = set(rng.sample(range(2, n - 1), d - 1))
targets.add(n - 1)  # the largest id fixes n
print("0 1")
for t in sorted(targets):
    print(f"0 {t}")
    print(f"1 {t}")
PY
    "$GP" graph convert --undirected --simple "$WORK/$name.txt" -o "$WORK/$name.gpg" >&2
    "$RUNNER" --graph "$WORK/$name.gpg" --roots 0 --impl topo --reps 10 --out "$OUTDIR/$name.jsonl" >&2
    python3 - "$OUTDIR/$name.jsonl" "$logn" "$d" >>"$OUTDIR/hubwalk.tsv" <<'PY'
import json, sys
path, logn, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for line in open(path):
    r = json.loads(line)
    if r.get("type") == "level" and r["level"] in (0, 1):
        print(f"{1 << logn}\t{d}\t{r['level']}\t{r['median_ns']}")
PY
  done
done
cat "$OUTDIR/hubwalk.tsv"
