#!/usr/bin/env bash
# CPU inference suite, the one command: kboost (OpenMP) vs XGBoost 3.2 inplace_predict, TL2cgen and
# oneDAL (daal4py) on the same models, rows and threads (perf/predict_suite_cpu.py's docstring says
# what is timed and how). It does its own set-up:
#   - three venvs under --venv (default .perf-venv, git-ignored; made once, from PyPI):
#     main   numpy, xgboost 3.2.0, treelite 4.8.1, tl2cgen 1.0.0, matplotlib
#     onedal numpy, xgboost 2.1.4, scikit-learn < 1.6, daal4py 2024.7.0 (it reads no XGBoost 3.x model)
#     nvforest nvforest-cu13 26.10 (RAPIDS FIL's successor; its CPU mode needs no GPU; ~2.4 GB of CUDA
#            libraries come with it)
#   - the host build's bench_predict (scripts/bootstrap + cmake configure when --build has no
#     build.ninja yet, else just `cmake --build --target bench_predict`);
#   - models and inputs in --work (default /tmp/kboost_predict_suite; ~8 min the first time), and
#     there too TL2cgen libraries (~10-15 min) and oneDAL's converted models (~2 min) the first time;
# then runs the sweep (~11-13 min on an idle 2-core box, estimated), writes --out/predict_cpu.csv,
# the PNGs and summary.md (perf/plot_predict_suite.py) and the whole output to --out/log.txt.
#
#   perf/predict_suite_cpu.sh [--venv DIR] [--build DIR] [--out DIR] [predict_suite_cpu.py options]
#   perf/predict_suite_cpu.sh --help                      # all options
#   perf/predict_suite_cpu.sh --models softprob_99,d8_500 --batches 1,100,10000 --max-trials 5   # smoke
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$repo/.perf-venv
build=$repo/build
out=$repo/perf/results/cpu-$(date +%F)-predict
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --venv) venv=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

# make_venv NAME PACKAGES...: (re)install when the package list changed
make_venv() {
  local dir=$venv/$1; shift
  [ "$(cat "$dir/.packages" 2>/dev/null)" = "$*" ] && return
  echo "predict_suite_cpu: making $dir ($*)"
  python3 -m venv "$dir" 2>/dev/null || { apt-get install -y python3-venv >/dev/null && python3 -m venv "$dir"; }
  "$dir/bin/pip" install -q "$@"
  echo "$*" > "$dir/.packages"
}
make_venv main numpy xgboost==3.2.0 treelite==4.8.1 tl2cgen==1.0.0 matplotlib
make_venv onedal numpy xgboost==2.1.4 "scikit-learn<1.6" daal4py==2024.7.0 packaging
make_venv nvforest "nvforest-cu13==26.10.*"
case " ${args[*]-} " in
  *" --help "* | *" -h "*) exec "$venv/main/bin/python" "$repo/perf/predict_suite_cpu.py" --help ;;
esac

if [ ! -f "$build/build.ninja" ]; then
  (cd "$repo" && bash scripts/bootstrap)
  kokkos_root=${Kokkos_ROOT:-${KBOOST_DEPS:-$repo/.deps}/kokkos-openmp}
  cmake -S "$repo" -B "$build" -G Ninja -DKokkos_ROOT="$kokkos_root" >/dev/null
fi
cmake --build "$build" --target bench_predict

mkdir -p "$out"
"$venv/main/bin/python" "$repo/perf/predict_suite_cpu.py" --out "$out" --build "$build" \
  --onedal-python "$venv/onedal/bin/python" --nvforest-python "$venv/nvforest/bin/python" "${args[@]}" 2>&1 | tee "$out/log.txt"
