#!/bin/bash
# How testdata/h100_counters.csv was measured (on the device machine, from
# the repository root). Write the three graphs first, here:
#
#   go test ./simulate/warp -run TestWriteMeasuredGraphs -gpg-dir /tmp/gpg
#
# then, with the graphs beside the repository and $OUT an output folder:
#
#   bash simulate/warp/testdata/measure_h100.sh /tmp/gpg
#   python3 simulate/warp/testdata/ncu_to_counters.py $OUT > counters.csv
#
# The SASS the simulator mirrors came from `cuobjdump -sass graphperf-bfs`.
set -u
D=$1
cd kernels/cuda
make graphperf-bfs || exit 1
M=smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,smsp__inst_executed_op_global_red.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,launch__grid_size
IMPLS=topo,vertex-push/atomic,vertex-pull/atomic,edge-list/atomic,struct-edge-list/atomic,rev-edge-list/atomic
IMPLS=$IMPLS,rev-struct-edge-list/atomic,vertex-push-warp4/atomic,vertex-push-warp32/atomic,vertex-pull-warp4/atomic
IMPLS=$IMPLS,vertex-pull-warp32/atomic,vertex-push/warp-reduce,queue,dobfs
for g in fig2:0 rmat12:0 urmat12:211; do
  name=${g%%:*}; root=${g##*:}
  ncu --clock-control none --csv --metrics $M -k regex:'^k_' ./graphperf-bfs --graph $D/$name.gpg --roots $root \
    --impl $IMPLS --reps 1 --warmup 0 --no-flush --out $OUT/$name.jsonl > $OUT/$name.ncu.csv
done
