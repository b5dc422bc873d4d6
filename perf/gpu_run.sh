#!/usr/bin/env bash
# perf/gpu_run.sh OUTDIR [STAGE]: on the GPU machine, from a CUDA build made elsewhere (scripts/test's
# CUDA configuration: Kokkos with CUDA, nvcc_wrapper; targets kboost_cli, kboost_tests_CUDA,
# bench_train_gpu, bench_predict_gpu), run the test suite and the GPU benchmarks in one go and write
# CSVs (and logs) to OUTDIR. STAGE: all (default) | check (tests + sanitizers) | bench (benchmarks).
#   check: ctest (the CUDA test binary: every test body on Kokkos::Cuda, CUDA vs Serial model bytes)
#          -> tests.csv, ctest.log; compute-sanitizer memcheck and racecheck on a small training and
#          prediction run of the CLI (agaricus, 3 rounds, depth 4: tile and global histogram kernels,
#          split evaluation, partition, leaves, predict kernel) -> sanitizer.csv, sanitizer_*.log;
#          scripts/model_bytes.sh on the five datasets -> model_bytes.csv (file, md5), to compare with
#          the same script's output from a host build
#   bench: perf/bench_train_gpu (1,000,000 x 28 synthetic binary:logistic, 10 rounds, depth 6, 256
#          bins; tuned tile vs forced global-atomic) -> train_kboost.csv/.log;
#          perf/bench_predict_gpu on $KBOOST_BENCH_MODEL (the 999-tree depth-6 model written by
#          perf/make_predict_model.py) at batch 1 .. 100,000 -> predict_kboost.csv/.log
# Environment: KBOOST_BUILD (default build-gpu), KBOOST_SHARED (default ../shared beside the repo),
#   KBOOST_BENCH_MODEL, KBOOST_BENCH_DATA (where bench_train_gpu writes its data for other tools;
#   default /tmp/kboost_train_1m.bin), KBOOST_BENCH_REPEATS (7).
# Every step runs even when an earlier one fails; the exit status is the number of failed steps.
set -uo pipefail
out=${1:?usage: perf/gpu_run.sh OUTDIR [all|check|bench]}
stage=${2:-all}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KBOOST_BUILD:-$repo/build-gpu}
export KBOOST_SHARED=${KBOOST_SHARED:-$repo/../shared}
mkdir -p "$out"
out=$(cd "$out" && pwd)
failed=0
note() { echo "=== [$(date -u +%H:%M:%S)] $*" | tee -a "$out/summary.txt"; }
step() {  # step NAME LOG CMD...: run, log, record status
  local name=$1 log=$2
  shift 2
  local t0=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$?
  note "$name: exit $rc ($((SECONDS - t0)) s)"
  [ $rc -eq 0 ] || failed=$((failed + 1))
  return $rc
}
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

if [ ! -f "$out/gpu.csv" ]; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv >"$out/gpu.csv" 2>&1
  nproc >"$out/cpus.txt"
fi

if [ "$stage" = all ] || [ "$stage" = check ]; then
  note "ctest in $build"
  pushd "$build" >/dev/null && step ctest "$out/ctest.log" ctest --output-on-failure --timeout 900
  popd >/dev/null
  # tests.csv: one row per ctest test (name, result, seconds) and the Catch2 totals
  {
    echo "test,result,seconds"
    grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$out/ctest.log" |
      sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) [ .*]*([A-Za-z*]+( [A-Za-z]+)*) +([0-9.]+) sec.*/\1,\2,\4/'
    grep -E 'All tests passed|test cases:|assertions:' "$out/ctest.log" | sed 's/^/# /'
  } >"$out/tests.csv"

  note "compute-sanitizer ($sanitizer) memcheck + racecheck: small training and prediction"
  san=$(mktemp -d)
  train_args=(train --data "$KBOOST_SHARED/data/agaricus/agaricus.txt.train" --format libsvm
    --objective binary:logistic --num-round 3 --max_depth 4 --model-out "$san/m.json" --quiet)
  predict_args=(predict --model "$san/m.json" --data "$KBOOST_SHARED/data/agaricus/agaricus.txt.test"
    --format libsvm --out "$san/p.csv")
  echo "tool,run,exit,errors,warnings,summary" >"$out/sanitizer.csv"
  for tool in memcheck racecheck; do
    for run in train predict; do
      if [ $run = train ]; then args=("${train_args[@]}"); else args=("${predict_args[@]}"); fi
      extra=()
      [ $tool = racecheck ] && extra=(--racecheck-report analysis)
      [ $tool = memcheck ] && extra=(--leak-check full)
      step "$tool $run" "$out/sanitizer_${tool}_${run}.log" \
        "$sanitizer" --tool $tool "${extra[@]}" --error-exitcode 3 "$build/kboost" "${args[@]}"
      rc=$?
      summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$out/sanitizer_${tool}_${run}.log" | tr '\n' ' ' | tr ',' ';')
      # memcheck: "ERROR SUMMARY: N errors"; racecheck: "(N errors; M warnings)" (warnings: possible hazards)
      errors=$(echo "$summary" | grep -oE '[0-9]+ errors?' | head -1 | grep -oE '^[0-9]+')
      warnings=$(echo "$summary" | grep -oE '[0-9]+ warnings?' | head -1 | grep -oE '^[0-9]+')
      echo "$tool,$run,$rc,${errors:-?},${warnings:-0},$summary" >>"$out/sanitizer.csv"
    done
  done
  rm -rf "$san"

  # Model bytes: the five datasets' models and two prediction files (scripts/model_bytes.sh);
  # compare model_bytes.csv with the same script's output from a host build (OpenMP, any threads).
  note "model bytes: five datasets (scripts/model_bytes.sh)"
  mb=$(mktemp -d)
  for f in adult/adult.data agaricus/agaricus.txt.train lightgbm_multiclass/multiclass.train \
           lightgbm_binary/binary.train california_housing/housing.csv; do
    ln -sf "$KBOOST_SHARED/data/$f" "$mb/"
  done
  step "model bytes" "$out/model_bytes.log" bash "$repo/scripts/model_bytes.sh" "$build/kboost" "$mb/out" "$mb"
  { echo "file,md5"; awk 'NF == 2 {print $2 "," $1}' "$out/model_bytes.log"; } >"$out/model_bytes.csv"
  rm -rf "$mb"
fi

if [ "$stage" = all ] || [ "$stage" = bench ]; then
  note "training benchmark"
  step "bench_train_gpu" "$out/train_kboost.log" "$build/perf/bench_train_gpu" --rows 1000000 --features 28 \
    --rounds 10 --depth 6 --bins 256 --repeats "${KBOOST_BENCH_REPEATS:-7}" --csv "$out/train_kboost.csv" \
    --write-data "${KBOOST_BENCH_DATA:-/tmp/kboost_train_1m.bin}"
  tail -n 15 "$out/train_kboost.log"
  if [ -n "${KBOOST_BENCH_MODEL:-}" ]; then
    note "inference benchmark ($KBOOST_BENCH_MODEL)"
    step "bench_predict_gpu" "$out/predict_kboost.log" "$build/perf/bench_predict_gpu" --model "$KBOOST_BENCH_MODEL" \
      --batches 1,10,100,1000,10000,100000 --csv "$out/predict_kboost.csv"
    cat "$out/predict_kboost.log"
  else
    note "inference benchmark skipped: set KBOOST_BENCH_MODEL (perf/make_predict_model.py writes one)"
  fi
fi
note "gpu_run.sh $stage: $failed failed step(s)"
exit $failed
