#!/usr/bin/env bash
# Strong and weak scaling of distributed training (`kboost train` under MPI) on synthetic data
# (tests/mpi/make_synthetic.cpp: features uniform in [-1, 1), 5 % missing, a binary label).
#   perf/mpi_scaling.sh [options]
#     --kboost PATH       the kboost CLI (default build/kboost)
#     --synth PATH        make_synthetic (default build/tests/make_synthetic)
#     --launch "CMD"      launcher, ranks appended (default "mpirun --bind-to none -np"; on a
#                         cluster: --launch "srun --ntasks")
#     --ranks "1 2 4"     rank counts            --rows N     rows (strong; per rank for weak)
#     --features F        (28)                   --rounds R   (100)     --depth D (8)
#     --threads T         OMP_NUM_THREADS per rank (1)        --out DIR (perf/results/mpi-<date>)
#     --mode strong|weak|both (both)             --extra "ARGS" more `kboost train` arguments
# Writes DIR/scaling.csv: mode, ranks, rows, seconds (wall), seconds per round, histogram
# allreduce seconds, MiB per rank, rank 0's peak device and host MiB (Kokkos allocations), model
# md5, held-out logloss; strong-scaling models must be the
# same bytes at every rank count (checked; a mismatch fails the script).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kboost=$repo/build/kboost synth=$repo/build/tests/make_synthetic
launch="mpirun --bind-to none -np" ranks="1 2 4" rows=1000000 features=28 rounds=100 depth=8 threads=1
out=$repo/perf/results/mpi-$(date +%Y-%m-%d) mode=both extra=""
while [ $# -gt 0 ]; do
  case $1 in
    --kboost) kboost=$2 ;; --synth) synth=$2 ;; --launch) launch=$2 ;; --ranks) ranks=$2 ;;
    --rows) rows=$2 ;; --features) features=$2 ;; --rounds) rounds=$2 ;; --depth) depth=$2 ;;
    --threads) threads=$2 ;; --out) out=$2 ;; --mode) mode=$2 ;; --extra) extra=$2 ;;
    -h|--help) sed -n 2,16p "$0"; exit 0 ;;
    *) echo "mpi_scaling: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[ "$(id -u)" -eq 0 ] && [[ $launch == mpirun* ]] && launch="${launch/mpirun/mpirun --allow-run-as-root --oversubscribe}"
mkdir -p "$out"
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=false
csv=$out/scaling.csv
echo "mode,ranks,rows,features,rounds,depth,seconds,seconds_per_round,allreduce_s,allreduce_mib_per_rank,peak_device_mib,peak_host_mib,md5,valid_logloss" > "$csv"
"$synth" "$out/valid.h5" 100000 "$features" 0.05 99 binary

run() {  # run <mode> <ranks> <rows> <data>
  local m=$1 n=$2 r=$3 data=$4 log=$out/$1-$2.log
  local t0=$SECONDS
  local start=$(date +%s.%N)
  # shellcheck disable=SC2086
  $launch "$n" "$kboost" train --data "$data" --objective binary:logistic --num-round "$rounds" \
    --max_depth "$depth" --max_bin 256 --eval "valid=$out/valid.h5" --eval_metric logloss \
    --model-out "$out/$m-$n.json" $extra > "$log" 2>&1
  local end=$(date +%s.%N)
  local secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  local comm=$(awk '/^communication:/ { for (i = 1; i <= NF; ++i) if ($i == "allreduce") print $(i + 1) }' "$log")
  local mib=$(awk '/^communication:/ { for (i = 1; i <= NF; ++i) if ($i == "MiB" && $(i + 1) == "per" && $(i + 2) == "rank") print $(i - 1) }' "$log")
  local loss=$(grep '^\[' "$log" | tail -1 | sed 's/.*logloss://')
  local dev=$(awk '/^peak memory:/ { print $3 }' "$log") host=$(awk '/^peak memory:/ { print $7 }' "$log")
  local md5=$(md5sum < "$out/$m-$n.json" | cut -c1-32)
  echo "$m,$n,$r,$features,$rounds,$depth,$secs,$(awk -v s="$secs" -v r="$rounds" 'BEGIN { printf "%.4f", s / r }'),${comm:-0},${mib:-0},${dev:-0},${host:-0},$md5,$loss" >> "$csv"
  echo "$m ranks=$n rows=$r: ${secs} s, allreduce ${comm:-0} s, ${mib:-0} MiB/rank, logloss $loss ($((SECONDS - t0)) s)"
}

if [ "$mode" != weak ]; then
  "$synth" "$out/strong.h5" "$rows" "$features" 0.05 1 binary
  ref=""
  for n in $ranks; do
    run strong "$n" "$rows" "$out/strong.h5"
    md5=$(md5sum < "$out/strong-$n.json" | cut -c1-32)
    [ -z "$ref" ] && ref=$md5
    [ "$md5" = "$ref" ] || { echo "mpi_scaling: $n ranks wrote another model ($md5, 1st: $ref)" >&2; exit 1; }
  done
  echo "strong scaling: every model $ref"
  rm -f "$out/strong.h5"
fi
if [ "$mode" != strong ]; then
  for n in $ranks; do
    "$synth" "$out/weak.h5" $((rows * n)) "$features" 0.05 1 binary
    run weak "$n" $((rows * n)) "$out/weak.h5"
    rm -f "$out/weak.h5"
  done
fi
rm -f "$out/valid.h5" "$out"/*.json
if command -v column >/dev/null; then column -t -s, "$csv"; else cat "$csv"; fi
