#!/usr/bin/env bash
# measure-large.sh adds the next slice of kernels/corpus/h200-bfs-large.yaml
# (graphs of 2^23-2^26 vertices, issue 30) to the H200 dataset, on an H200,
# from the repository root, inside one device call:
#
#   kernels/measure-large.sh OUT [SECONDS]
#
# It copies every results file of kernels/measured/h200 into the sweep's
# scratch results (so the sweep skips the graphs measured so far and resumes
# with the next one), then runs kernels/measure-more.sh over the dataset's
# corpus list (kernels/corpus/h200-bfs.yaml,kernels/corpus/h200-bfs-large.yaml,
# as its manifest names them) with the dataset's manifest as BASE and PROPS=0 (the graph and level properties are made afterwards on
# a CPU machine, where the graphs are rebuilt from the manifest). OUT gets
# measure-more.sh's results.tar (manifest.json, sweep.log, the new
# NAME.jsonl.gz), new-files.txt and provenance.txt, plus nvidia-smi
# readings before and after (smi-before.txt, smi-after.txt). SECONDS
# (default 540) is the whole script's budget.
#
# Environment: as measure-more.sh (GRAPHPERF, WORK); CORPUS overrides the
# corpus list; SMOKE=0 leaves out "make -C kernels/cuda smoke" (every
# implementation on small graphs against the CPU reference, first; run it
# in a session's first call). After the call, on a CPU machine: copy results.tar's files
# into kernels/measured/h200 (append its sweep.log to the dataset's) and add
# the new graphs' properties with "bench props|levels --measured --base"
# (kernels/measured/h200/README.md, "Regenerate").
set -uo pipefail
OUTD=${1:?usage: kernels/measure-large.sh OUT [SECONDS]}
BUDGET=${2:-540}
CORPUS=${CORPUS:-kernels/corpus/h200-bfs.yaml,kernels/corpus/h200-bfs-large.yaml}
BASE=kernels/measured/h200
WORK=${WORK:-/tmp/gp-work}
export WORK
mkdir -p "$OUTD" "$WORK/results"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv >"$OUTD/smi-before.txt" 2>&1
if [ "${SMOKE:-1}" = 1 ]; then
  # Every implementation on small graphs, each checked against the CPU
  # reference, before hours of measurement are spent on a changed runner.
  make -C kernels/cuda smoke >"$OUTD/smoke.log" 2>&1 || { tail -30 "$OUTD/smoke.log"; exit 1; }
  echo "measure-large: make smoke passed"
fi
cp "$BASE"/*.jsonl.gz "$WORK/results/" || exit 1
echo "measure-large: $(ls "$WORK/results" | grep -c '\.jsonl\.gz$') results files of $BASE copied; the sweep skips their graphs"
PROPS=0 kernels/measure-more.sh "$CORPUS" "$BASE" "$OUTD" "$BUDGET"
rc=$?
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv >"$OUTD/smi-after.txt" 2>&1
exit $rc
