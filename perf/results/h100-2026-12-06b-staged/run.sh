#!/usr/bin/env bash
# device call: CUDA suite of the CI clone's build (host -O0) + staged/layered kernel timings
set -u
R=$PWD O=${OUT:-/tmp/out}; mkdir -p "$O" /work/ci-clone /tmp/m; ln -sfn "$R" /work/ci-clone/kboost
K=/tmp/k; mkdir -p $K; tar xJf build-pkg/ci/gpu-final.tar.xz -C $K; tar xJf build-pkg/ci/predict_models.tar.xz -C /tmp/m
export LD_LIBRARY_PATH=$K/lib
note() { echo "[$(date -u +%T)] $*" | tee -a "$O/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$O/gpu.csv"
mkdir -p build-cuda && cp $K/bin/kboost build-cuda/kboost
(cd build-cuda && timeout 200 $K/bin/kboost_tests_CUDA "~[shared]" > "$O/suite.txt" 2>&1); note "suite rc $?"; tail -n 3 "$O/suite.txt"
grep -E "FAILED|failed" "$O/suite.txt" | head -20
T="taskset -c 0-3"
$T timeout 150 bash perf/make_deep_forest_device.sh $K/bin/kboost /tmp/m/deep400.json 400 > "$O/deep.log" 2>&1; note "deep400 rc $?"
P=batch,map:blocking,map:blocking/staged3,map:blocking/staged5,map:blocking/layered8,map:blocking/layered8/staged3,map:pairs,tuned
for m in binary_d6_999.json deep400.json d8_500.ubj; do
  [ -f /tmp/m/$m ] || continue
  KBOOST_TUNE_DIR=$O/tune timeout 100 $T $K/bin/bench_predict_gpu --model /tmp/m/$m --batches 1,100,10000,100000,1000000 --trials 30 \
    --paths $P --csv "$O/paths_${m%.*}.csv" > "$O/paths_${m%.*}.log" 2>&1; note "paths $m rc $?"
done
grep -ci "bits equal to the batch path: NO" "$O"/paths_*.log
grep -h "predict tune" "$O"/paths_*.log | head -20
for f in "$O"/paths_*.csv; do echo "== $f"; cut -d, -f1-9 "$f" | column -s, -t | head -60; done
