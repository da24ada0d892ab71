#!/usr/bin/env bash
# measure-la.sh measures graphperf-la (seed 001's linear-algebra and
# vertex-centric kernels, kernels/cuda/LINALG.md) on the corpus
# kernels/corpus/h100-la.yaml in ONE device call, from the repository root:
#
#   kernels/measure-la.sh OUT [SECONDS]
#
# 1. in the background, graphperf la prepare builds every corpus graph, its
#    .gpw weights and roots into WORK/graphs (plan: WORK/plan.tsv);
# 2. builds graphperf-la (make -C kernels/cuda graphperf-la);
# 3. timed runs: per graph, every implementation, the plan's roots,
#    --reps 3 --warmup 1 --iterations 20 (PageRank), each result checked by
#    the runner against its CPU reference -> RES/timed/NAME.la.jsonl, until
#    TIMED_SHARE percent (default 45) of SECONDS have passed;
# 4. Nsight Compute: per graph of the ncu list below (first root, --reps 1
#    --warmup 0 --no-flush --no-cpu-check --iterations 5), two profiled
#    passes (bfs and pagerank, then sssp), every k_la_ launch, with the
#    metrics of "graphperf la metrics --list" for the tables 10-11 and real
#    graphs (FULL) and only the hardware counters (no smsp__sass_*
#    instrumented metrics; ROOF) for the others, each pass cut by a timeout
#    -> RES/ncu/NAME.ncu.jsonl + NAME.csv.gz (the passes concatenated);
# 5. tars RES (logs, provenance, plan, timed, ncu) into OUT/la-results.tar
#    (the device returns few files: everything is in this one tar).
#
# SECONDS (default 480) bounds the whole script: a step that would not fit is
# skipped and says so in RES/skipped.txt. The runner exits 2 when a result
# disagrees with its reference (the error lines say which; the script goes
# on). Analyse with: graphperf la analyze RES (after untarring).
#
# Environment: GRAPHPERF (default ./graphperf: CGO_ENABLED=0 go build -tags
# gpdatadir -ldflags "-s -w" -o graphperf ./cmd/graphperf, carried), GRAPHS
# (default .carry/graphs: ../shared/graphs), WORK (default /tmp/gp-la),
# CORPUS (default kernels/corpus/h100-la.yaml), NCU (default ncu), JOBS
# (graph builders, default 12), TIMED_SHARE (default 45), NCU_PASS_MAX
# (longest ncu pass, default 60 s), SKIP_TIMED=1 (profile only) and
# NCU_ONLY (space-separated graph names: profile only these, in this order;
# NAME:b profiles only pass b of NAME, NAME:a,b both) for a later call that
# profiles what an earlier one did not reach.
# NCU_PASSES (default "a b": which passes), NCU_SSSP_SET (FULL, ROOF or
# LIGHT: the metric set of pass b; default the graph's set; LIGHT is the
# one-pass hardware counters of table 9 and the roofline: instructions,
# active cycles, duration, DRAM and global sectors) and NCU_SEPARATE=1
# (each pass to its own RES/ncu/NAME.TAG.ncu.jsonl + NAME.TAG.csv.gz, so a
# later call can add pass b to a graph whose pass a an earlier call
# profiled; graphperf la analyze reads both layouts).
set -uo pipefail
OUTD=${1:?usage: kernels/measure-la.sh OUT [SECONDS]}
BUDGET=${2:-480}
T0=$(date +%s)
GP=${GRAPHPERF:-./graphperf}
GRAPHS=${GRAPHS:-.carry/graphs}
WORK=${WORK:-/tmp/gp-la}
CORPUS=${CORPUS:-kernels/corpus/h100-la.yaml}
NCU=${NCU:-ncu}
JOBS=${JOBS:-12}
TIMED_SHARE=${TIMED_SHARE:-45}
NCU_PASS_MAX=${NCU_PASS_MAX:-60}
RES=$WORK/results
LA=kernels/cuda/graphperf-la
left() { echo $((BUDGET - $(date +%s) + T0)); }
elapsed() { echo $(($(date +%s) - T0)); }
mkdir -p "$OUTD" "$RES/timed" "$RES/ncu" "$RES/logs" "$WORK/graphs" "$WORK/prof"
: >"$RES/skipped.txt"
finish() {
  echo "elapsed: $(elapsed) s of $BUDGET" >>"$RES/provenance.txt"
  (cd "$WORK" && tar cf "$OUTD/la-results.tar" results)
  ls -la "$OUTD"
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  nvcc --version 2>&1 | tail -1 | sed 's/^/nvcc: /'
  "$NCU" --version 2>&1 | tail -1 | sed 's/^/ncu: /'
  echo "corpus: $CORPUS ($(sha256sum "$CORPUS" | cut -c1-16))"
  echo "budget: $BUDGET s; timed share $TIMED_SHARE %"
} >"$RES/provenance.txt"

echo "== prepare (background) and build"
"$GP" la prepare --corpus "$CORPUS" --graphs "$GRAPHS" --work "$WORK/graphs" --jobs "$JOBS" \
  --budget "$((BUDGET / 3))s" >"$WORK/plan.tsv" 2>"$RES/logs/prepare.log" &
