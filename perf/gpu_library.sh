#!/usr/bin/env bash
# The library on the GPU machine: built here, run there (the GPU machine has nvcc but no Kokkos,
# HDF5 or network).
#   perf/gpu_library.sh bundle <cuda build dir> <bundle dir> <host kboost>     (here)
#     installs the CUDA build (scripts/test's build-cuda) to <bundle>/prefix, builds examples/* and
#     perf/device_forest against that package with nvcc_wrapper (the downstream projects' own
#     default flags), copies their binaries, the CUDA test binary, the non-system shared libraries
#     they load, the shared data, and reference outputs made with the HOST build's CLI (models,
#     predictions, a dense CSV of agaricus' held-out rows, the 999-tree model of perf/device_forest).
#   perf/gpu_library.sh run <bundle dir> <out dir>                              (there)
#     the CUDA test suite, each example against the host references (bit identity), the training
#     example's model bytes against the host `kboost train`, compute-sanitizer memcheck of the
#     DeviceForest example, and the DeviceForest latency benchmark -> CSVs and logs in <out dir>.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:?usage: perf/gpu_library.sh bundle|run ...}

if [ "$mode" = bundle ]; then
  set -e
  build=$(cd "$2" && pwd) bundle=$3 host_kboost=$(realpath "$4")
  rm -rf "$bundle" && mkdir -p "$bundle"/{bin,lib,ref,shared} && bundle=$(cd "$bundle" && pwd)
  cmake --install "$build" --prefix "$bundle/prefix" >/dev/null
  wrapper=$(grep -m1 '^CMAKE_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)
  # the downstream projects name the Kokkos install themselves, as a code with its own Kokkos does
  kokkos_root=$(cd "$(grep -m1 '^Kokkos_DIR:' "$build/CMakeCache.txt" | cut -d= -f2)/../../.." && pwd)
  echo "downstream builds: Kokkos_ROOT=$kokkos_root, CMAKE_CXX_COMPILER=$wrapper" | tee "$bundle/ref/downstream.txt"
  for p in c cpp-views device-forest fortran train; do
    cmake -S "$repo/examples/$p" -B "$bundle/build-$p" -G Ninja -Dkboost_ROOT="$bundle/prefix" \
      -DKokkos_ROOT="$kokkos_root" -DCMAKE_CXX_COMPILER="$wrapper" >/dev/null
    cmake --build "$bundle/build-$p" >/dev/null
  done
  cmake -S "$repo/perf/device_forest" -B "$bundle/build-bench" -G Ninja -Dkboost_ROOT="$bundle/prefix" \
    -DKokkos_ROOT="$kokkos_root" -DCMAKE_CXX_COMPILER="$wrapper" >/dev/null
  cmake --build "$bundle/build-bench" >/dev/null
  cp "$bundle"/build-c/predict_c "$bundle"/build-cpp-views/predict_views "$bundle"/build-device-forest/particles \
     "$bundle"/build-fortran/predict_f "$bundle"/build-train/train "$bundle"/build-bench/bench_device_forest \
     "$build"/tests/kboost_tests_CUDA "$bundle/prefix/bin/kboost" "$bundle/bin/"
  rm -rf "$bundle"/build-* "$bundle/prefix"
  strip "$bundle"/bin/*
  # shared libraries outside the C library's own set travel beside the binaries
  for b in "$bundle"/bin/*; do
    ldd "$b" | awk '/=> \// { print $3 }'
  done | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | while read -r l; do
    cp -L "$l" "$bundle/lib/"
  done
  cp -r "$KBOOST_SHARED/data" "$KBOOST_SHARED/models" "$bundle/shared/"
  # references from the host build
  ref=$bundle/ref agaricus=$KBOOST_SHARED/data/agaricus
  "$host_kboost" train --data "$agaricus/agaricus.txt.train" --format libsvm --objective binary:logistic \
    --num-round 10 --max_depth 6 --eta 0.3 --quiet --model-out "$ref/train_cli.json" >/dev/null
  cp "$ref/train_cli.json" "$ref/binary.json"
  awk '{ c = $1 * 2; for (i = 2; i <= NF; ++i) if ($i ~ /^3:/) { c = c > 0 ? 1 : 2 }; $1 = c; print }' \
    "$agaricus/agaricus.txt.train" > "$ref/train3.svm"
  "$host_kboost" train --data "$ref/train3.svm" --format libsvm --objective multi:softprob --num_class 3 \
    --num-round 5 --quiet --model-out "$ref/multi.json" >/dev/null
  rm "$ref/train3.svm"
  for m in binary multi; do
    "$host_kboost" predict --model "$ref/$m.json" --data "$agaricus/agaricus.txt.test" --format libsvm \
      --out "$ref/$m.ref.csv" >/dev/null
  done
  python3 "$repo/examples/libsvm_to_csv.py" "$agaricus/agaricus.txt.test" "$ref/x.csv"
  cp "$repo/examples/same_bits.py" "$ref/"
  echo "$build/kboost" > "$ref/cli_path"  # where the CUDA test binary runs the CLI from (KBOOST_CLI)
  [ -n "${KBOOST_BENCH_MODEL:-}" ] && cp "$KBOOST_BENCH_MODEL" "$ref/bench_model.json"
  du -sh "$bundle"
  exit 0
fi

[ "$mode" = run ] || { echo "perf/gpu_library.sh: unknown mode '$mode'" >&2; exit 2; }
bundle=$(cd "$2" && pwd) out=$3
mkdir -p "$out" && out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH=$bundle/lib:${LD_LIBRARY_PATH:-} KBOOST_SHARED=$bundle/shared
bin=$bundle/bin ref=$bundle/ref failed=0
note() { echo "=== [$(date -u +%H:%M:%S)] $*" | tee -a "$out/summary.txt"; }
check() {  # check NAME CMD...: run, record
  local name=$1 t0=$SECONDS
  shift
  "$@" >>"$out/checks.log" 2>&1
  local rc=$?
  note "$name: exit $rc ($((SECONDS - t0)) s)"
  [ $rc -eq 0 ] || failed=$((failed + 1))
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.csv" 2>&1
cli=$(cat "$ref/cli_path")
[ -x "$cli" ] || { mkdir -p "$(dirname "$cli")" && ln -sf "$bin/kboost" "$cli"; }
check "CUDA test suite (every test case incl. [shared])" sh -c "'$bin/kboost_tests_CUDA' > '$out/tests_cuda.log' 2>&1"
tail -3 "$out/tests_cuda.log" | tee -a "$out/summary.txt"
n=$(wc -l < "$ref/x.csv")
for m in binary multi; do
  check "C $m row-major" sh -c "'$bin/predict_c' '$ref/$m.json' '$ref/x.csv' > '$out/$m.c.csv' && python3 '$ref/same_bits.py' '$out/$m.c.csv' '$ref/$m.ref.csv' 'C $m'"
  check "C $m column-major" sh -c "'$bin/predict_c' '$ref/$m.json' '$ref/x.csv' --col-major > '$out/$m.cc.csv' && python3 '$ref/same_bits.py' '$out/$m.cc.csv' '$ref/$m.ref.csv' 'C col $m'"
  check "C++ Views $m (CUDA)" sh -c "'$bin/predict_views' '$ref/$m.json' '$ref/x.csv' > '$out/$m.v.csv' && python3 '$ref/same_bits.py' '$out/$m.v.csv' '$ref/$m.ref.csv' 'Views $m'"
  check "DeviceForest in a user kernel $m (CUDA)" sh -c "'$bin/particles' '$ref/$m.json' '$ref/x.csv' > '$out/$m.p.csv' && python3 '$ref/same_bits.py' '$out/$m.p.csv' '$ref/$m.ref.csv' 'particles $m'"
  check "Fortran $m" sh -c "'$bin/predict_f' '$ref/$m.json' '$ref/x.csv' $n > '$out/$m.f.csv' && python3 '$ref/same_bits.py' '$out/$m.f.csv' '$ref/$m.ref.csv' 'Fortran $m'"
done
check "training through the package on CUDA = host kboost train (model bytes)" sh -c "'$bin/train' '$KBOOST_SHARED/data/agaricus/agaricus.txt.train' '$out/train_cuda.json' && cmp '$out/train_cuda.json' '$ref/train_cli.json'"
if command -v compute-sanitizer >/dev/null || [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  check "memcheck: DeviceForest in a user kernel" sh -c "'$san' --tool memcheck --error-exitcode 1 '$bin/particles' '$ref/multi.json' '$ref/x.csv' > '$out/memcheck.log' 2>&1"
fi
if [ -f "$ref/bench_model.json" ]; then
  check "DeviceForest latency benchmark" sh -c "'$bin/bench_device_forest' '$ref/bench_model.json' 50 1 100 10000 1000000 > '$out/device_forest.csv' 2>'$out/device_forest.log'"
  cat "$out/device_forest.csv" | tee -a "$out/summary.txt"
fi
note "failed checks: $failed"
exit $failed
