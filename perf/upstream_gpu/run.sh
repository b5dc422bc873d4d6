#!/usr/bin/env bash
# Upstream XGBoost's GPU training beside kboost's, on the GPU machine (no network there).
#   perf/upstream_gpu/run.sh source <out.tar.xz>          (here) upstream v3.4.1 + its dmlc-core
#       from their public repositories (git clones in $XGB_REPO and $DMLC_REPO), as one tarball
#   perf/upstream_gpu/run.sh build <src.tar.xz> <dir>     (there) builds libxgboost (CUDA, sm_90,
#       Release, Ninja; XGB_BUILD_JOBS parallel jobs, default all cores) and, against it, the drivers
#       perf/upstream_gpu/xgb_train_gpu.cpp (g++) and perf/upstream_gpu/xgb_predict_gpu.cpp (nvcc: the
#       CUDA runtime, static) into <dir>; <dir>/build.rc holds the exit status once it ends and
#       <dir>/build.seconds the time (perf/predict_suite_gpu.sh waits on them when the build runs in
#       the background); logs in <dir>/configure.log and <dir>/build.log
#   perf/upstream_gpu/run.sh bench <dir> <kboost build> <out> ROWS ROUNDS DEPTH [SKETCH]
#       (there; <kboost build>: a CUDA build with perf/, whose perf/bench_train_gpu runs;
#       BENCH_FEATURES (28), BENCH_GROW_POLICY (depthwise; lossguide also times kboost one node per
#       step unless BENCH_LOOKAHEAD_PAIR=0), BENCH_MAX_LEAVES (0), BENCH_MISSING (none or third_half),
#       BENCH_OBJECTIVE (binary:logistic or multi:softprob) with BENCH_NUM_CLASS shape the data and
#       trees; BENCH_TEST_ROWS (0) held-out rows give each tool's held-out metric; BENCH_REPEATS (3)
#       kboost's timed fits after its first, BENCH_UPSTREAM_FITS (4) upstream's fits;
#       SKETCH: kboost_sketch_method, upstream_gpu (default), upstream_cpu or exact_quantile) same data, same call:
#       kboost's perf/bench_train_gpu writes the data and times its
#       fits (first fit tunes), then upstream's driver times 4 fits on that file (first = fair
#       comparison, later ones reuse upstream's sketch); CSVs and logs into <out>
#   perf/upstream_gpu/run.sh shap <dir> <bench_shap> <out> ROWS TREES DEPTH
#       (there) SHAP contributions: upstream's GPUTreeShap beside perf/bench_shap (see below);
#       KBOOST_SHAP_KERNEL (auto, per_row, paths or both; default auto) is bench_shap's --kernel
#   perf/upstream_gpu/run.sh goldens <dir> <data dir> <out> [CASES]
#       (there) upstream's device=cuda trees and cuts for tests/tst_upstream_gpu.hpp:
#       tests/golden/upstream_gpu/make_goldens.py around perf/upstream_gpu/xgb_golden_gpu.cpp
#   perf/upstream_gpu/run.sh pack <dir> <out prefix>
#       (there) the built library and Python package as <out prefix>.tar.xz split in 15 MiB parts
#       (the device machine's file limit), so later calls carry it instead of building again;
#       perf/upstream_gpu/run.sh unpack <out prefix> <dir> joins and unpacks them and builds the drivers
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The drivers against the upstream library and headers in <dir>/src (after build or unpack).
drivers() {
  local dir=$1 nvcc
  rm -f "$dir/xgb_predict_gpu"
  g++ -O2 -std=c++17 "$repo/perf/upstream_gpu/xgb_train_gpu.cpp" -I"$dir/src/include" -L"$dir/src/lib" \
    -Wl,-rpath,"$dir/src/lib" -lxgboost -o "$dir/xgb_train_gpu"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -O2 -std=c++17 "$repo/perf/upstream_gpu/xgb_predict_gpu.cpp" -I"$dir/src/include" -L"$dir/src/lib" \
    -Xlinker -rpath,"$dir/src/lib" -lxgboost -o "$dir/xgb_predict_gpu.tmp"
  g++ -O2 -std=c++17 "$repo/perf/upstream_gpu/xgb_shap_gpu.cpp" -I"$dir/src/include" -L"$dir/src/lib" \
    -Wl,-rpath,"$dir/src/lib" -lxgboost -o "$dir/xgb_shap_gpu"
  mv "$dir/xgb_predict_gpu.tmp" "$dir/xgb_predict_gpu"  # whole, or absent, for a poller
}
case "${1:-}" in
  source)
    out=$(realpath "$2") tmp=$(mktemp -d)
    git -C "$XGB_REPO" archive v3.4.1 CMakeLists.txt cmake include src plugin python-package | tar x -C "$tmp"
    mkdir "$tmp/dmlc-core"
    git -C "$DMLC_REPO" archive "$(git -C "$XGB_REPO" ls-tree v3.4.1 dmlc-core | awk '{print $3}')" | tar x -C "$tmp/dmlc-core"
    tar cJf "$out" -C "$tmp" .
    rm -rf "$tmp" ;;
  build)
    src=$(realpath "$2") dir=$3
    mkdir -p "$dir/src" && dir=$(realpath "$dir")
    rm -f "$dir/build.rc" "$dir/build.seconds" "$dir/xgb_predict_gpu"
    trap 'echo $? >"$dir/build.rc"' EXIT
    tar xJf "$src" -C "$dir/src"
    cmake -S "$dir/src" -B "$dir/build" -G Ninja -DUSE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCMAKE_BUILD_TYPE=Release >"$dir/configure.log"
    cmake --build "$dir/build" -j "${XGB_BUILD_JOBS:-$(nproc)}" >"$dir/build.log"
    drivers "$dir"
    echo "$SECONDS" >"$dir/build.seconds" ;;
  bench)
    dir=$(realpath "$2") kb=$(realpath "$3") out=$4 rows=$5 rounds=$6 depth=$7 sketch=${8:-upstream_gpu}
    mkdir -p "$out" && out=$(realpath "$out")
    features=${BENCH_FEATURES:-28} policy=${BENCH_GROW_POLICY:-depthwise} leaves=${BENCH_MAX_LEAVES:-0}
    missing=${BENCH_MISSING:-none} objective=${BENCH_OBJECTIVE:-binary:logistic} classes=${BENCH_NUM_CLASS:-0}
    test_rows=${BENCH_TEST_ROWS:-0} pair=${BENCH_LOOKAHEAD_PAIR:-$([ "$policy" = lossguide ] && echo 1 || echo 0)}
    tag=${rows}x${features}_r${rounds}_d${depth}_${sketch}
    if [ "$policy" = lossguide ]; then tag=${tag}_lossguide${leaves}; fi
    if [ "$missing" != none ]; then tag=${tag}_$missing; fi
    if [ "$objective" = multi:softprob ]; then tag=${tag}_softprob$classes; fi
    data=/tmp/kboost_bench_$tag.bin test=-
    if [ "$test_rows" -gt 0 ]; then test=$data.test; fi
    "$kb/perf/bench_train_gpu" --rows "$rows" --features "$features" --rounds "$rounds" --depth "$depth" \
      --repeats "${BENCH_REPEATS:-3}" --sketch "$sketch" --grow-policy "$policy" --max-leaves "$leaves" \
      --missing "$missing" --objective "$objective" --num-class "$classes" --test-rows "$test_rows" \
      --compare-lookahead "$pair" --csv "$out/kboost_$tag.csv" --write-data "$data" >"$out/kboost_$tag.log" 2>&1
    "$dir/xgb_train_gpu" "$data" "$rounds" "$depth" "${BENCH_UPSTREAM_FITS:-4}" cuda "$policy" "$leaves" "$test" \
      "$objective" "$classes" >"$out/upstream_$tag.csv" 2>"$out/upstream_$tag.log"
    rm -f "$data" "$data.test" ;;
  shap)
    # perf/upstream_gpu/run.sh shap <dir> <bench_shap> <out> ROWS TREES DEPTH: the same synthetic
    # data (28 features, 10% missing) for both; upstream trains the model on the GPU and times its
    # GPU contributions; kboost times its own on that model and compares the values.
    dir=$(realpath "$2") bench=$(realpath "$3") out=$4 rows=$5 trees=$6 depth=$7
    case "${KBOOST_SHAP_KERNEL:-auto}" in auto|per_row|paths|both) ;;
      *) echo "KBOOST_SHAP_KERNEL=$KBOOST_SHAP_KERNEL: expected auto, per_row, paths or both" >&2; exit 2 ;; esac
    mkdir -p "$out" && out=$(realpath "$out")
    tag=${rows}x28_t${trees}_d${depth}
    work=/tmp/kboost_shap_$tag && mkdir -p "$work"
    "$bench" gen --rows "$rows" --train-rows 200000 --features 28 --out-dir "$work"
    "$dir/xgb_shap_gpu" "$work/train.bin" "$work/eval.bin" "$trees" "$depth" "$work/model.json" "$work/upstream.f32" \
      >"$out/upstream_shap_$tag.csv" 2>"$out/upstream_shap_$tag.log"
    "$bench" time --model "$work/model.json" --data "$work/eval.bin" --upstream "$work/upstream.f32" --repeats 2 \
      --kernel "${KBOOST_SHAP_KERNEL:-auto}" >"$out/kboost_shap_$tag.csv" 2>"$out/kboost_shap_$tag.log"
    "$bench" time --model "$work/model.json" --data "$work/eval.bin" --approx --repeats 2 \
      >"$out/kboost_shap_approx_$tag.csv" 2>>"$out/kboost_shap_$tag.log" ;;
  goldens)
    # needs <dir>/src/include (upstream's headers) and nlohmann/json.hpp under $JSON_INCLUDE
    dir=$(realpath "$2") data=$(realpath "$3") out=$4 work=$(mktemp -d)
    mkdir -p "$out"
    g++ -O2 -std=c++17 "$repo/perf/upstream_gpu/xgb_golden_gpu.cpp" -I"$dir/src/include" -I"${JSON_INCLUDE:-/usr/include}" \
      -L"$dir/src/lib" -Wl,-rpath,"$dir/src/lib" -lxgboost -o "$dir/xgb_golden_gpu"
    gold=$repo/tests/golden/upstream_gpu/make_goldens.py
    python3 "$gold" prepare --data "$data" --work "$work" ${5:+--cases "$5"}
    for c in "$work"/*/; do
      read -r -a args < "$c/args"
      "$dir/xgb_golden_gpu" "$c/data.bin" "$c" "${args[@]}" || { echo "xgb_golden_gpu failed on $c" >&2; exit 1; }
    done
    python3 "$gold" assemble --data "$data" --work "$work" --out "$out" ${5:+--cases "$5"}
    rm -rf "$work" ;;
  pack)
    dir=$(realpath "$2") prefix=$3
    tar cJf - -C "$dir/src" lib include python-package | split -b 15M -d - "$prefix.tar.xz.part" ;;
  unpack)
    prefix=$2 dir=$3
    mkdir -p "$dir/src" && dir=$(realpath "$dir") && cat "$prefix".tar.xz.part* | tar xJf - -C "$dir/src"
    drivers "$dir" ;;
  *) echo "usage: perf/upstream_gpu/run.sh source|build|bench|shap|goldens|pack|unpack ..." >&2; exit 2 ;;
esac
