#!/bin/bash
# run.sh ROUNDS: bench_predict's block walk and QuickScorer (--host-path block|quickscorer), one
# process each, interleaved per (round, threads, model), then cmp of every QuickScorer output against
# the block walk's. Run in a folder holding bench_predict, the models of predict_models.tar.xz and the
# inputs X9.f32 / X28.f32 (perf/make_predict_suite_models.py write_inputs).
export OMP_PROC_BIND=false
for round in $(seq 1 "$1"); do
  for threads in 1 2; do
    export OMP_NUM_THREADS=$threads
    for m in "binary_d6_999.json X28.f32 28" "softprob_999.ubj X9.f32 9"; do
      for path in block quickscorer; do
        echo "== round $round threads $threads model ${m%% *} path $path $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
        ./bench_predict $m 1,100,10000 400 out_${path}_${threads}_${m%%.*}_ --host-path $path --budget-ms 1000 2>&1 |
          grep -v "OMP_PROC\|In general\|For best\|For unit"
      done
      for f in out_block_${threads}_${m%%.*}_*.f32; do cmp "$f" "${f/block/quickscorer}" && echo "identical ${f/block/quickscorer}"; done
    done
  done
done
echo "== d8_500 (depth 8): $(./bench_predict d8_500.ubj X28.f32 28 1 1 --host-path quickscorer 2>&1 | grep -o 'QuickScorer cannot.*')"
