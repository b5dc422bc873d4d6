#!/usr/bin/env bash
# GPU training with two builds of kboost (two Kokkos versions, or the code before and after a
# change), in one call on the GPU machine, the same shapes and synthetic data for both, the builds
# alternating shape by shape:
#   perf/two_builds_gpu.sh <CUDA build a> <CUDA build b> <out dir> [name a] [name b]
# (each build's perf/bench_train_gpu is used; names default to "Kokkos 4.x" and "Kokkos 3.4.01").
# First, each build's new-process fit with an empty CUDA compute cache (1M x 28, 500 rounds, depth 8;
# first_<tag>.csv/.log, tags a and b) and the code its binary carries (cuobjdump: cubins and PTX by
# architecture, code_<tag>.txt); then per shape each build's first fit and AB_REPEATS (2) later ones
# (<shape>_<tag>.csv). perf/two_builds_summary.py prints the table: seconds per build, a / b, and
# whether the model bytes (FNV of the model JSON) are the same across the two builds.
#   AB_SHAPES picks shapes (default: d8_1m d6_10m lossguide softprob; as perf/train_suite_gpu.sh).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 3 ] && [ $# -le 5 ] || { echo "usage: perf/two_builds_gpu.sh <build a> <build b> <out dir> [name a] [name b]" >&2; exit 2; }
out=$3
mkdir -p "$out"
declare -A build=([a]=$1 [b]=$2)
printf '%s\n%s\n' "${4:-Kokkos 4.x}" "${5:-Kokkos 3.4.01}" >"$out/names.txt"
for t in a b; do
  [ -x "${build[$t]}/perf/bench_train_gpu" ] || { echo "${build[$t]}/perf/bench_train_gpu: missing" >&2; exit 2; }
done
bench() {  # tag csv log args...
  local t=$1 csv=$2 log=$3
  shift 3
  "${build[$t]}/perf/bench_train_gpu" --csv "$csv" "$@" >"$log" 2>&1 || echo "$t: bench_train_gpu $* failed (exit $?)"
}
for t in a b; do
  { cuobjdump --list-elf "${build[$t]}/perf/bench_train_gpu"; cuobjdump --list-ptx "${build[$t]}/perf/bench_train_gpu"; } \
    >"$out/code_$t.txt" 2>&1 || echo "$t: cuobjdump failed"
  echo "== $t: first process, empty CUDA compute cache ($(date +%T))"
  cache=$(mktemp -d)
  CUDA_CACHE_PATH=$cache bench "$t" "$out/first_$t.csv" "$out/first_$t.log" --rows 1000000 --features 28 --rounds 500 \
    --depth 8 --repeats 1 --warmup 0
  rm -rf "$cache"
done
for s in ${AB_SHAPES:-d8_1m d6_10m lossguide softprob}; do
  case "$s" in
    d8_1m) args=(--rows 1000000 --features 28 --rounds 500 --depth 8) ;;
    d6_10m) args=(--rows 10000000 --features 28 --rounds 10 --depth 6) ;;
    lossguide) args=(--rows 4000000 --features 60 --rounds 200 --depth 0 --missing third_half --grow-policy lossguide
                     --max-leaves 255) ;;
    softprob) args=(--rows 2000000 --features 40 --rounds 100 --depth 8 --objective multi:softprob --num-class 7) ;;
    *) echo "AB_SHAPES: unknown shape $s (d8_1m d6_10m lossguide softprob)" >&2; exit 2 ;;
  esac
  for t in a b; do
    echo "== $s, $t ($(date +%T))"
    bench "$t" "$out/${s}_$t.csv" "$out/${s}_$t.log" "${args[@]}" --repeats "${AB_REPEATS:-2}"
  done
done
python3 "$repo/perf/two_builds_summary.py" "$out" | tee "$out/summary.md"
