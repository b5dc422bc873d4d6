#!/usr/bin/env bash
# GPU training, every shape of docs/training.md's table, kboost beside upstream XGBoost
# `device=cuda`, in one call on the GPU machine: per shape, perf/upstream_gpu/run.sh bench (kboost's
# perf/bench_train_gpu writes the data and its held-out rows and times its fits through
# Booster::train from host data; upstream's driver times its fits on the same file), then
# perf/train_suite_summary.py prints the table (first fit and later fits of each tool, the ratios,
# the held-out metric of each).
#   perf/train_suite_gpu.sh <upstream dir> <kboost CUDA build> <out dir>
# <upstream dir>: from `perf/upstream_gpu/run.sh build` or `unpack` (its xgb_train_gpu is used).
# SUITE_SHAPES picks shapes by name (default: all, in this order):
#   d8_1m       1M × 28, 500 rounds, depth 8
#   d6_10m      10M × 28, 10 rounds, depth 6
#   d8_10m      10M × 28, 100 rounds, depth 8
#   lossguide   4M × 60, every third feature missing in half the rows, lossguide 255 leaves, 200 rounds
#   softprob    2M × 40, multi:softprob 7 classes, depth 8, 100 rounds
# Before them, a new process's fit (no warm-up, empty CUDA compute cache) of the first shape:
# first_process.csv/.log.
# SUITE_REPEATS (2): kboost's timed fits after its first; SUITE_UPSTREAM_FITS (2): upstream's fits
# (the first builds its sketch, later ones reuse it); SUITE_TEST_ROWS (200000) held-out rows;
# SUITE_SKETCH (upstream_gpu): kboost_sketch_method.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -eq 3 ] || { echo "usage: perf/train_suite_gpu.sh <upstream dir> <kboost CUDA build> <out dir>" >&2; exit 2; }
xgb=$1 kb=$2 out=$3
[ -x "$xgb/xgb_train_gpu" ] || { echo "$xgb/xgb_train_gpu: missing (run.sh build or unpack first)" >&2; exit 2; }
[ -x "$kb/perf/bench_train_gpu" ] || { echo "$kb/perf/bench_train_gpu: missing" >&2; exit 2; }
mkdir -p "$out"
export BENCH_REPEATS=${SUITE_REPEATS:-2} BENCH_UPSTREAM_FITS=${SUITE_UPSTREAM_FITS:-2}
export BENCH_TEST_ROWS=${SUITE_TEST_ROWS:-200000} BENCH_LOOKAHEAD_PAIR=0
sketch=${SUITE_SKETCH:-upstream_gpu}

shape() {  # name rows rounds depth [VAR=value ...]: one run.sh bench with the shape's variables
  local name=$1 rows=$2 rounds=$3 depth=$4
  shift 4
  echo "== $name: $rows rows, $rounds rounds, depth $depth $* ($(date +%T))"
  env "$@" bash "$repo/perf/upstream_gpu/run.sh" bench "$xgb" "$kb" "$out" "$rows" "$rounds" "$depth" "$sketch" ||
    echo "$name: run.sh bench failed (exit $?)"
}

# A new process on a new machine: the first shape's first fit without warm-up fits and with an
# empty CUDA compute cache, so it includes loading the kernels (and JIT-compiling PTX where the
# device needs it) and tuning.
echo "== first process: 1M x 28, 500 rounds, depth 8, no warm-up, empty CUDA compute cache ($(date +%T))"
first_cache=$(mktemp -d)
CUDA_CACHE_PATH=$first_cache "$kb/perf/bench_train_gpu" --rows 1000000 --features 28 --rounds 500 --depth 8 \
  --repeats 1 --warmup 0 --sketch "$sketch" --csv "$out/first_process.csv" >"$out/first_process.log" 2>&1 ||
  echo "first process: bench_train_gpu failed (exit $?)"
rm -rf "$first_cache"

for s in ${SUITE_SHAPES:-d8_1m d6_10m d8_10m lossguide softprob}; do
  case "$s" in
    d8_1m) shape d8_1m 1000000 500 8 ;;
    d6_10m) shape d6_10m 10000000 10 6 ;;
    d8_10m) shape d8_10m 10000000 100 8 ;;
    lossguide) shape lossguide 4000000 200 0 BENCH_FEATURES=60 BENCH_MISSING=third_half BENCH_GROW_POLICY=lossguide \
                 BENCH_MAX_LEAVES=255 ;;
    softprob) shape softprob 2000000 100 8 BENCH_FEATURES=40 BENCH_OBJECTIVE=multi:softprob BENCH_NUM_CLASS=7 ;;
    *) echo "SUITE_SHAPES: unknown shape $s (d8_1m d6_10m d8_10m lossguide softprob)" >&2; exit 2 ;;
  esac
done
python3 "$repo/perf/train_suite_summary.py" "$out" | tee "$out/summary.md"
