#!/usr/bin/env bash
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O/r" /tmp/k3 /tmp/m
tar xJf gpucarry/kb3.tar.xz -C /tmp/k3; tar xJf gpucarry/predict_models.tar.xz -C /tmp/m
export LD_LIBRARY_PATH=/tmp/k3/lib
note() { echo "[$(date -u +%T)] $*" | tee -a "$O/r/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/r/gpu.csv"
rm -f /work/shared; ln -sfn /work/main/gpucarry/shared /work/shared
mkdir -p /work/main/build-gpu && cp /tmp/k3/bin/kboost /work/main/build-gpu/kboost && cd /work/main/build-gpu
T="taskset -c 0-3"
timeout 100 $T /tmp/k3/bin/kboost_tests_CUDA "[shared]" > "$O/r/suite_shared.txt" 2>&1; note "CUDA [shared] rc $?"; tail -n 3 "$O/r/suite_shared.txt"
timeout 120 $T /tmp/k3/bin/kboost_tests_CUDA "~[shared]" > "$O/r/suite_rest.txt" 2>&1; note "CUDA ~[shared] rc $?"; tail -n 3 "$O/r/suite_rest.txt"
grep -h -B2 -A8 "FAILED" "$O/r/suite_shared.txt" "$O/r/suite_rest.txt" | head -30
cd /tmp
timeout 80 ncu --set full --csv --page details /tmp/k3/bin/bench_device_forest /tmp/m/binary_d6_999.json 1 10000 > /tmp/ncu_forest.csv 2>/dev/null
note "ncu forest rc $?"; gzip -c /tmp/ncu_forest.csv > "$O/r/ncu_device_forest_10000.csv.gz"
grep '"Duration"' /tmp/ncu_forest.csv | awk -F'","' '{print substr($5,1,100), $15}' | tail -12
/tmp/k3/bin/bench_shap gen --rows 5000 --train-rows 1000 --features 28 --out-dir /tmp/shapd > /dev/null 2>&1
timeout 90 ncu --set full -k regex:shap --launch-count 4 --csv --page details /tmp/k3/bin/bench_shap time --model /tmp/m/d8_500.ubj \
  --data /tmp/shapd/eval.bin --repeats 1 --kernel paths > /tmp/ncu_shap.csv 2>/dev/null; note "ncu shap rc $?"
gzip -c /tmp/ncu_shap.csv > "$O/r/ncu_shap_paths_d8_500_5000.csv.gz"
grep '"Duration"' /tmp/ncu_shap.csv | awk -F'","' '{print substr($5,1,100), $15}'
tar czf "$O/r.tgz" -C "$O" r && rm -rf "$O/r"