PREP=$!
if ! make -C kernels/cuda graphperf-la >"$RES/logs/build.log" 2>&1; then
  echo "graphperf-la did not build:"; tail -40 "$RES/logs/build.log"
  wait $PREP
  finish
  exit 1
fi
grep -E "nvcc flags" "$RES/logs/build.log" | head -1 >>"$RES/provenance.txt"
wait $PREP || { echo "la prepare failed:"; tail -20 "$RES/logs/prepare.log"; }
cp "$WORK/plan.tsv" "$RES/plan.tsv"
echo "prepared $(wc -l <"$WORK/plan.tsv") graphs in $(elapsed) s"

echo "== timed runs"
TIMED_END=$((BUDGET * TIMED_SHARE / 100))
[ "${SKIP_TIMED:-0}" = 1 ] && TIMED_END=0
while IFS=$'\t' read -r name gpg roots n m directed; do
  budget_left=$((TIMED_END - $(elapsed)))
  if [ "$budget_left" -lt 5 ]; then echo "timed $name: time share spent" >>"$RES/skipped.txt"; continue; fi
  t=$((budget_left < 90 ? budget_left : 90))
  timeout "$t" "$LA" --graph "$gpg" --roots "$roots" --impl all --reps 3 --warmup 1 --iterations 20 \
    --out "$RES/timed/$name.la.jsonl" 2>"$RES/logs/$name.timed.log" </dev/null
  rc=$?
  echo "$name rc=$rc $(grep -c '"type":"total"' "$RES/timed/$name.la.jsonl" 2>/dev/null) totals ($(elapsed) s)"
  [ $rc -eq 124 ] && echo "timed $name: cut by the ${t}s timeout" >>"$RES/skipped.txt"
done <"$WORK/plan.tsv"

echo "== ncu"
FULL=$("$GP" la metrics --list)
ROOF=$(echo "$FULL" | tr ',' '\n' | grep -v '^smsp__sass_' | paste -sd, -)
LIGHT=smsp__inst_executed.sum,sm__cycles_active.avg,gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
NCU_PASSES=${NCU_PASSES:-a b}
# name | metric set. FULL (every metric, SASS-instrumented efficiencies
# too) for the tables 10-11 and real graphs, ROOF (hardware counters) for
# the others. Short-diameter graphs first, the sweeps interleaved, so that
# a budget that runs out leaves every sweep partly covered; the
# long-diameter ones (hundreds of SSSP iterations, each several launches)
# last.
NCU_LIST=()
for p in 1 0.1; do
  for d in 10 50 100; do NCU_LIST+=("la-t10-ws-d$d-p$p|FULL"); done
  for d in 64 16 4; do NCU_LIST+=("la-b1-ws-d$d-p$p|ROOF"); done
done
for a in 0.28 0.38 0.48; do for d in 64 16 4; do NCU_LIST+=("la-b1-rmat-d$d-a$a|ROOF"); done; done
for g in facebook-combined ca-condmat-cc1 email-enron arxiv-cit-hep-th soc-slashdot0902; do NCU_LIST+=("$g|FULL"); done
for d in 10 50 100; do NCU_LIST+=("la-t10-ws-d$d-p0.5|FULL"); done
NCU_LIST+=("la-t10-ws-d1000-p0.1|FULL")
for g in rmat-s16-e8 ba-s16-m8 cfg-powerlaw-a2.3-s16 forestfire-s16 holmekim-s18-m4 er-s18-e16 ws-s18-k16-p0.1 kron-s18-e16 rmat-s20-e8; do
  NCU_LIST+=("$g|ROOF")
