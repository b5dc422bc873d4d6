#!/bin/bash
# A/B: team vs block, 2 threads, alternated twice
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false
for round in 1 2; do
for m in "softprob_999.ubj X9.f32 9" "d8_500.ubj X28.f32 28"; do
  for path in team block; do
    echo "== round $round model ${m%% *} path $path $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    ./bench_predict $m 1,100,10000,100000 200 out_${path}_${m%%.*}_ --host-path $path 2>&1 | grep -v "OMP_PROC\|In general\|For best\|For unit"
  done
done
done
