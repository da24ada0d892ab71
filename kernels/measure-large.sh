#!/usr/bin/env bash
# measure-large.sh adds the next slice of kernels/corpus/h200-bfs-large.yaml
# (graphs of 2^23-2^26 vertices, issue 30) to the H200 dataset, on an H200,
# from the repository root, inside one device call:
#
#   kernels/measure-large.sh OUT [SECONDS]
#
# It copies the large corpus's results already in kernels/measured/h200 into
# the sweep's scratch results (so the sweep skips them and resumes with the
# next graph), then runs kernels/measure-more.sh with the dataset's manifest
# as BASE and PROPS=0 (the graph and level properties are made afterwards on
# a CPU machine, where the graphs are rebuilt from the manifest). OUT gets
# measure-more.sh's results.tar (manifest.json, sweep.log, the new
# NAME.jsonl.gz), new-files.txt and provenance.txt, plus nvidia-smi
# readings before and after (smi-before.txt, smi-after.txt). SECONDS
# (default 540) is the whole script's budget.
#
# Environment: as measure-more.sh (GRAPHPERF, WORK); CORPUS overrides the
# corpus file.
set -uo pipefail
OUTD=${1:?usage: kernels/measure-large.sh OUT [SECONDS]}
BUDGET=${2:-540}
CORPUS=${CORPUS:-kernels/corpus/h200-bfs-large.yaml}
BASE=kernels/measured/h200
WORK=${WORK:-/tmp/gp-work}
export WORK
mkdir -p "$OUTD" "$WORK/results"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv >"$OUTD/smi-before.txt" 2>&1
kept=0
for name in $(sed -n 's/^  - name: \([^ #]*\).*/\1/p' "$CORPUS"); do
  if [ -f "$BASE/$name.jsonl.gz" ]; then
    cp "$BASE/$name.jsonl.gz" "$WORK/results/" && kept=$((kept + 1))
  fi
done
echo "measure-large: $kept graphs of $CORPUS already measured in $BASE"
PROPS=0 kernels/measure-more.sh "$CORPUS" "$BASE" "$OUTD" "$BUDGET"
rc=$?
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv >"$OUTD/smi-after.txt" 2>&1
exit $rc
