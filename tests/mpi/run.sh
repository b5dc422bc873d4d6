#!/usr/bin/env bash
# Distributed training checks (ctest entries mpi_*; tests/CMakeLists.txt): `mpirun -np N kboost
# train` must write the bytes of the one-process run for N = 1..4, a run killed with SIGKILL and
# resumed (on another rank count) the bytes of a run never interrupted, and a failing rank must stop
# the whole job with its rank and cause, never hang.
#   run.sh <case> <kboost> <make_synthetic> <work dir> <shared dir> <registry data dir>
#   case: lightgbm (needs <shared>/data; exit 4 = skipped when absent), synthetic, resume, failure
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
what=$1 kboost=$2 synth=$3 work=$4 shared=${KBOOST_SHARED:-$5} registry=$6  # KBOOST_SHARED as for the Catch2 tests
mkdir -p "$work" && cd "$work"
mpi=(mpirun --oversubscribe --bind-to none -np)
[ "$(id -u)" -eq 0 ] && mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np)
export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
# a rank waiting in a collective on an oversubscribed node yields its core instead of spinning
export OMPI_MCA_mpi_yield_when_idle=1
fail() { echo "FAIL: $*" >&2; exit 1; }
# Under AddressSanitizer (scripts/test KBOOST_SANITIZE=1): Open MPI keeps allocations past
# MPI_Finalize that LeakSanitizer reports as leaks of every rank; memory errors are still reported.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# same_bytes <name> <train args...>: the one-process model, then 1..4 ranks, byte for byte
same_bytes() {
  local name=$1; shift
  "$kboost" train "$@" --quiet --model-out "$name.ref.json"
  for n in 1 2 3 4; do
    timeout 600 "${mpi[@]}" "$n" "$kboost" train "$@" --quiet --model-out "$name.np$n.json"
    cmp "$name.ref.json" "$name.np$n.json" || fail "$name: $n ranks wrote other bytes than one process"
  done
  echo "$name: 1 process and 1, 2, 3, 4 ranks: $(md5sum < "$name.ref.json" | cut -c1-32) ($(wc -c < "$name.ref.json") bytes)"
}

