#!/bin/bash
# run.sh THREADS ROUNDS: bench_predict's team and block host paths, one after the other per model,
# the whole sweep ROUNDS times (run in the folder holding bench_predict, the models and inputs of
# make_models.py). bench_2threads.log: run.sh 2 2; bench_1thread.log: run.sh 1 1.
export OMP_NUM_THREADS=$1 OMP_PROC_BIND=false
for round in $(seq "$2"); do
  for m in "softprob_999.ubj X9.f32 9" "d8_500.ubj X28.f32 28"; do
    for path in team block; do
      echo "== round $round threads $1 model ${m%% *} path $path $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
      ./bench_predict $m 1,100,10000,100000 200 out_${path}_${m%%.*}_ --host-path $path 2>&1 | grep -v "OMP_PROC\|In general\|For best\|For unit"
    done
  done
done
