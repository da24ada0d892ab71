#!/usr/bin/env bash
# measure-ncu.sh profiles the topology-driven BFS with Nsight Compute on the
# graphs of NCU_GRAPHS below, one profiled launch per level, with the metrics
# the operator machine's counter mapping needs (seed 000 §6.4-6.5): L2 read
# lookups and hits, DRAM sectors, all and memory-only warp instructions
# (global ld, st, red, atom), L1 load sectors and hits, achieved occupancy,
# duration. Run from the repository root on a GPU machine:
#
#   kernels/measure-ncu.sh OUT_DIR
#
# writes OUT_DIR/NAME.csv.gz (ncu --csv --page raw --print-units base,
# gzipped), OUT_DIR/NAME.log (ncu_topo.sh's log; its "from root N" line
# names the root) and OUT_DIR/provenance.txt. The root of each graph is the
# sweep's first root in kernels/measured/h100/manifest.json, so the levels
# line up with the sweep's per-level medians. Generated graphs are rebuilt
# with "graphperf ... embedded:graph/NAME" (checked against the manifest's
# n and m); SNAP graphs are converted from GRAPHS (default .carry/graphs)
# with the manifest's load options.
#
# Environment: GRAPHPERF (default ./graphperf), GRAPHS, WORK (default
# /tmp/gp-ncu), GRAPHPERF_CACHE_DIR (default WORK/cache), NCU_ONLY (a
# space-separated list: profile only these graphs), NCU_LIST (a
# space-separated list of NAME|COUNT entries of the manifest's graphs that
# replaces NCU_GRAPHS, e.g. "facebook-combined| road-256x256|64": graphs
# never profiled before, to test the counter mapping on levels it was not
# chosen on). Graphs whose CSV exists in OUT_DIR are skipped, so the script
# resumes.
set -euo pipefail
OUTDIR=${1:?usage: kernels/measure-ncu.sh OUT_DIR}
GP=${GRAPHPERF:-./graphperf}
GRAPHS=${GRAPHS:-.carry/graphs}
WORK=${WORK:-/tmp/gp-ncu}
export GRAPHPERF_CACHE_DIR=${GRAPHPERF_CACHE_DIR:-$WORK/cache}
MAN=kernels/measured/h100/manifest.json
mkdir -p "$OUTDIR" "$WORK"

# name | launch count (empty: every level)
NCU_GRAPHS=(
  "rmat-s18-e8|"
  "kron-s18-e16|"
  "er-s18-e16|"
  "ws-s18-k16-p0.1|"
  "ba-s18-m8|"
  "cfg-normal-m16-s18|"
  "rmat-s20-e4|"
  "rmat-s20-e16|"
  "rmat-s22-e16|"
  "road-512x512|96"
  "soc-slashdot0902|"
  "email-enron|"
  "arxiv-cit-hep-th|"
)

if [ -n "${NCU_LIST:-}" ]; then
  read -r -a NCU_GRAPHS <<<"$NCU_LIST"
fi

# Metrics beyond ncu_topo.sh's own. The first group was accepted by ncu
# 2025.3.1 on the H100 before (simulate/warp/testdata/h100_counters.csv);
# the second is tried and dropped if ncu refuses it.
SURE=smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,smsp__inst_executed_op_global_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,launch__grid_size
TRY=smsp__inst_executed_op_global_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_write.sum,sm__cycles_active.avg

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /' || true
  nvcc --version 2>&1 | tail -1 | sed 's/^/nvcc: /' || true
  ncu --version 2>&1 | tail -1 | sed 's/^/ncu: /' || true
  echo "build: make -C kernels/cuda graphperf-bfs (NVCCFLAGS -O3 -std=c++17 -arch=sm_90 -lineinfo)"
  echo "ncu: --clock-control none --cache-control all --replay-mode kernel, via kernels/cuda/ncu_topo.sh"
} >"$OUTDIR/provenance.txt"

field() { # field NAME KEY: a manifest field of graph NAME
  python3 - "$MAN" "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
g = next(g for g in m["graphs"] if g["name"] == sys.argv[2])
v = g
for k in sys.argv[3].split("."):
    v = v[k] if isinstance(v, dict) else v[int(k)]
print(json.dumps(v) if isinstance(v, (dict, list)) else v)
PY
}

gpg_of() { # the .gpg of graph NAME, built or converted into WORK
  local name=$1 out=$WORK/$1.gpg
  if [ -s "$out" ]; then echo "$out"; return; fi
  local file
  file=$(field "$name" file 2>/dev/null || true)
  if [ -n "$file" ] && [ "$file" != None ]; then
    local flags=()
    [ "$(field "$name" load.undirected)" = True ] && flags+=(--undirected)
    [ "$(field "$name" load.drop_self_loops)" = True ] && flags+=(--drop-self-loops)
    [ "$(field "$name" load.drop_duplicates)" = True ] && flags+=(--drop-duplicates)
    [ "$(field "$name" load.compact)" = True ] && flags+=(--compact)
    "$GP" graph convert "${flags[@]}" "$GRAPHS/$file" -o "$out" >&2
  else
    "$GP" graph roots --max "embedded:graph/$name" >/dev/null
    cp "$(find "$GRAPHPERF_CACHE_DIR" -name "$name.gpg" | head -1)" "$out"
  fi
  echo "$out"
}

metrics=$SURE,$TRY
first=1
for entry in "${NCU_GRAPHS[@]}"; do
  name=${entry%%|*}
  count=${entry#*|}
  [ -s "$OUTDIR/$name.csv.gz" ] && continue
  if [ -n "${NCU_ONLY:-}" ] && [[ " $NCU_ONLY " != *" $name "* ]]; then continue; fi
  g=$(gpg_of "$name")
  root=$(field "$name" roots.0)
  echo "== $name root $root ($(date +%T))"
  export NCU_LAUNCH_COUNT=$count
  if ! NCU_EXTRA_METRICS=$metrics kernels/cuda/ncu_topo.sh kernels/cuda/graphperf-bfs "$g" "$root" "$WORK/$name.csv" >"$OUTDIR/$name.log" 2>&1; then
    if [ $first = 1 ] && [ "$metrics" != "$SURE" ]; then
      echo "ncu refused the extra metrics; retrying with $SURE" | tee -a "$OUTDIR/provenance.txt"
      tail -5 "$OUTDIR/$name.log"
      metrics=$SURE
      NCU_EXTRA_METRICS=$metrics kernels/cuda/ncu_topo.sh kernels/cuda/graphperf-bfs "$g" "$root" "$WORK/$name.csv" >"$OUTDIR/$name.log" 2>&1 \
        || { echo "$name failed:"; tail -5 "$OUTDIR/$name.log"; continue; }
    else
      echo "$name failed:"; tail -5 "$OUTDIR/$name.log"; continue
    fi
  fi
  first=0
  gzip -9 -c "$WORK/$name.csv" >"$OUTDIR/$name.csv.gz"
  tail -1 "$OUTDIR/$name.log"
done
echo "metrics: $metrics" >>"$OUTDIR/provenance.txt"
