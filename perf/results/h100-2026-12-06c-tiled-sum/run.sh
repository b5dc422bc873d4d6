#!/usr/bin/env bash
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O/r" /tmp/k2 /tmp/m
tar xJf gpucarry/kb2.tar.xz -C /tmp/k2; tar xJf gpucarry/predict_models.tar.xz -C /tmp/m
export LD_LIBRARY_PATH=/tmp/k2/lib
note() { echo "[$(date -u +%T)] $*" | tee -a "$O/r/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/r/gpu.csv"
rm -f /work/shared; ln -sfn /work/main/gpucarry/shared /work/shared; ls /work/shared/data | wc -l
mkdir -p /work/main/build-gpu && cp /tmp/k2/bin/kboost /work/main/build-gpu/kboost
T="taskset -c 0-3"
for m in binary_d6_999.json d8_500.ubj; do
  timeout 40 $T /tmp/k2/bin/bench_predict_gpu --model /tmp/m/$m --batches 1,2,8,16,17,100 --trials 30 --paths batch \
    --csv "$O/r/small_${m%.*}.csv" > "$O/r/small_${m%.*}.log" 2>&1; note "small $m rc $?"; cut -d, -f3,5,9 "$O/r/small_${m%.*}.csv" | tr '\n' ' '; echo
done
timeout 40 ncu --set full --launch-skip 12 --launch-count 2 --csv --page details \
  /tmp/k2/bin/bench_predict_gpu --model /tmp/m/binary_d6_999.json --batches 1 --trials 4 --paths batch > /tmp/ncu_1.csv 2>/dev/null
note "ncu rc $?"; gzip -c /tmp/ncu_1.csv > "$O/r/ncu_tiled_d6_1.csv.gz"; grep '"Duration"' /tmp/ncu_1.csv | awk -F'","' '{print substr($5,1,70), $15}'
cd /work/main/build-gpu
CASE="csr CUDA: training on CSR input gives the model bytes of its dense copy"
timeout 60 gdb -q -batch -ex run -ex bt -ex 'x/6gx $sp' -ex 'info symbol *(long*)$sp' -ex 'info symbol *(long*)($sp+8)' \
  -ex 'info symbol *(long*)($sp+16)' --args /tmp/k2/bin/kboost_tests_CUDA "$CASE" > "$O/r/csr_gdb.txt" 2>&1; note "gdb rc $?"
grep -vE "^\[New Thread|^\[Thread|^$|Thread 0x" "$O/r/csr_gdb.txt" | tail -25
timeout 100 $T /tmp/k2/bin/kboost_tests_CUDA "[shared]" > "$O/r/suite_shared.txt" 2>&1; note "CUDA [shared] rc $?"; tail -n 3 "$O/r/suite_shared.txt"
timeout 190 $T /tmp/k2/bin/kboost_tests_CUDA "~[shared]" "~$CASE" > "$O/r/suite_rest.txt" 2>&1; note "CUDA ~[shared] but the csr case rc $?"; tail -n 3 "$O/r/suite_rest.txt"
grep -h -B2 -A8 "FAILED" "$O/r/suite_shared.txt" "$O/r/suite_rest.txt" | head -30
cd /; tar czf "$O/r.tgz" -C "$O" r && rm -rf "$O/r"
