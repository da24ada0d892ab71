#!/bin/sh
# emu/check_emu.sh: graphperf-la built for the CPU emulation
# (emu/cuda_runtime.h; make la-emu) on tiny graphs of every shape smoke_la.sh
# uses: every implementation's result checked by the runner against its CPU
# reference and against the first implementation (exit 2 on a mismatch
# stops here). Small blocks and grids keep it to a minute or two; one run
# takes the default block size and grid cap. (make check-la-emu)
#
#   emu/check_emu.sh [LA-EMU] [GPG-GEN] [GPW-GEN] [DIR]
set -eu
LA=${1:-./la-emu}
GEN=${2:-./gpg-gen}
GPW=${3:-./gpw-gen}
DIR=${4:-/tmp/graphperf-emu}
mkdir -p "$DIR"
"$GEN" rmat 9 8 1 "$DIR/rmat9.gpg" >/dev/null
"$GEN" rmat 8 8 2 "$DIR/rmat8u.gpg" --undirected >/dev/null
"$GEN" uniform 600 2400 3 "$DIR/uniform.gpg" --no-reverse >/dev/null
"$GEN" star 500 4 "$DIR/star.gpg" >/dev/null
"$GEN" grid 12 "$DIR/grid.gpg" >/dev/null
"$GEN" chain 40 "$DIR/chain.gpg" >/dev/null
for g in rmat9 rmat8u uniform star grid chain; do "$GPW" "$DIR/$g.gpg"; done
run() { "$LA" "$@" --reps 1 --warmup 0 --iterations 4 2>&1 | grep -v ' ok$' || true; }
run --graph "$DIR/rmat9.gpg" --roots 0,7 --impl all --block-size 64 --grid-cap 2 --out "$DIR/rmat9.jsonl"
run --graph "$DIR/rmat8u.gpg" --roots 3 --impl all --block-size 32 --grid-cap 3 --out "$DIR/rmat8u.jsonl"
run --graph "$DIR/uniform.gpg" --roots 9 --impl all --block-size 64 --grid-cap 2 --no-flush --out "$DIR/uniform.jsonl"
run --graph "$DIR/star.gpg" --roots 0,3 --impl all --block-size 64 --grid-cap 1 --out "$DIR/star.jsonl"
run --graph "$DIR/grid.gpg" --roots 0,77 --impl 'bfs,sssp' --block-size 32 --grid-cap 2 --out "$DIR/grid.jsonl"
run --graph "$DIR/chain.gpg" --roots 0 --impl all --out "$DIR/chain.jsonl"
bad=$(cat "$DIR"/*.jsonl | grep -c '"type":"error"' || true)
totals=$(cat "$DIR"/*.jsonl | grep -c '"type":"total"' || true)
echo "check-la-emu: $totals results, $bad disagreements"
[ "$bad" -eq 0 ]
