#!/usr/bin/env bash
# Fault checks of kboost's writes (ctest entries faults_*; tests/CMakeLists.txt):
#   kill:  SIGKILL a writer many times, at random points and (through strace's syscall injection)
#          at one of its writev() calls chosen at random, with the temporary file open; after every
#          kill the target holds the old bytes or the complete new ones, never a torn file (model from
#          `train`, predictions from `predict`); a `train --checkpoint-every` killed at random resumes
#          to the bytes of an uninterrupted run.
#   limit: a write cut short by the file-size limit (RLIMIT_FSIZE) is an error naming the file and
#          the cause, exit status 1, and the old file is left as it was.
#   full:  the same on a full disk: a tmpfs of a few hundred KiB mounted in a private user and
#          mount namespace (unshare; no privilege needed, nothing outside the test sees it), filled
#          by the model, prediction and checkpoint writes; after the disk grows, --resume from the
#          checkpoints that were written finishes with the bytes of an uninterrupted run. Skipped
#          (exit 77) where namespaces are not allowed.
#   run.sh <kill|limit|full> <kboost> <work dir> [kills per target, default 8]
set -euo pipefail
what=$1 kboost=$2 work=$3 kills=${4:-8}
if [ "$what" = full ] && [ -z "${KBOOST_FAULTS_IN_NAMESPACE:-}" ]; then
  if ! unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "SKIP: no user and mount namespace here (unshare --user --map-root-user --mount failed), so no private tmpfs to fill"
    exit 77
  fi
  KBOOST_FAULTS_IN_NAMESPACE=1 exec unshare --user --map-root-user --mount bash "$0" "$@"
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Noise labels on 20 features: every tree grows to full depth, so the model is about half a MB and its
# write takes long enough to be interrupted.
awk 'BEGIN { srand(7); for (i = 0; i < 2000; ++i) { printf "%.4f", rand(); for (j = 1; j <= 20; ++j) printf " %d:%.4f", j, rand(); print "" } }' > noise.svm
train=noise.svm
args=(train --data "$train" --format libsvm --objective reg:squarederror --max_depth 8 --eta 0.05 --quiet)
rounds=60

"$kboost" "${args[@]}" --num-round 2 --model-out old.json          # the "old" file every target starts as
"$kboost" "${args[@]}" --num-round $rounds --model-out new.json    # what a finished write holds
"$kboost" predict --model old.json --data "$train" --format libsvm --pred-leaf --out old.csv >/dev/null
"$kboost" predict --model new.json --data "$train" --format libsvm --pred-leaf --out new.csv >/dev/null
echo "model $(wc -c < new.json) bytes, predictions $(wc -c < new.csv) bytes"

# kill_one <target> <reference> <mode: random|at-write> <command...>: run the command and SIGKILL it
# (at-write: at its k-th writev() call, k random up to the count a whole run makes), then check the
# target. Prints "mid-write" when the kill left the temporary file behind.
kill_one() {
  local target=$1 ref=$2 mode=$3
  shift 3
  cp "old.${target##*.}" "$target"
  if [ "$mode" = random ]; then
    "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  else
    local writes
    # the files go out through writev (libstdc++'s large writes); messages through write
    writes=$(strace -f -c -e trace=writev -o /dev/stdout "$@" 2>/dev/null | awk '$NF == "writev" { print $4 }')
    strace -f -o /dev/null -e trace=writev -e inject=writev:signal=KILL:when=$((RANDOM % ${writes:-1} + 1)) \
      "$@" >/dev/null 2>&1 || true
  fi
  if ! cmp -s "$target" "old.${target##*.}" && ! cmp -s "$target" "$ref"; then
    fail "$target after SIGKILL ($mode): neither the old file nor the complete new one ($(wc -c < "$target") bytes)"
  fi
  if compgen -G "$target.tmp.*" >/dev/null; then echo mid-write; fi
  rm -f "$target".tmp.*
}

case $what in
kill)
  for target in model predictions; do
    mid=0
    for i in $(seq 1 "$kills"); do
      mode=random; [ $((i % 2)) -eq 0 ] && mode=at-write
      if [ $target = model ]; then
        r=$(kill_one out.json new.json $mode "$kboost" "${args[@]}" --num-round $rounds --model-out out.json)
      else
        r=$(kill_one out.csv new.csv $mode "$kboost" predict --model new.json --data "$train" --format libsvm \
              --pred-leaf --out out.csv)
      fi
      [ "$r" = mid-write ] && mid=$((mid + 1))
    done
    echo "$target: $kills kills, $mid with the temporary file open: old or complete every time"
    [ $mid -gt 0 ] || fail "$target: no kill landed while the temporary file was open"
  done
  # checkpoints: every checkpoint left behind parses, and resuming from the newest one finishes
  # with the bytes of an uninterrupted run
  for i in $(seq 1 "$kills"); do
    rm -rf ck
    "$kboost" "${args[@]}" --num-round $rounds --checkpoint-every 5 --checkpoint-dir ck \
      --model-out ck.json >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
    kill -9 $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
    "$kboost" "${args[@]}" --num-round $rounds --checkpoint-every 5 --checkpoint-dir ck --resume \
      --model-out ck.json >/dev/null || fail "resume after SIGKILL $i failed"
    cmp -s ck.json new.json || fail "resume after SIGKILL $i: other bytes than an uninterrupted run"
  done
  echo "checkpoints: $kills kills, each resumed to the bytes of an uninterrupted run"
  ;;
