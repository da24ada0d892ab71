#!/bin/sh
# smoke_la.sh: every graphperf-la implementation on small generated graphs
# (make smoke-la): power-law directed and undirected, a random graph
# without a stored reverse CSR, a star (one huge row), a grid and a chain
# (long diameters: hundreds of SSSP iterations), with capped grids and a
# small block. The runner checks every result against its CPU reference
# and against the first implementation (exit 2 on a mismatch stops here).
#
#   ./smoke_la.sh [RUNNER] [GPG-GEN] [DIR]
set -eu
LA=${1:-./graphperf-la}
GEN=${2:-./gpg-gen}
DIR=${3:-/tmp/graphperf-smoke/la}
GPW=${GPW:-./gpw-gen}
mkdir -p "$DIR"
[ -x "$GPW" ] || make gpw-gen >/dev/null
"$GEN" rmat 14 8 1 "$DIR/rmat14.gpg"
"$GEN" rmat 13 16 2 "$DIR/rmat13u.gpg" --undirected
"$GEN" uniform 50000 200000 3 "$DIR/uniform.gpg" --no-reverse
"$GEN" star 20000 4 "$DIR/star.gpg"
"$GEN" grid 120 "$DIR/grid.gpg"
"$GEN" chain 500 "$DIR/chain.gpg"
for g in rmat14 rmat13u uniform star grid chain; do "$GPW" "$DIR/$g.gpg"; done
"$LA" --graph "$DIR/rmat14.gpg" --roots 0,1,777 --impl all --reps 2 --warmup 1 --iterations 20 --out "$DIR/rmat14.jsonl"
"$LA" --graph "$DIR/rmat13u.gpg" --roots 3,5 --impl all --reps 2 --warmup 0 --iterations 10 --out "$DIR/rmat13u.jsonl"
"$LA" --graph "$DIR/uniform.gpg" --roots 9 --impl all --reps 1 --warmup 0 --iterations 10 --grid-cap 0 --out "$DIR/uniform.jsonl"
"$LA" --graph "$DIR/star.gpg" --roots 0,3 --impl all --reps 1 --warmup 0 --iterations 10 --block-size 64 --out "$DIR/star.jsonl"
"$LA" --graph "$DIR/grid.gpg" --roots 0,7260 --impl all --reps 1 --warmup 0 --iterations 5 --grid-cap 7 --out "$DIR/grid.jsonl"
"$LA" --graph "$DIR/chain.gpg" --roots 0 --impl 'bfs,sssp' --reps 1 --warmup 0 --no-flush --out "$DIR/chain.jsonl"
echo "smoke-la: every graphperf-la implementation agrees with its reference on every graph"
