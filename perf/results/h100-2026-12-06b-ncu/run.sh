#!/usr/bin/env bash
# device call: ncu profiles of the default predict path (999 trees depth 6, and deep400 if made)
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O" /tmp/m
K=/tmp/k; mkdir -p $K; tar xJf build-pkg/ci/gpu-final.tar.xz -C $K; tar xJf build-pkg/ci/predict_models.tar.xz -C /tmp/m
export LD_LIBRARY_PATH=$K/lib
nvidia-smi --query-gpu=name --format=csv,noheader; ncu --version | tail -n 1
for b in 1 10000 1000000; do
  timeout 150 ncu --set full --launch-skip 12 --launch-count 4 --csv --page details \
    $K/bin/bench_predict_gpu --model /tmp/m/binary_d6_999.json --batches $b --trials 4 --paths batch > "$O/ncu_d6_$b.csv" 2> "$O/ncu_d6_$b.err"
  echo "ncu batch $b rc $?"
done
python3 perf/results/h100-2026-12-06b-ncu/ncu_summary.py "$O"/ncu_d6_*.csv | tee "$O/ncu_summary.txt"
