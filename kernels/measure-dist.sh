#!/usr/bin/env bash
# measure-dist.sh: issue 18's GPU run, from the repository root of a machine
# with at least NP GPUs (default 2: device kind nvidia-h200-x2). Writes one
# tar file, $OUT/dist-results.tar.gz, holding results/:
#
#   build.log, nvidia-smi.csv
#   alltoall.jsonl       the NCCL all-to-all microbenchmark, 1 KiB..256 MiB per
#                        pair on NP ranks: graphperf model dist --alltoall reads it
#   sS-pNP/rankR.jsonl   the distributed BFS on Graph500 SCALE S (graph gen
#                        kronecker --scale S --seed 1), from the root that
#                        kernels/measured/dist/predictions-sS.csv names, with
#                        sort-unique; sS-pNP-raw/ without it (SCALE <= RAW_MAX)
#   sS-pNP/rankR.log     each rank's stderr
#   sS-pNP/check.txt     graphperf model dist check: its messages against the predictions
#
# It builds kernels/cuda (make dist), generates each graph with the graphperf
# binary (GRAPHPERF, default ./graphperf; built with go when absent), deletes
# it after use, and stops starting new scales once BUDGET seconds (default
# 500) have passed, so that the tar is always written. NVLink multicast off.
#
#   OUT=/path NP=2 SCALES="20 21 22 23 24 25 26" kernels/measure-dist.sh
set -euo pipefail
export NCCL_NVLS_ENABLE=0
OUT=${OUT:?set OUT to the folder for dist-results.tar.gz}
NP=${NP:-2}
SCALES=${SCALES:-"20 21 22 23 24 25 26"}
RAW_MAX=${RAW_MAX:-22}
BUDGET=${BUDGET:-500}
GP=${GRAPHPERF:-./graphperf}
WORK=${WORK:-/tmp/gp-dist}
T0=$(date +%s)
RES=$WORK/results
mkdir -p "$RES" "$OUT"
finish() { tar -C "$WORK" -czf "$OUT/dist-results.tar.gz" results; echo "wrote $OUT/dist-results.tar.gz"; }
trap finish EXIT
left() { echo $((BUDGET - $(date +%s) + T0)); }

echo "== build"
if [ ! -x "$GP" ]; then
  CGO_ENABLED=0 go build -o "$GP" ./cmd/graphperf
fi
make -C kernels/cuda dist >"$RES/build.log" 2>&1 || { tail -40 "$RES/build.log"; exit 1; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$RES/nvidia-smi.csv" 2>&1 || true
nvidia-smi topo -m >>"$RES/nvidia-smi.csv" 2>&1 || true
export GPU_DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)

echo "== NCCL all-to-all on $NP ranks"
LOG_DIR=$RES/alltoall kernels/cuda/dist_launch.sh "$NP" kernels/cuda/graphperf-dist-alltoall --out "$RES/alltoall.jsonl"
"$GP" model dist kronecker:scale=16 --procs "$NP" --sort-unique --alltoall "$RES/alltoall.jsonl" >"$RES/alltoall-check.txt" 2>&1 || true

for S in $SCALES; do
  if [ "$(left)" -lt 60 ]; then echo "== budget spent: SCALE $S and larger not run" | tee -a "$RES/skipped.txt"; continue; fi
  pred=kernels/measured/dist/predictions-s$S.csv
  if [ ! -s "$pred" ]; then
    # Not committed beforehand (too large for the machine that wrote the
    # others): predicted here, before the run, and labelled so.
    echo "SCALE $S: predictions made on the device before the run, not committed beforehand" | tee -a "$RES/notes.txt"
    pred=$RES/predictions-s$S.csv
    "$GP" model dist predict --scales "$S" --procs 2,4,8 -o "$pred" 2>>"$RES/notes.txt"
  fi
  root=$(sed -n 's/^# graph scale=.* root=\([0-9]*\) .*/\1/p' "$pred")
  [ -n "$root" ] || { echo "no root in $pred" | tee -a "$RES/skipped.txt"; continue; }
  gpg=$WORK/kron-s$S.gpg
  echo "== SCALE $S: generate"
  "$GP" graph gen kronecker --scale "$S" --seed 1 -o "$gpg" >"$RES/gen-s$S.txt" 2>&1
  echo "== SCALE $S: BFS on $NP GPUs from root $root"
  LOG_DIR=$RES/s$S-p$NP kernels/cuda/dist_launch.sh "$NP" kernels/cuda/graphperf-dist-bfs \
    --graph "$gpg" --root "$root" --reps 3 --warmup 1 --out "$RES/s$S-p$NP" || echo "SCALE $S failed" | tee -a "$RES/skipped.txt"
  "$GP" model dist check --predictions "$pred" "$RES/s$S-p$NP" 2>&1 | tee "$RES/s$S-p$NP/check.txt" | head -3 || true
  if [ "$S" -le "$RAW_MAX" ]; then
    LOG_DIR=$RES/s$S-p$NP-raw kernels/cuda/dist_launch.sh "$NP" kernels/cuda/graphperf-dist-bfs \
      --graph "$gpg" --root "$root" --reps 1 --warmup 1 --no-sort-unique --no-verify --out "$RES/s$S-p$NP-raw" || true
    "$GP" model dist check --no-sort-unique --predictions "$pred" "$RES/s$S-p$NP-raw" >"$RES/s$S-p$NP-raw/check.txt" 2>&1 || true
  fi
  rm -f "$gpg"
done
