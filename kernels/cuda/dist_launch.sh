#!/usr/bin/env bash
# dist_launch.sh N PROGRAM [ARGS...]: start N ranks of PROGRAM on this node,
# one per GPU, the way mpirun or srun would: each with RANK, WORLD_SIZE and
# LOCAL_RANK set (dist_host.h also reads Open MPI's, Slurm's and PMI's own
# variables, so under mpirun -np N or srun -n N run PROGRAM directly and set
# NCCL_ID_FILE to a path on a file system all ranks share). NCCL_ID_FILE is a
# fresh path here (a stale one is removed first); NVLink multicast stays off
# (NCCL_NVLS_ENABLE=0). Rank R's stderr goes to ${LOG_DIR:-.}/rankR.log.
# Exits non-zero when any rank fails.
set -euo pipefail
N=${1:?usage: dist_launch.sh N PROGRAM [ARGS...]}
shift
[ "$#" -ge 1 ] || { echo "usage: dist_launch.sh N PROGRAM [ARGS...]" >&2; exit 2; }
case "$N" in ''|*[!0-9]*) echo "dist_launch.sh: N=$N is not a number" >&2; exit 2;; esac
export NCCL_NVLS_ENABLE=0
export NCCL_ID_FILE=${NCCL_ID_FILE:-/tmp/graphperf-nccl-id.$$}
LOG_DIR=${LOG_DIR:-.}
mkdir -p "$LOG_DIR"
rm -f "$NCCL_ID_FILE" "$NCCL_ID_FILE.tmp"
pids=()
for ((r = 0; r < N; r++)); do
  RANK=$r WORLD_SIZE=$N LOCAL_RANK=$r "$@" 2>"$LOG_DIR/rank$r.log" &
  pids+=($!)
done
status=0
for ((r = 0; r < N; r++)); do
  if ! wait "${pids[$r]}"; then
    echo "dist_launch.sh: rank $r failed:" >&2
    tail -20 "$LOG_DIR/rank$r.log" >&2
    status=1
  fi
done
rm -f "$NCCL_ID_FILE"
exit $status
