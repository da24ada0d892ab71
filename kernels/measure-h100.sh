#!/usr/bin/env bash
# measure-h100.sh regenerates the measured H100 dataset on a GPU machine, from
# the repository root, resumably: every step skips what RESULTS already holds.
#
#   kernels/measure-h100.sh RESULTS [SECONDS]
#
# 1. builds graphperf-bfs and graphperf-microbench (kernels/cuda/Makefile);
# 2. runs the microbenchmarks once (RESULTS/microbench.jsonl);
# 3. runs Nsight Compute on the topology-driven BFS, one profiled launch per
#    level, on the graphs of NCU_GRAPHS below (RESULTS/ncu/NAME.csv);
# 4. runs the BFS sweep of kernels/corpus/h100-bfs.yaml into RESULTS until
#    SECONDS (default 480) have passed since the script started;
# 5. then, with what is left of SECONDS, the PageRank sweep of
#    kernels/corpus/h100-pr.yaml (graphperf-pr, built separately: a
#    compile failure skips this step and nothing else) into RESULTS/pagerank
#    (its own manifest; the BFS analysis reads every *.jsonl.gz of RESULTS).
#    PR_FIRST=1 runs it before the BFS sweep instead.
#
# Environment: GRAPHPERF (the graphperf binary, default ./graphperf, built
# with CGO_ENABLED=0 on any machine), GRAPHS (the folder holding
# ../shared/graphs' files, default .carry/graphs), WORK (scratch for .gpg
# files, default /tmp/gp-work). Run it again to go on where it stopped.
set -euo pipefail
RES=${1:?usage: kernels/measure-h100.sh RESULTS [SECONDS]}
BUDGET=${2:-480}
T0=$(date +%s)
GP=${GRAPHPERF:-./graphperf}
GRAPHS=${GRAPHS:-.carry/graphs}
WORK=${WORK:-/tmp/gp-work}
mkdir -p "$RES/ncu" "$WORK"
left() { echo $((BUDGET - $(date +%s) + T0)); }

echo "== build"
make -C kernels/cuda graphperf-bfs graphperf-microbench
make -C kernels/cuda graphperf-pr >"$RES/graphperf-pr.build.log" 2>&1 \
  || { echo "graphperf-pr did not build (PageRank skipped):"; tail -30 "$RES/graphperf-pr.build.log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$RES/nvidia-smi.csv" 2>&1 || true

echo "== microbenchmarks"
if [ ! -s "$RES/microbench.jsonl" ]; then
  kernels/cuda/graphperf-microbench --out "$WORK/microbench.jsonl" 2>"$RES/microbench.log" \
    && mv "$WORK/microbench.jsonl" "$RES/microbench.jsonl" \
    || { echo "microbench failed:"; tail -20 "$RES/microbench.log"; }
fi

echo "== ncu, topology-driven BFS"
# name | graph gen arguments (the corpus entry of the same name) ; the root
# is the sweep's first root for that graph when the manifest has it, else
# the max-degree vertex.
NCU_GRAPHS=(
  "rmat-s18-e8|rmat --scale 18 --edge-factor 8"
  "kron-s18-e16|kronecker --scale 18 --edge-factor 16"
  "er-s18-e16|er --n 262144 --m 4194304"
  "ws-s18-k16-p0.1|ws --n 262144 --k 16 --p 0.1"
  "ba-s18-m8|ba --n 262144 --attach 8"
  "cfg-normal-m16-s18|config --n 262144 --dist normal --mu 16 --sigma 4"
  "rmat-s20-e4|rmat --scale 20 --edge-factor 4"
  "rmat-s22-e8|rmat --scale 22 --edge-factor 8"
)
for entry in "${NCU_GRAPHS[@]}"; do
  name=${entry%%|*}; args=${entry#*|}
  out="$RES/ncu/$name.csv"
  [ -s "$out" ] && continue
  [ "$(left)" -gt 200 ] || { echo "ncu: stopping, $(left) s left"; break; }
  g="$WORK/ncu-$name.gpg"
  # shellcheck disable=SC2086
  [ -s "$g" ] || "$GP" graph gen $args --seed 1 -o "$g" >/dev/null
  root=$(python3 - "$RES/manifest.json" "$name" <<'PY' 2>/dev/null || true
import json, sys
try:
    m = json.load(open(sys.argv[1]))
    print(next(g["roots"][0] for g in m["graphs"] if g["name"] == sys.argv[2]))
except Exception:
    pass
PY
)
  [ -n "$root" ] || root=$("$GP" graph roots --max --json "$g" | tr -dc '0-9')
  echo "ncu $name root $root"
  kernels/cuda/ncu_topo.sh kernels/cuda/graphperf-bfs "$g" "$root" "$WORK/ncu.csv" >"$RES/ncu/$name.log" 2>&1 \
    && mv "$WORK/ncu.csv" "$out" || { echo "ncu $name failed:"; tail -5 "$RES/ncu/$name.log"; }
done

# The PageRank sweep: graphperf-pr beside --runner's graphperf-bfs is the
# PageRank runner; the Go reference ranks go to WORK/NAME.pagerank.gpr.
pr_sweep() {
  echo "== PageRank sweep"
  [ -x kernels/cuda/graphperf-pr ] || { echo "no kernels/cuda/graphperf-pr; skipped"; return 0; }
  local L
  L=$(left)
  if [ "$L" -gt 90 ]; then
    mkdir -p "$RES/pagerank"
    "$GP" bench sweep --corpus kernels/corpus/h100-pr.yaml --graphs "$GRAPHS" --work "$WORK" \
      --results "$RES/pagerank" --runner kernels/cuda/graphperf-bfs --time-budget $((L - 60))s --deadline $((L - 10))s \
      || echo "PageRank sweep: exit status $? (see $RES/pagerank/sweep.log)"
  fi
}

[ "${PR_FIRST:-0}" = 1 ] && pr_sweep

echo "== BFS sweep"
L=$(left)
if [ "$L" -gt 90 ]; then
  "$GP" bench sweep --corpus kernels/corpus/h100-bfs.yaml --graphs "$GRAPHS" --work "$WORK" \
    --results "$RES" --runner kernels/cuda/graphperf-bfs --time-budget $((L - 60))s --deadline $((L - 10))s \
    || echo "BFS sweep: exit status $? (see $RES/sweep.log)"
fi

[ "${PR_FIRST:-0}" = 1 ] || pr_sweep
