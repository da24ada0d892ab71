#!/usr/bin/env bash
# measure-more.sh adds graphs to a measured dataset on a GPU machine, from the
# repository root: it sweeps CORPUS into a scratch results directory that
# starts from BASE's manifest (so the manifest keeps the earlier graphs and
# their provenance runs), then makes the graph and level properties of the
# new graphs, and puts everything new into OUT as one tar.
#
#   kernels/measure-more.sh CORPUS BASE OUT [SECONDS]
#
#   CORPUS   a corpus file, e.g. kernels/corpus/h100-bfs-4.yaml
#   BASE     a measured dataset directory whose manifest.json to start
#            from (kernels/measured/h100), or "-" for a new platform
#   OUT      where results.tar (manifest.json, sweep.log, the new
#            NAME.jsonl.gz), new-files.txt, graph-properties.json.gz,
#            level-properties.json.gz and the logs go
#   SECONDS  the budget for the whole script (default 540); the sweep stops
#            before a graph it cannot finish and the property steps are
#            cut to what is left
#
# Resumable: files of OUT/prev (a results.tar of an earlier call, unpacked
# by the caller) are copied into the scratch results first, and the sweep
# skips graphs whose results are complete.
#
# Environment: GRAPHPERF (the graphperf binary, default ./graphperf; a
# -tags gpdatadir build reads the embedded dataset from kernels/measured of
# this checkout), GRAPHS (folder of the SNAP files, default .carry/graphs),
# WORK (scratch for .gpg files, default /tmp/gp-work), PROPS (0: sweep only,
# no property files).
set -uo pipefail
CORPUS=${1:?usage: kernels/measure-more.sh CORPUS BASE OUT [SECONDS]}
BASE=${2:?usage: kernels/measure-more.sh CORPUS BASE OUT [SECONDS]}
OUTD=${3:?usage: kernels/measure-more.sh CORPUS BASE OUT [SECONDS]}
BUDGET=${4:-540}
T0=$(date +%s)
GP=${GRAPHPERF:-./graphperf}
GRAPHS=${GRAPHS:-.carry/graphs}
WORK=${WORK:-/tmp/gp-work}
RES=$WORK/results
left() { echo $((BUDGET - $(date +%s) + T0)); }
mkdir -p "$OUTD" "$RES"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw --format=csv
  nvcc --version | tail -2
  date -u +%Y-%m-%dT%H:%M:%SZ
} >"$OUTD/provenance.txt" 2>&1
make -C kernels/cuda graphperf-bfs >"$OUTD/build.log" 2>&1 || { tail -30 "$OUTD/build.log"; exit 1; }
[ "$BASE" = - ] || cp "$BASE/manifest.json" "$RES/"
[ -d "$OUTD/prev" ] && cp "$OUTD/prev/"* "$RES/"
ls "$RES" | grep '\.jsonl\.gz$' | sort >"$WORK/before.txt"
[ "$BASE" = - ] && : >"$WORK/before.txt"
L=$(left)
"$GP" bench sweep --corpus "$CORPUS" --graphs "$GRAPHS" --work "$WORK" --results "$RES" \
  --runner kernels/cuda/graphperf-bfs --time-budget $((L - 90))s --deadline $((L - 60))s 2>&1 | tail -60
ls "$RES" | grep '\.jsonl\.gz$' | sort >"$WORK/after.txt"
comm -13 "$WORK/before.txt" "$WORK/after.txt" >"$OUTD/new-files.txt"
(cd "$RES" && tar cf "$OUTD/results.tar" manifest.json sweep.log $(cat "$OUTD/new-files.txt"))
echo "new result files: $(wc -l <"$OUTD/new-files.txt")"
[ "${PROPS:-1}" = 1 ] || exit 0
L=$(left)
timeout $((L / 2)) "$GP" bench props --corpus "$CORPUS" --graphs "$GRAPHS" \
  --manifest "$RES/manifest.json" -o "$OUTD/graph-properties.json.gz" 2>&1 | tail -3
L=$(left)
timeout $((L - 5)) "$GP" bench levels --corpus "$CORPUS" --graphs "$GRAPHS" \
  --manifest "$RES/manifest.json" --results "$RES" -o "$OUTD/level-properties.json.gz" 2>&1 | tail -3
ls -la "$OUTD"
