#!/bin/bash
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
for m in "softprob_999.ubj X9.f32 9" "d8_500.ubj X28.f32 28"; do
  for path in team block; do
    echo "== 1 thread model ${m%% *} path $path $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    ./bench_predict $m 1,100,10000,100000 200 out1_${path}_${m%%.*}_ --host-path $path 2>&1 | grep -v "OMP_PROC\|In general\|For best\|For unit"
  done
done
