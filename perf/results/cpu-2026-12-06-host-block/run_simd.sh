#!/bin/bash
# run_simd.sh THREADS: bench_predict's team kernel, the block walk with the scalar ISA and with the
# default (widest) ISA, one after the other per model (run in the folder holding bench_predict, the
# models and inputs of make_models.py), then cmp of every path's outputs against the team kernel's.
# bench_simd_1thread.log: run_simd.sh 1; bench_simd_2threads.log: run_simd.sh 2.
export OMP_NUM_THREADS=$1 OMP_PROC_BIND=false
for m in "softprob_999.ubj X9.f32 9" "d8_500.ubj X28.f32 28"; do
  for path in "team" "block --host-isa scalar" "block"; do
    tag=$(echo "$path" | tr -d ' -')
    echo "== threads $1 model ${m%% *} path $path $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    ./bench_predict $m 1,100,10000,100000 200 out_${tag}_${m%%.*}_ --host-path $path 2>&1 | grep -v "OMP_PROC\|In general\|For best\|For unit"
  done
  for f in out_team_${m%%.*}_*.f32; do
    for tag in blockhostisascalar block; do cmp "$f" "${f/team/$tag}" && echo "identical ${f/team/$tag}"; done
  done
done
