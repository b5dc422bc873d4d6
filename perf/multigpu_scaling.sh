#!/usr/bin/env bash
# Multi-GPU training on one host, one rank per GPU (node-local rank -> device): strong and weak
# scaling on 10M x 28 and 100M x 28 synthetic rows, 100 rounds, depth 8, every strong-scaling model
# checked byte-identical to the 1-rank model (perf/mpi_scaling.sh does the runs and the checks).
#   perf/multigpu_scaling.sh --kboost <CUDA kboost> --synth <make_synthetic> [--gpus "1 2 4 8"]
#                            [--sizes "10000000 100000000"] [--out DIR]
# (--gpus: rank counts, default 1, 2, 4, 8 up to the GPUs present; --sizes: total rows of the
# strong runs, each also run weak with size / largest rank count rows per rank)
# Writes DIR/{10m,100m}-{strong,weak}/scaling.csv: time per round, histogram allreduce time and
# volume, rank 0's peak device memory, model md5, held-out logloss. Run in one device call on a
# machine with several GPUs (NCCL is not used: the reductions go through MPI).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kboost=$repo/build/kboost synth=$repo/build/tests/make_synthetic gpus="" sizes="10000000 100000000"
out=$repo/perf/results/multigpu-$(date +%Y-%m-%d)
while [ $# -gt 0 ]; do
  case $1 in
    --kboost) kboost=$2 ;; --synth) synth=$2 ;; --gpus) gpus=$2 ;; --sizes) sizes=$2 ;; --out) out=$2 ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "multigpu_scaling: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
if [ -z "$gpus" ]; then
  n=$(nvidia-smi -L | wc -l)
  for g in 1 2 4 8; do [ "$g" -le "$n" ] && gpus="$gpus $g"; done
fi
for rows in $sizes; do
  tag=$((rows / 1000000))m
  bash "$repo/perf/mpi_scaling.sh" --kboost "$kboost" --synth "$synth" --ranks "$gpus" --rows "$rows" \
    --rounds 100 --depth 8 --mode strong --extra "--kboost_hist_tune 0" --out "$out/$tag-strong"
  per_gpu=$((rows / $(echo $gpus | awk '{ print $NF }')))
  bash "$repo/perf/mpi_scaling.sh" --kboost "$kboost" --synth "$synth" --ranks "$gpus" --rows "$per_gpu" \
    --rounds 100 --depth 8 --mode weak --extra "--kboost_hist_tune 0" --out "$out/$tag-weak"
done