limit)
  trap '' XFSZ  # the write then fails with EFBIG instead of the process being killed
  cp old.json out.json
  cp old.csv out.csv
  size_kb=$(( $(wc -c < new.json) / 2048 ))  # half the model fits
  set +e
  msg=$( (ulimit -f "$size_kb"; "$kboost" "${args[@]}" --num-round $rounds --model-out out.json) 2>&1 )
  rc=$?
  set -e
  [ $rc -eq 1 ] || fail "model write over the size limit: exit status $rc, expected 1 ($msg)"
  grep -q "out.json: write failed (File too large)" <<<"$msg" || fail "model write over the size limit: '$msg'"
  cmp -s out.json old.json || fail "model write over the size limit changed out.json"
  set +e
  msg=$( (ulimit -f 8; "$kboost" predict --model new.json --data "$train" --format libsvm --pred-leaf --out out.csv) 2>&1 )
  rc=$?
  set -e
  [ $rc -eq 1 ] || fail "prediction write over the size limit: exit status $rc, expected 1 ($msg)"
  grep -q "out.csv.*write failed (File too large)" <<<"$msg" || fail "prediction write over the size limit: '$msg'"
  cmp -s out.csv old.csv || fail "prediction write over the size limit changed out.csv"
  compgen -G "out.*.tmp.*" >/dev/null && fail "a temporary file was left behind"
  echo "size limit: model and prediction writes fail naming the file and cause; old files unchanged"
  ;;
full)
  # room for the old files and half of the new model
  size_kb=$(( ($(wc -c < old.json) + $(wc -c < old.csv) + $(wc -c < new.json) / 2) / 1024 ))
  mkdir disk
  mount -t tmpfs -o size=${size_kb}k kboost-faults-full disk
  cp old.json disk/out.json
  cp old.csv disk/out.csv
  # expect_full <file> <command...>: exit status 1, the file and ENOSPC named, no temporary left
  expect_full() {
    local file=$1 msg rc
    shift
    set +e
    msg=$("$@" 2>&1 >/dev/null)
    rc=$?
    set -e
    [ $rc -eq 1 ] || fail "write to a full disk: exit status $rc, expected 1 ($msg)"
    grep -q "$file.*write failed (No space left on device)" <<<"$msg" || fail "write to a full disk: '$msg'"
    compgen -G "disk/*.tmp.*" >/dev/null && fail "a temporary file was left on the full disk"
    echo "  $msg"
  }
  expect_full disk/out.json "$kboost" "${args[@]}" --num-round $rounds --model-out disk/out.json
  cmp -s disk/out.json old.json || fail "model write to a full disk changed out.json"
  dd if=/dev/zero of=disk/filler bs=4096 2>/dev/null || true  # fills the disk to the last page
  truncate -s -8K disk/filler                                  # 8 KiB left: the write starts, then fails
  expect_full disk/out.csv "$kboost" predict --model new.json --data "$train" --format libsvm --pred-leaf --out disk/out.csv
  cmp -s disk/out.csv old.csv || fail "prediction write to a full disk changed out.csv"
  rm disk/filler
  expect_full "disk/ck/checkpoint-" "$kboost" "${args[@]}" --num-round $rounds --checkpoint-every 5 \
    --checkpoint-dir disk/ck --model-out ck.json
  written=$(ls disk/ck | wc -l)
  [ "$written" -gt 0 ] || fail "no checkpoint fitted on the disk"
  for f in disk/ck/*; do
    python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["format"] == "kboost-checkpoint"' "$f" \
      || fail "$f left by a full disk is not a complete checkpoint"
  done
  mount -o remount,size=64m disk
  "$kboost" "${args[@]}" --num-round $rounds --checkpoint-every 5 --checkpoint-dir disk/ck --resume \
    --model-out ck.json >/dev/null || fail "resume after the disk grew failed"
  cmp -s ck.json new.json || fail "resume after a full disk: other bytes than an uninterrupted run"
  echo "full disk (${size_kb} KiB tmpfs): model, prediction and checkpoint writes fail naming the file and cause;"
  echo "old files unchanged; $written checkpoints written before the disk filled are complete, and resuming finishes with the bytes of an uninterrupted run"
  ;;
*) fail "unknown case $what" ;;
esac
