#!/usr/bin/env bash
# ncu_topo.sh: Nsight Compute counters for every level of the topology-driven
# BFS (seed 000 listing 2; graphperf-bfs --impl topo, kernel gp::k_topo in
# bfs_kernels.cuh, one launch per level), for the visits per job of seed 000
# §6.4 (table 2) and the load n (achieved occupancy) of §6.5.
#
#   ncu_topo.sh RUNNER GRAPH.gpg ROOT OUT.csv [extra graphperf-bfs arguments]
#
# Runs one traversal (--reps 1 --warmup 0 --no-flush) under ncu with
# --clock-control none, profiling every k_topo launch (one per level, in
# level order: CSV row i after the header and units rows is level i), and
# writes:
#   OUT.csv          ncu --csv --page raw --print-units base (times in ns)
#   OUT.ncu-rep      the ncu report (open with ncu-ui or ncu --import)
#   OUT.bfs.jsonl    the runner's JSON lines (level sizes; its times are
#                    perturbed by the profiler: take times from normal runs)
# (OUT without its .csv suffix.)
#
# Environment: NCU (ncu binary, default ncu on PATH), NCU_CACHE_CONTROL (all,
# the default: ncu flushes the caches before each profiled level; none: keep
# them), NCU_REPLAY_MODE (kernel, default; application), NCU_EXTRA_METRICS
# (comma-separated, appended), NCU_LAUNCH_COUNT (profile only the first N
# levels; the traversal still runs to the end). Exit status: 0; 1 usage or missing file;
# 3 ncu missing; otherwise ncu's or the runner's.
set -euo pipefail

prog=ncu_topo.sh
die() {
  echo "$prog: $*" >&2
  exit 1
}
usage() {
  sed -n '7,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 1
}

[ $# -ge 4 ] || usage
runner=$1
graph=$2
root=$3
out=$4
shift 4

ncu=${NCU:-ncu}
if ! command -v "$ncu" >/dev/null 2>&1; then
  echo "$prog: Nsight Compute ('$ncu') not found: install it, put ncu on PATH (e.g. /usr/local/cuda/bin) or set NCU=/path/to/ncu" >&2
  exit 3
fi
[ -x "$runner" ] || die "runner '$runner' is not an executable file"
[ -f "$graph" ] || die "graph '$graph' not found"
case $root in
  '' | *[!0-9]*) die "ROOT must be a vertex id (a non-negative integer), got '$root'" ;;
esac
case $out in
  *.csv) base=${out%.csv} ;;
  *) base=$out ;;
esac
outdir=$(dirname -- "$out")
[ -d "$outdir" ] || die "output directory '$outdir' does not exist"

cache_control=${NCU_CACHE_CONTROL:-all}
replay_mode=${NCU_REPLAY_MODE:-kernel}
metrics=lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
metrics+=,dram__sectors_read.sum
metrics+=,dram__sectors_write.sum
metrics+=,smsp__inst_executed.sum
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,gpu__time_duration.sum
if [ -n "${NCU_EXTRA_METRICS:-}" ]; then
  metrics+=,$NCU_EXTRA_METRICS
fi

launch_count=()
if [ -n "${NCU_LAUNCH_COUNT:-}" ]; then
  case $NCU_LAUNCH_COUNT in
    '' | *[!0-9]*) die "NCU_LAUNCH_COUNT must be a positive integer, got '$NCU_LAUNCH_COUNT'" ;;
  esac
  launch_count=(--launch-count "$NCU_LAUNCH_COUNT")
fi

rep=$base.ncu-rep
jsonl=$base.bfs.jsonl

echo "$prog: $("$ncu" --version 2>/dev/null | tail -n 1)" >&2
echo "$prog: profiling k_topo levels of $graph from root $root -> $out" >&2
# The kernel filter is a regex search in the kernel's function name
# (gp::k_topo); no other runner kernel contains "k_topo".
"$ncu" --clock-control none \
  --cache-control "$cache_control" \
  --replay-mode "$replay_mode" \
  --kernel-name regex:k_topo "${launch_count[@]}" \
  --metrics "$metrics" \
  --force-overwrite --export "$rep" \
  "$runner" --graph "$graph" --roots "$root" --impl topo --reps 1 --warmup 0 --no-flush \
  --out "$jsonl" "$@"

# The raw page as CSV: one row per profiled launch (= level), one column per
# metric; the second row holds the units (base units: ns, sector, inst, %).
if ! "$ncu" --import "$rep" --csv --page raw --print-units base >"$out" 2>"$base.import.err"; then
  echo "$prog: --print-units base refused; importing with default units" >&2
  "$ncu" --import "$rep" --csv --page raw >"$out"
fi
rm -f "$base.import.err"

# Data rows start with the launch ID ("0", "1", ...); the header and units rows do not.
rows=$(grep -c '^"[0-9]' "$out" || true)
levels=$(grep -c '"type":"level"' "$jsonl" || true)
echo "$prog: $rows profiled k_topo launches, $levels levels in $jsonl" >&2
if [ "$rows" -ne "$levels" ] && [ -z "${NCU_LAUNCH_COUNT:-}" ]; then
  echo "$prog: warning: profiled launches ($rows) != levels ($levels); check $out" >&2
fi