done
for d in 64 16 4; do NCU_LIST+=("la-b1-ws-d$d-p0.01|ROOF"); done
for p in 0.01 0.001; do for d in 1000 100 50 10; do NCU_LIST+=("la-t10-ws-d$d-p$p|FULL"); done; done
NCU_LIST+=("road-256x256|ROOF")
# profile NAME GPG ROOT METRICS IMPLS TAG: one profiled pass; appends its
# totals and CSV rows to RES/ncu/NAME.* only when the pass completed.
profile() {
  local name=$1 gpg=$2 root=$3 metrics=$4 impls=$5 tag=$6 t
  local base="$WORK/prof/$name.$tag" dst=$name
  [ "${NCU_SEPARATE:-0}" = 1 ] && dst=$name.$tag
  t=$(left)
  t=$((t - 15))
  [ $t -gt "$NCU_PASS_MAX" ] && t=$NCU_PASS_MAX
  if [ $t -lt 10 ]; then echo "ncu $name $tag: budget spent" >>"$RES/skipped.txt"; return 1; fi
  rm -f "$base".*
  timeout "$t" "$NCU" --clock-control none --cache-control all --replay-mode kernel \
    --kernel-name regex:k_la_ --metrics "$metrics" --force-overwrite --export "$base.ncu-rep" \
    "$LA" --graph "$gpg" --roots "$root" --impl "$impls" --reps 1 --warmup 0 --no-flush --no-cpu-check \
    --iterations 5 --out "$base.jsonl" >"$base.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "ncu $name $tag: rc $rc ($( [ $rc -eq 124 ] && echo "timeout ${t}s" || tail -2 "$base.log" | tr '\n' ' '))" >>"$RES/skipped.txt"
    cp "$base.log" "$RES/logs/$name.$tag.ncu.log" 2>/dev/null
    return 1
  fi
  if ! "$NCU" --import "$base.ncu-rep" --csv --page raw --print-units base >"$base.raw.csv" 2>>"$base.log"; then
    "$NCU" --import "$base.ncu-rep" --csv --page raw >"$base.raw.csv" 2>>"$base.log" || return 1
  fi
  # Keep ID, Kernel Name and the profiled metrics (the raw page also holds
  # hundreds of device and launch attributes per row); the full CSV if
  # python3 fails.
  python3 - "$base.raw.csv" "$base.csv" "$metrics" <<'PY' 2>>"$base.log" || cp "$base.raw.csv" "$base.csv"
import csv, sys
keep = {"ID", "Kernel Name"} | set(sys.argv[3].split(","))
rows = csv.reader(open(sys.argv[1], newline=""))
out = csv.writer(open(sys.argv[2], "w", newline=""), quoting=csv.QUOTE_ALL)
header = next(rows)
idx = [i for i, h in enumerate(header) if h in keep]
out.writerow([header[i] for i in idx])
for r in rows:
    out.writerow([r[i] if i < len(r) else "" for i in idx])
PY
  if [ -s "$RES/ncu/$dst.csv" ]; then
    tail -n +3 "$base.csv" >>"$RES/ncu/$dst.csv"
  else
    cp "$base.csv" "$RES/ncu/$dst.csv"
  fi
  grep '"type":"total"' "$base.jsonl" >>"$RES/ncu/$dst.ncu.jsonl"
  echo "ncu $name $tag: $(grep -c '^"[0-9]' "$base.csv") launches, $(grep -o '[0-9]* pass' "$base.log" | sort | uniq -c | tr '\n' ' ')($(elapsed) s)"
  rm -f "$base.ncu-rep"
}
# NCU_ONLY, when set, is the list (in its order), each graph with the set
# NCU_LIST gives it (ROOF for a graph not there).
if [ -n "${NCU_ONLY:-}" ]; then
  ONLY=()
  for w in $NCU_ONLY; do
    n=${w%%:*}
    e=$(printf '%s\n' "${NCU_LIST[@]}" | awk -F'|' -v n="$n" '$1 == n' | head -1)
    e=${e:-$n|ROOF}
    [[ $w == *:* ]] && e="$e|${w#*:}"
    ONLY+=("$e")
  done
  NCU_LIST=("${ONLY[@]}")
fi
first=1
for entry in "${NCU_LIST[@]}"; do
  IFS='|' read -r name set passes <<<"$entry"
  passes=${passes:-$NCU_PASSES}
  passes=${passes//,/ }
  line=$(awk -F'\t' -v n="$name" '$1 == n' "$WORK/plan.tsv" | head -1)
  [ -n "$line" ] || { echo "ncu $name: not prepared" >>"$RES/skipped.txt"; continue; }
  gpg=$(echo "$line" | cut -f2)
  root=$(echo "$line" | cut -f3 | cut -d, -f1)
  metrics=$FULL
  [ "$set" = ROOF ] && metrics=$ROOF
  if [[ " $passes " != *" a "* ]]; then
    :
  elif profile "$name" "$gpg" "$root" "$metrics" "bfs,pagerank" a; then
    first=0
  elif [ $first = 1 ] && [ "$(left)" -gt 60 ]; then
    # The first pass failing may be a metric this ncu refuses: retry once with
    # the counters the H100 profiles of kernels/measured already used.
    echo "first ncu pass failed; retrying with the known-good metrics" | tee -a "$RES/provenance.txt"
    FULL=smsp__inst_executed.sum,gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__cycles_active.avg
    ROOF=$FULL
    metrics=$FULL
    profile "$name" "$gpg" "$root" "$FULL" "bfs,pagerank" a && first=0
  fi
  if [[ " $passes " == *" b "* ]]; then
    bm=$metrics
    case "${NCU_SSSP_SET:-}" in FULL) bm=$FULL ;; ROOF) bm=$ROOF ;; LIGHT) bm=$LIGHT ;; esac
    profile "$name" "$gpg" "$root" "$bm" "sssp" b
  fi
  for f in "$RES/ncu/$name.csv" "$RES/ncu/$name.a.csv" "$RES/ncu/$name.b.csv"; do
    [ -s "$f" ] && gzip -f "$f"
  done
  [ "$(left)" -lt 20 ] && break
done
echo "metrics FULL: $FULL" >>"$RES/provenance.txt"
echo "metrics ROOF: $ROOF" >>"$RES/provenance.txt"
echo "metrics LIGHT: $LIGHT" >>"$RES/provenance.txt"
echo "ncu passes: $NCU_PASSES; pass b set: ${NCU_SSSP_SET:-as pass a}; separate files: ${NCU_SEPARATE:-0}" >>"$RES/provenance.txt"
finish
