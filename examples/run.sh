#!/usr/bin/env bash
# Builds the examples against an installed kboost and checks that each prints predictions
# bit-identical to `kboost predict` on the same model and data, and that training through the
# package (examples/train) writes the model bytes `kboost train` writes.
#   usage: examples/run.sh <install prefix> <work dir> [<agaricus dir>]
# (default agaricus dir: ../shared/data/agaricus, else set-up's registry copy, $KBOOST_DATA or
# <deps>/data)
# The model is trained here with the installed `kboost` CLI (agaricus, binary:logistic, 10 rounds,
# and multi:softprob on 3 label buckets of the same rows for a multi-output model); the examples read
# the held-out rows as a dense CSV (NaN = missing). Extra CMake arguments for the example builds
# (e.g. -DCMAKE_CXX_COMPILER=nvcc_wrapper) come from $KBOOST_EXAMPLE_CMAKE_ARGS.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=$(cd "$1" && pwd)
work=$2
data=${3:-}
if [ -z "$data" ]; then
  shared=${KBOOST_SHARED:-$here/../../shared}
  if [ -d "$shared/data/agaricus" ]; then data=$shared/data/agaricus; else data=${KBOOST_DATA:-${KBOOST_DEPS:-$here/../.deps}/data}; fi
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
kboost=$prefix/bin/kboost
log() { echo "[examples] $*"; }

# ---- models and reference predictions from the installed CLI
train=$data/agaricus.txt.train test=$data/agaricus.txt.test
"$kboost" train --data "$train" --format libsvm --objective binary:logistic --num-round 10 --quiet \
  --model-out "$work/binary.json" >/dev/null
# the same rows with a 3-class label (first label times 2 plus whether feature 3 is present)
awk '{ c = $1 * 2; for (i = 2; i <= NF; ++i) if ($i ~ /^3:/) { c = c > 0 ? 1 : 2 }; $1 = c; print }' "$train" > "$work/train3.svm"
"$kboost" train --data "$work/train3.svm" --format libsvm --objective multi:softprob --num_class 3 --num-round 5 \
  --quiet --model-out "$work/multi.json" >/dev/null
# dense CSV of the held-out rows: 127 columns (LibSVM indices as column ids, as kboost reads them)
python3 "$here/libsvm_to_csv.py" "$test" "$work/x.csv"
n_rows=$(wc -l < "$work/x.csv")
for m in binary multi; do
  "$kboost" predict --model "$work/$m.json" --data "$test" --format libsvm --out "$work/$m.ref.csv" >/dev/null
done

# ---- build the examples against the installed package
build() {
  log "building $1 against $prefix"
  # shellcheck disable=SC2086
  cmake -S "$here/$1" -B "$work/build-$1" -G Ninja -Dkboost_ROOT="$prefix" ${KBOOST_EXAMPLE_CMAKE_ARGS:-} >/dev/null
  cmake --build "$work/build-$1" >/dev/null
}
same() { python3 "$here/same_bits.py" "$@"; }  # same float32 bits, row by row
build c
build cpp-views
build device-forest
build fortran
build train
"$work/build-train/train" "$train" "$work/train_example.json" >/dev/null
"$kboost" train --data "$train" --format libsvm --objective binary:logistic --num-round 10 --max_depth 6 --eta 0.3 \
  --quiet --model-out "$work/train_cli.json" >/dev/null
cmp "$work/train_example.json" "$work/train_cli.json" ||
  { echo "[examples] the model trained through the package differs from kboost train's" >&2; exit 1; }
log "training through the package (Booster, this project's flags): model bytes equal kboost train's"
for m in binary multi; do
  "$work/build-c/predict_c" "$work/$m.json" "$work/x.csv" > "$work/$m.c.csv"
  same "$work/$m.c.csv" "$work/$m.ref.csv" "C ($m, row-major)"
  "$work/build-c/predict_c" "$work/$m.json" "$work/x.csv" --col-major > "$work/$m.c_col.csv"
  same "$work/$m.c_col.csv" "$work/$m.ref.csv" "C ($m, column-major)"
  # No kboost_initialize anywhere; a model left alive is freed before Kokkos is finalised at exit.
  "$work/build-c/predict_c" "$work/$m.json" "$work/x.csv" --keep-model > "$work/$m.c_keep.csv" 2> "$work/$m.c_keep.err"
  same "$work/$m.c_keep.csv" "$work/$m.ref.csv" "C ($m, model left for the exit)"
  [ ! -s "$work/$m.c_keep.err" ] ||
    { echo "[examples] the C example wrote to standard error at exit:" >&2; cat "$work/$m.c_keep.err" >&2; exit 1; }
  "$work/build-cpp-views/predict_views" "$work/$m.json" "$work/x.csv" > "$work/$m.views.csv"
  same "$work/$m.views.csv" "$work/$m.ref.csv" "C++ Views ($m, LayoutLeft/Right/Stride)"
  "$work/build-device-forest/particles" "$work/$m.json" "$work/x.csv" > "$work/$m.particles.csv"
  same "$work/$m.particles.csv" "$work/$m.ref.csv" "device forest in a user kernel ($m)"
  "$work/build-fortran/predict_f" "$work/$m.json" "$work/x.csv" "$n_rows" > "$work/$m.f.csv"
  same "$work/$m.f.csv" "$work/$m.ref.csv" "Fortran ($m)"
done
log "all examples bit-identical to kboost predict"