case $what in
lightgbm)
  [ -d "$shared/data/lightgbm_binary" ] || { echo "skipped: $shared/data is absent (set KBOOST_SHARED to the shared folder)"; exit 4; }
  b=$shared/data/lightgbm_binary m=$shared/data/lightgbm_multiclass
  tsv=(--format csv --delimiter '\t' --label-column 0)
  same_bytes binary --data "$b/binary.train" "${tsv[@]}" --objective binary:logistic --num-round 20 \
    --max_depth 6 --subsample 0.8 --colsample_bytree 0.9 --eval "test=$b/binary.test" --eval_metric auc \
    --early_stopping_rounds 5
  same_bytes multiclass --data "$m/multiclass.train" "${tsv[@]}" --objective multi:softprob --num_class 5 \
    --num-round 10 --max_depth 6 --colsample_bynode 0.8 --eval "test=$m/multiclass.test"
  # one file per rank ({rank}): the files in rank order are the whole file, so the same model
  total=$(wc -l < "$b/binary.train")
  for n in 2 3; do
    for ((r = 0; r < n; ++r)); do
      sed -n "$((total * r / n + 1)),$((total * (r + 1) / n))p" "$b/binary.train" > "part$n.$r.tsv"
    done
    timeout 600 "${mpi[@]}" "$n" "$kboost" train --data "part$n.{rank}.tsv" "${tsv[@]}" --objective binary:logistic \
      --num-round 20 --max_depth 6 --subsample 0.8 --colsample_bytree 0.9 --eval "test=$b/binary.test" \
      --eval_metric auc --early_stopping_rounds 5 --quiet --model-out "files$n.json"
    cmp binary.ref.json "files$n.json" || fail "one file per rank ($n ranks) wrote other bytes"
  done
  echo "binary: one file per rank (2, 3 ranks): same bytes"
  # ranks read byte ranges: a header (line 1 leads every range), and a text column (codes from the
  # whole file: every rank parses it whole)
  { printf 'y'; for ((j = 1; j <= 28; ++j)); do printf '\tf%d' "$j"; done; echo; cat "$b/binary.train"; } > header.tsv
  awk -F'\t' -v OFS='\t' '{ print $0, (NR * 7 % 3 == 0 ? "red" : NR * 7 % 3 == 1 ? "green" : "blue") }' \
    "$b/binary.train" > text.tsv
  same_bytes header --data header.tsv --format csv --delimiter '\t' --label-column y --objective binary:logistic \
    --num-round 8 --max_depth 5
  same_bytes textcolumn --data text.tsv "${tsv[@]}" --objective binary:logistic --num-round 8 --max_depth 5
  # upstream 3.4.1 device=cuda's trees (tests/golden/upstream_gpu) on 1..4 ranks
  same_bytes upstream_gpu_binary --data "$b/binary.train" "${tsv[@]}" --objective binary:logistic --num-round 20 \
    --max_depth 6
  python3 "$here/trees_equal_golden.py" upstream_gpu_binary.ref.json \
    "$here/../golden/upstream_gpu/binary_depth6.json" || fail "upstream_gpu_binary: not upstream's trees"
  same_bytes upstream_gpu_multiclass --data "$m/multiclass.train" "${tsv[@]}" --objective multi:softprob \
    --num_class 5 --num-round 10
  python3 "$here/trees_equal_golden.py" upstream_gpu_multiclass.ref.json \
    "$here/../golden/upstream_gpu/multiclass.json" || fail "upstream_gpu_multiclass: not upstream's trees"
  # the default sketch is upstream's GPU one (each feature's column sketched whole by one rank, in
  # the job's batches); upstream's CPU one likewise
  same_bytes textcolumn_cpu_sketch --data text.tsv "${tsv[@]}" --objective binary:logistic --num-round 8 \
    --max_depth 5 --kboost_sketch_method upstream_cpu
  ;;
synthetic)
  "$synth" train1m.h5 1000000 12 0.05 1 binary
  "$synth" valid.h5 20000 12 0.05 2 binary
  same_bytes synthetic1m --data train1m.h5 --objective binary:logistic --num-round 8 --max_depth 8 \
    --max_bin 128 --subsample 0.8 --colsample_bylevel 0.8 --eval valid=valid.h5 --eval_metric logloss
  "$synth" reg.h5 100000 8 0.1 3 regression
  same_bytes regression --data reg.h5 --objective reg:squarederror --num-round 10 --max_depth 6 \
    --grow_policy lossguide --max_leaves 24 --min_child_weight 5 --eval train=reg.h5
  same_bytes regression_cpu_sketch --data reg.h5 --objective reg:squarederror --num-round 10 --max_depth 6 \
    --kboost_sketch_method upstream_cpu
  agaricus=$registry/agaricus.txt.train
  [ -f "$agaricus" ] || fail "no $agaricus (scripts/bootstrap fetches it)"
  same_bytes agaricus --data "$agaricus" --format libsvm --objective binary:logistic --num-round 10 --max_depth 6
  ;;
