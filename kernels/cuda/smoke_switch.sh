#!/bin/sh
# smoke_switch.sh: the switching BFS (graphperf-bfs --impl switch, README.md
# "Switching BFS") on small generated graphs, with decision files that
# change the implementation at every level through every kind (queue,
# dobfs, edge lists, pull, virtual warps), so that every conversion
# (depth-to-queue, depth-to-bitmap, queue-to-bitmap, bitmap-to-queue) runs.
# Every run is checked against the CPU reference by the runner itself
# (exit status 2 on a mismatch stops this script).
#
#   ./smoke_switch.sh [RUNNER] [GPG-GEN] [DIR]      (make smoke-switch)
#
# Writes DIR/*.gpg, the decision files DIR/*.txt and DIR/*.jsonl.
set -eu
BFS=${1:-./graphperf-bfs}
GEN=${2:-./gpg-gen}
DIR=${3:-/tmp/graphperf-smoke-switch}
REPS=${REPS:-3}
mkdir -p "$DIR"

"$GEN" rmat 16 8 1 "$DIR/rmat16.gpg"
"$GEN" rmat 14 16 2 "$DIR/rmat14u.gpg" --undirected
"$GEN" uniform 100000 400000 3 "$DIR/uniform.gpg" --no-reverse
"$GEN" star 50000 4 "$DIR/star.gpg"
"$GEN" grid 300 "$DIR/grid.gpg"
"$GEN" chain 300 "$DIR/chain.gpg"

# decide NAME SHIFT IMPL...: level i of every root runs IMPL number
# (i + SHIFT) mod count, for levels 0..1023; later levels the default.
decide() {
  name=$1
  sh=$2
  shift 2
  n=$#
  f="$DIR/$name-$sh.txt"
  {
    echo "# smoke_switch.sh: pattern $name, shifted by $sh"
    echo "source smoke_switch.sh $name+$sh"
    i=0
    while [ $i -lt 1024 ]; do
      k=$(((i + sh) % n + 1))
      eval "impl=\${$k}"
      echo "* $i $impl"
      i=$((i + 1))
    done
    echo "default topo"
  } >"$f"
}

MIX="queue edge-list/atomic dobfs vertex-pull-warp8/block-reduce rev-struct-edge-list/bulk dobfs dobfs
vertex-push-warp16/warp-reduce topo queue vertex-pull/atomic struct-edge-list/warp-reduce
rev-edge-list/block-reduce vertex-push/bulk vertex-pull-warp32/atomic vertex-push-warp4/atomic queue dobfs"
for s in 0 1 2 5; do
  # shellcheck disable=SC2086
  decide mix "$s" $MIX
done
for s in 0 1; do
  decide queue-dobfs "$s" queue dobfs                      # queue-to-bitmap, bitmap-to-queue
  decide topo-dobfs "$s" topo dobfs                        # depth-to-bitmap, depth-to-queue
  decide pull-queue "$s" vertex-pull-warp32/warp-reduce queue  # depth-to-queue after pull levels
done
decide dobfs 0 dobfs  # dobfs at every level: its own directions, as standalone dobfs
decide queue 0 queue  # queue at every level: no conversion after level 0

ALL="mix-0 mix-1 mix-2 mix-5 queue-dobfs-0 queue-dobfs-1 topo-dobfs-0 topo-dobfs-1 pull-queue-0 pull-queue-1 dobfs-0 queue-0"
SOME="mix-0 mix-1 queue-dobfs-1 topo-dobfs-0"
# run GRAPH ROOTS "DECISIONS" [RUNNER OPTIONS]
run() {
  g=$1
  roots=$2
  ds=$3
  shift 3
  for d in $ds; do
    "$BFS" --graph "$DIR/$g.gpg" --roots "$roots" --impl switch --decisions "$DIR/$d.txt" --reps "$REPS" --warmup 1 \
      --out "$DIR/$g.$d.jsonl" "$@"
  done
}
run rmat16 0,1,12345 "$ALL"
run rmat14u 0,7 "$ALL"
run star 0,3 "$ALL" --block-size 128
run uniform 5 "$SOME" --chunk 3 --grid-cap 0
run grid 0,45150 "$SOME" --grid-cap 7
run chain 0 "$SOME"
# Beside the standalone implementations, in one output (the switch is also
# compared with the first implementation's depths), and with plain claims.
"$BFS" --graph "$DIR/rmat16.gpg" --roots 0,1 --impl queue,dobfs,topo,switch --decisions "$DIR/dobfs-0.txt" \
  --reps "$REPS" --warmup 1 --out "$DIR/rmat16.beside-dobfs.jsonl"
"$BFS" --graph "$DIR/rmat16.gpg" --roots 0,77 --impl switch --decisions "$DIR/mix-1.txt" --claim plain \
  --reps 2 --warmup 0 --out "$DIR/rmat16.plain.jsonl"
echo "smoke-switch: every switching traversal agrees with the CPU reference"
