#!/usr/bin/env bash
# device call C: the CUDA suite (non-shared cases) with the device-View training test, from the CI-style CUDA build
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O/r" /tmp/k5
note() { echo "[$(date -u +%T)] $*" | tee -a "$O/r/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/r/gpu.csv"
tar xJf gpucarry/kb5.tar.xz -C /tmp/k5
export LD_LIBRARY_PATH=/tmp/k5/lib
# the test binary's compiled-in paths: /work/ci-clone/kboost (sources, registry data, CLI)
mkdir -p /work/ci-clone && ln -sfn /work/main /work/ci-clone/kboost
mkdir -p /work/main/build-cuda && cp /tmp/k5/bin/kboost /work/main/build-cuda/kboost && cd /work/main/build-cuda
T="taskset -c 0-3"
timeout 100 $T /tmp/k5/bin/kboost_tests_CUDA "*fit from X where*" > "$O/r/new_case.txt" 2>&1; note "new library case rc $?"; tail -n 3 "$O/r/new_case.txt"
grep -B3 -A15 "FAILED" "$O/r/new_case.txt" | head -50
timeout 60 $T /tmp/k5/bin/kboost_tests_CUDA "*diverges*" > "$O/r/diverge.txt" 2>&1; note "diverge case rc $?"; tail -n 3 "$O/r/diverge.txt"
timeout 300 $T /tmp/k5/bin/kboost_tests_CUDA "~[shared]" > "$O/r/suite_rest.txt" 2>&1; note "CUDA ~[shared] rc $?"; tail -n 3 "$O/r/suite_rest.txt"
grep -h -B2 -A12 "FAILED" "$O/r/suite_rest.txt" | head -60
cd /tmp
timeout 120 $T /tmp/k5/bin/bench_train_gpu --rows 500000 --features 28 --rounds 20 --depth 8 --repeats 2 --sketch exact_quantile \
  --compare-input 1 > "$O/r/train_input_exact.log" 2>&1; note "bench exact rc $?"; grep -E "median|identical" "$O/r/train_input_exact.log"
tar czf "$O/r.tgz" -C "$O" r && rm -rf "$O/r"