resume)
  "$synth" train.h5 200000 10 0.05 4 binary
  "$synth" valid.h5 10000 10 0.05 5 binary
  args=(--data train.h5 --objective binary:logistic --num-round 30 --max_depth 7 --subsample 0.7
        --colsample_bytree 0.8 --eval valid=valid.h5 --eval_metric logloss --early_stopping_rounds 40)
  "${mpi[@]}" 2 "$kboost" train "${args[@]}" --model-out ref.json > ref.log
  newest() { ls ckpt 2>/dev/null | sed -n 's/^checkpoint-0*\([0-9][0-9]*\)\.json$/\1/p' | sort -n | tail -1 || true; }
  kills=0 runs=0
  for point in 3 9 15 21 26; do
    rm -rf ckpt "run$point.json"
    for cycle in 1 2 3; do  # three kills in one job: once `target` rounds are checkpointed, then a random 0-0.3 s later
      target=$((point + cycle - 1))
      setsid "${mpi[@]}" $((cycle % 3 + 1)) "$kboost" train "${args[@]}" --checkpoint-every 1 \
        --checkpoint-dir ckpt --resume --model-out "run$point.json" > /dev/null 2>&1 &
      pid=$! runs=$((runs + 1))
      while kill -0 "$pid" 2>/dev/null; do
        n=$(newest)
        [ -n "$n" ] && [ "$n" -ge "$target" ] && break
        sleep 0.05
      done
      sleep "0.$((RANDOM % 30))"
      if kill -0 "$pid" 2>/dev/null; then kill -9 -- "-$pid" 2>/dev/null || true; kills=$((kills + 1)); fi
      wait "$pid" 2>/dev/null || true
    done
    rm -f "run$point.json"
    "${mpi[@]}" 3 "$kboost" train "${args[@]}" --checkpoint-every 1 --checkpoint-dir ckpt --resume \
      --model-out "run$point.json" > "run$point.log"
    cmp ref.json "run$point.json" || fail "resumed run (kill point $point) wrote other bytes"
    diff <(grep '^\[' ref.log) <(grep '^\[' "run$point.log") || fail "resumed run (kill point $point): another eval log"
    [ "$(ls ckpt | grep -c '\.tmp\.')" = 0 ] || fail "temporary files of killed writers were left in ckpt/"
  done
  [ "$kills" -ge 10 ] || fail "only $kills of $runs runs were still running when killed: the check proves too little"
  echo "resume: $kills of $runs runs killed with SIGKILL mid-run (after 3..28 checkpointed rounds), every resumed model and eval log identical to the uninterrupted run"
  ;;
failure)
  printf '1,0.5\n0,0.1\n1,0.2\n0,0.7\n' > good.csv
  printf '1,0.5\n0,0.1\n7,0.2\n0,0.7\n' > badlabel.csv
  # a label that only rank 1's rows hold
  set +e
  out=$(timeout 120 "${mpi[@]}" 2 "$kboost" train --data badlabel.csv --label-column 0 \
        --objective binary:logistic --num-round 2 --model-out x.json 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "bad shard: exit status $rc"
  grep -q "rank 1 of 2: badlabel.csv: label 7 of row 3" <<< "$out" || fail "bad shard: message was: $out"
  # a file only rank 1 lacks
  cp good.csv part.0.csv
  set +e
  out=$(timeout 120 "${mpi[@]}" 2 "$kboost" train --data 'part.{rank}.csv' --label-column 0 \
        --objective binary:logistic --num-round 2 --model-out x.json 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "missing shard file: exit status $rc"
  grep -q "rank 1 of 2: part.1.csv: no such file" <<< "$out" || fail "missing shard file: message was: $out"
  [ ! -e x.json ] || fail "a failed job wrote a model"
  # a bad value in rank 1's byte range: named by the file's own line number
  for ((i = 1; i <= 40; ++i)); do [ "$i" = 31 ] && echo "abc,0.5" || echo "$((i % 2)),0.$i"; done > badline.csv
  set +e
  out=$(timeout 120 "${mpi[@]}" 2 "$kboost" train --data badline.csv --label-column 0 \
        --objective binary:logistic --num-round 2 --model-out x.json 2>&1); rc=$?
  set -e
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "bad line: exit status $rc"
  grep -q "rank 1 of 2: badline.csv:31: column 0 (label): label 'abc' is not a number" <<< "$out" \
    || fail "bad line: message was: $out"
  echo "failure: a bad label, a missing file and a bad line on rank 1 stop both ranks, naming rank 1 and the file's line"
  ;;
*) echo "unknown case $what" >&2; exit 2 ;;
esac
