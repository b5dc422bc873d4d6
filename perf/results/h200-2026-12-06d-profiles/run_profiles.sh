#!/usr/bin/env bash
# device call P: ncu of DeviceForest (thread and team per particle) at 10,000 rows and of path SHAP
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O/r" /tmp/k3 /tmp/m
note() { echo "[$(date -u +%T)] $*" | tee -a "$O/r/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/r/gpu.csv"
tar xJf gpucarry/kb3lite.tar.xz -C /tmp/k3; tar xJf gpucarry/predict_models.tar.xz -C /tmp/m
export LD_LIBRARY_PATH=/tmp/k3/lib
T="taskset -c 0-3"
timeout 100 ncu --set full --kernel-name-base demangled -k regex:"lambda.*Team" --launch-count 2 --csv --page details \
  /tmp/k3/bin/bench_device_forest /tmp/m/binary_d6_999.json 1 10000 > /tmp/ncu_forest.csv 2>/tmp/ncu_forest.err
note "ncu forest rc $?"; gzip -c /tmp/ncu_forest.csv > "$O/r/ncu_device_forest_team_10000.csv.gz"; tail -2 /tmp/ncu_forest.err
grep '"Duration"' /tmp/ncu_forest.csv | awk -F'","' '{print substr($5,1,100), $15}' | tail -8
python3 gpucarry/ncu_summary.py /tmp/ncu_forest.csv > "$O/r/ncu_summary.txt" 2>&1; head -60 "$O/r/ncu_summary.txt"
tar czf "$O/r.tgz" -C "$O" r && rm -rf "$O/r"
