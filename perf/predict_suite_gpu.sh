#!/usr/bin/env bash
# perf/predict_suite_gpu.sh MODELS KBOOST_BENCH XGB_DIR OUT: the GPU (H200) half of the prediction
# suite, in one device call, from the repository root of the device machine.
#   MODELS        a folder of models, made on the build machine by perf/make_predict_suite_models.py
#                 (upstream's Python package; the GPU machine has none) and carried as a tarball of
#                 the *.ubj files: softprob_<T>.ubj (one 333-round, 3-class, depth-6, 9-feature booster
#                 sliced into ten ensembles of T = 99..999 trees; softprob_99 or softprob_099 alike),
#                 d8_500.ubj (500 trees of depth 8, 28 features), deep_lossguide.ubj (900 trees,
#                 28 features, depth-12 lossguide, > 60 MB of tree data); other *.ubj files run too
#   KBOOST_BENCH  perf/bench_predict_gpu of a kboost CUDA build (build-gpu: `ninja perf/bench_predict_gpu`);
#                 the caller sets LD_LIBRARY_PATH for the shared libraries it needs
#   XGB_DIR       upstream's build dir of `perf/upstream_gpu/run.sh build` (xgb_predict_gpu in it). With
#                 XGB_SRC=<xgb-src.tar.xz> and no driver there yet, this script starts that build in the
#                 background itself; a build the caller started (same dir) is waited for as well: it is
#                 done when XGB_DIR/build.rc appears (0 = built)
#   OUT           output folder: predict_suite_gpu.csv (all rows, the suite's columns machine,tool,model,
#                 trees,batch,trials,p50_ms,p99_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,check; tools kboost,
#                 xgboost_gpu, kboost_device_forest), summary.txt (steps, p50 table with upstream/kboost
#                 ratios, output checks across tools), gpu.csv (nvidia-smi) and logs.tgz (every step's log
#                 and CSV, the upstream build's logs) -- four files, within what a device call returns
# Every model runs batches 1..10,000 in 15 geometric steps (np.geomspace(1, 1e4, 15) rounded) plus
# 100,000 and 1,000,000, the same input for every tool (perf/predict_input.hpp: uniform in [-2, 2), 2 %
# NaN), end to end host -> device -> host per call (perf/bench_predict_gpu.cpp and
# perf/upstream_gpu/xgb_predict_gpu.cpp say how each is timed). Order, so that the build overlaps:
#   1. kboost (batch predictor), every model, while upstream builds (benchmarks on the first two
#      allowed CPUs, the build on the others, when taskset and >= 4 CPUs exist);
#   2. kboost_device_forest (the in-user-kernel path), model by model, while the build still runs;
#   3. wait for the build; upstream (xgboost_gpu), every model;
#   4. a control re-run of kboost on the first model at 1, 100, 10,000 and 1,000,000 rows after the
#      build (logs/kboost_control.csv; the summary compares it with step 1's numbers);
#   5. the device-forest models step 2 left.
# Step 1b (before 2): nvForest, default layout and optimize()d per batch (perf/predict_suite_nvforest.py),
# when python3 imports nvforest (carry its wheels: docs/benchmarks.md says how) or SUITE_NVFOREST=1.
# Each step runs under `timeout` (its limit, cut to what is left of SUITE_BUDGET_S); the CSV rows a step
# measured before a timeout stay. Models run in the order softprob_999, d8_500, softprob_99..891,
# other *.ubj, deep_lossguide, so a short budget drops the least important ones.
# Budget on an H200 (kboost: 999 trees ~0.1 ms at batch 1, ~22 ms at 1M; upstream ~3 ms and ~26 ms):
# about 1 min of kboost, 1 min of device forest, 2-3 min of upstream after its build.
# Environment (defaults): XGB_SRC (unset), SUITE_BUDGET_S (540: this script's wall-clock limit; the
#   device call's is 600 s),
#   SUITE_TRIALS (50), SUITE_MISSING (0.02), SUITE_MACHINE (the GPU's model from nvidia-smi, e.g. h100), SUITE_BATCHES (the 17 above),
#   SUITE_MODELS (the order above), SUITE_DEVICE_FOREST (1), SUITE_SERIAL (0; 1: wait for the build
#   before benchmarking anything), SUITE_PIN (1; 0: no taskset), KBOOST_STEP_S (75), XGB_STEP_S (100),
#   FOREST_STEP_S (60), SUITE_NVFOREST (auto), NVFOREST_STEP_S (120),
#   SUITE_KEEP_LOGS (0; 1: keep OUT/logs/ beside logs.tgz).
# Here, before the call (names are examples; carry the three gpucarry/ files, < 64 MiB together):
#   .perf-venv/main/bin/python perf/make_predict_suite_models.py /tmp/kboost_predict_suite
#   tar cJf gpucarry/predict_models.tar.xz -C /tmp/kboost_predict_suite $(cd /tmp/kboost_predict_suite && ls *.ubj)
#   (cd build-gpu && ninja perf/bench_predict_gpu) && mkdir -p /tmp/pk/kb/lib && cp build-gpu/perf/bench_predict_gpu \
#     /tmp/pk/kb/ && cp "$(ldd build-gpu/perf/bench_predict_gpu | awk '/libcudart/ {print $3}')" /tmp/pk/kb/lib/ &&
#     tar cJf gpucarry/predict_gpu_kboost.tar.xz -C /tmp/pk kb
# Then on the device machine, one call from the repository root:
#   mkdir -p /tmp/models && tar xJf gpucarry/predict_models.tar.xz -C /tmp/models
#   tar xJf gpucarry/predict_gpu_kboost.tar.xz -C /tmp && export LD_LIBRARY_PATH=/tmp/kb/lib
#   XGB_SRC=gpucarry/xgb-src.tar.xz bash perf/predict_suite_gpu.sh /tmp/models /tmp/kb/bench_predict_gpu \
#     /tmp/xgb "$OUT/suite"
# (or start `perf/upstream_gpu/run.sh build gpucarry/xgb-src.tar.xz /tmp/xgb &` first and leave XGB_SRC
# unset). Exit status: the number of failed or timed-out steps.
set -uo pipefail
if [ $# -ne 4 ]; then
  sed -n '2,/^set -uo/p' "$0" | sed '$d' >&2
  exit 2
fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
models=$(cd "$1" && pwd) || exit 2
kb=$(realpath "$2") || exit 2
if [ ! -x "$kb" ]; then
  echo "predict_suite_gpu.sh: $kb is not an executable" >&2
  exit 2
fi
xgb=$3
out=$4
mkdir -p "$out/logs" "$xgb" && out=$(cd "$out" && pwd) && xgb=$(cd "$xgb" && pwd) || exit 2
logs=$out/logs
T0=$SECONDS
budget=${SUITE_BUDGET_S:-540}
reserve=15  # seconds kept for the merge, the summary and the tarball
trials=${SUITE_TRIALS:-50}
missing=${SUITE_MISSING:-0.02}
# the CSV's machine column: the GPU's model (h100, h200, ...) unless SUITE_MACHINE says otherwise
gpu_model=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -o -m1 '[A-Z][0-9][0-9]*' | head -1 | tr 'A-Z' 'a-z')
machine=${SUITE_MACHINE:-${gpu_model:-gpu}}
batches=${SUITE_BATCHES:-1,2,4,7,14,27,52,100,193,373,720,1389,2683,5180,10000,100000,1000000}
failed=0
echo "step,seconds,exit,limit_s,upstream_build" >"$logs/steps.csv"
note() { echo "[$(date -u +%H:%M:%S) +$((SECONDS - T0)) s] $*" | tee -a "$logs/suite.log"; }

# Models: SUITE_MODELS's order (names without extension; .ubj, else .json), by default the softprob
# slice with the most trees, d8_500, the other softprob slices by tree count, every other *.ubj, and
# deep_lossguide last; then any *.ubj not named. (*.json files, e.g. the model maker's *.plain.json
# and models.json, run only when named.)
softprob=()
while read -r n; do [ -n "$n" ] && softprob+=("softprob_$n"); done < <(
  for f in "$models"/softprob_*.ubj; do [ -f "$f" ] && { f=${f##*/softprob_}; echo "${f%.ubj}"; }; done | sort -n)
others=()
for f in "$models"/*.ubj; do
  [ -f "$f" ] || continue
  b=${f##*/}
  b=${b%.ubj}
  case $b in softprob_* | d8_500 | deep_lossguide) ;; *) others+=("$b") ;; esac
done
n_soft=${#softprob[@]}
default_order="${softprob[*]: -1:1} d8_500 ${softprob[*]:0:$((n_soft > 0 ? n_soft - 1 : 0))} ${others[*]} deep_lossguide"
order=${SUITE_MODELS:-$default_order}
model_files=()
for m in $order; do
  for ext in ubj json; do [ -f "$models/$m.$ext" ] && model_files+=("$models/$m.$ext") && break; done
done
for f in "$models"/*.ubj; do
  [ -f "$f" ] || continue
  case " ${model_files[*]} " in *" $f "*) ;; *) model_files+=("$f") ;; esac
done
if [ ${#model_files[@]} -eq 0 ]; then
  echo "predict_suite_gpu.sh: no model in $models" >&2
  exit 2
fi
name_of() { local b=${1##*/}; echo "${b%.*}"; }

# CPUs: the benchmarks on the first two allowed CPUs, a concurrent build on the others (with taskset
# and >= 4 allowed CPUs, unless SUITE_PIN=0).
cpus=()
if [ "${SUITE_PIN:-1}" = 1 ] && command -v taskset >/dev/null; then
  for part in $(awk '/^Cpus_allowed_list/ { gsub(",", " ", $2); print $2 }' /proc/self/status); do
    if [[ $part == *-* ]]; then
      for ((c = ${part%-*}; c <= ${part#*-}; ++c)); do cpus+=("$c"); done
    else
      cpus+=("$part")
    fi
  done
fi
bench_pin=() build_pin=()
build_jobs=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
if [ ${#cpus[@]} -ge 4 ]; then
  bench_cpus="${cpus[0]},${cpus[1]}"
  build_cpus=$(IFS=,; echo "${cpus[*]:2}")
  if taskset -c "$bench_cpus" true && taskset -c "$build_cpus" true; then
    bench_pin=(taskset -c "$bench_cpus")
    build_pin=(taskset -c "$build_cpus")
    build_jobs=$((${#cpus[@]} - 2))
  fi
fi

# Upstream build: ready | failed | pending (running: XGB_DIR/src exists, no build.rc yet) | absent.
build_pid=
build_state() {
  local rc
  rc=$(cat "$xgb/build.rc" 2>/dev/null)
  if [ -n "$rc" ] && [ "$rc" != 0 ]; then echo failed
  elif [ -x "$xgb/xgb_predict_gpu" ]; then echo ready
  elif [ -n "$build_pid" ] && ! kill -0 "$build_pid" 2>/dev/null; then echo failed  # ours ended, no driver
  elif [ -d "$xgb/src" ]; then echo pending
  else echo absent
  fi
}
building=no
state=$(build_state)
if [ "$state" = absent ] && [ -z "${XGB_SRC:-}" ]; then
  sleep 5  # a build the caller has just started creates XGB_DIR/src first
  state=$(build_state)
fi
case $state in
  ready) note "upstream: $xgb/xgb_predict_gpu already built" ;;
  failed) note "upstream: the build in $xgb failed (build.rc $(cat "$xgb/build.rc" 2>/dev/null))" ;;
  pending)
    note "upstream: waiting for the build in $xgb started elsewhere"
    building=yes ;;
  absent)
    if [ -n "${XGB_SRC:-}" ]; then
      note "upstream: building $XGB_SRC into $xgb in the background, $build_jobs jobs (${build_pin[*]:-no pinning}); benchmarks: ${bench_pin[*]:-no pinning}"
      mkdir -p "$xgb/src"
      set -m  # the build in a process group of its own, so that it can be stopped as a whole
      XGB_BUILD_JOBS=$build_jobs "${build_pin[@]}" bash "$repo/perf/upstream_gpu/run.sh" build \
        "$XGB_SRC" "$xgb" >"$logs/upstream_run.log" 2>&1 &
      build_pid=$!
      set +m
      building=yes
    else
      note "upstream: no build in $xgb and XGB_SRC unset: upstream is skipped"
    fi ;;
esac

left() { echo $((budget - reserve - (SECONDS - T0))); }
# step NAME LIMIT CMD...: run under timeout (LIMIT cut to the budget left), log to logs/NAME.log.
step() {
  local name=$1 limit=$2
  shift 2
  local l
  l=$(left)
  [ "$l" -lt "$limit" ] && limit=$l
  local state
  state=$(build_state)
  if [ "$l" -lt 10 ]; then
    note "$name: skipped (budget spent)"
    echo "$name,0,skipped,$limit,$state" >>"$logs/steps.csv"
    failed=$((failed + 1))
    return 1
  fi
  local t0=$SECONDS
  timeout -k 5 "$limit" "${bench_pin[@]}" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  local tag=""
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && tag=" (timed out after $limit s)"
  note "$name: exit $rc$tag, $((SECONDS - t0)) s, upstream build $state"
  echo "$name,$((SECONDS - t0)),$rc,$limit,$state" >>"$logs/steps.csv"
  [ $rc -eq 0 ] || failed=$((failed + 1))
  return $rc
}
common=(--batches "$batches" --trials "$trials" --missing "$missing" --machine "$machine")

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.csv" 2>&1
if ! "$kb" --help >/dev/null 2>"$logs/kboost_help.log"; then
  note "kboost: $kb does not start (logs/kboost_help.log; LD_LIBRARY_PATH?)"
  ldd "$kb" >>"$logs/kboost_help.log" 2>&1
fi

if [ "${SUITE_SERIAL:-0}" = 1 ]; then
  note "SUITE_SERIAL=1: waiting for the upstream build first"
  while [ "$(build_state)" = pending ] && [ "$(left)" -gt 60 ]; do sleep 2; done
fi

note "1. kboost, ${#model_files[@]} models: $(for f in "${model_files[@]}"; do name_of "$f"; done | tr '\n' ' ')"
for f in "${model_files[@]}"; do
  m=$(name_of "$f")
  step "kboost_$m" "${KBOOST_STEP_S:-75}" "$kb" --model "$f" --model-name "$m" "${common[@]}" --paths batch \
    --suite-csv "$logs/kboost_$m.csv"
done

forest_left=()
if [ "${SUITE_DEVICE_FOREST:-1}" = 1 ]; then forest_left=("${model_files[@]}"); fi
run_forest() {  # the next device-forest model
  local f=${forest_left[0]}
  forest_left=("${forest_left[@]:1}")
  local m
  m=$(name_of "$f")
  step "kboost_device_forest_$m" "${FOREST_STEP_S:-60}" "$kb" --model "$f" --model-name "$m" "${common[@]}" \
    --paths device_forest --suite-csv "$logs/kboost_device_forest_$m.csv"
}
nvforest=${SUITE_NVFOREST:-auto}
if [ "$nvforest" = auto ]; then
  if python3 -c 'import nvforest' >"$logs/nvforest_import.log" 2>&1; then nvforest=1; else nvforest=0; fi
  note "nvforest: $([ $nvforest = 1 ] && echo "importable, runs" || echo "not importable (logs/nvforest_import.log), skipped")"
fi
if [ "$nvforest" = 1 ]; then
  note "1b. nvForest (default layout, optimize()d), every model"
  for f in "${model_files[@]}"; do
    m=$(name_of "$f")
    step "nvforest_$m" "${NVFOREST_STEP_S:-120}" env PYTHONWARNINGS=ignore python3 "$repo/perf/predict_suite_nvforest.py" gpu --model "$f" \
      --model-name "$m" "${common[@]}" --suite-csv "$logs/nvforest_$m.csv"
  done
fi

note "2. kboost_device_forest while upstream builds (state $(build_state))"
while [ ${#forest_left[@]} -gt 0 ] && [ "$(build_state)" = pending ]; do run_forest; done

note "3. upstream: waiting for the build (state $(build_state))"
while [ "$(build_state)" = pending ] && [ "$(left)" -gt 30 ]; do sleep 2; done
state=$(build_state)
note "upstream build: $state$( [ -f "$xgb/build.seconds" ] && echo ", $(cat "$xgb/build.seconds") s")"
if [ "$state" = ready ]; then
  for f in "${model_files[@]}"; do
    m=$(name_of "$f")
    step "xgboost_gpu_$m" "${XGB_STEP_S:-100}" "$xgb/xgb_predict_gpu" --model "$f" --model-name "$m" "${common[@]}" \
      --csv "$logs/xgboost_gpu_$m.csv"
  done
else
  note "upstream: no driver ($state); see logs/upstream_run.log, logs/upstream_build_tail.log"
  failed=$((failed + 1))
fi

if [ "$building" = yes ]; then
  m=$(name_of "${model_files[0]}")
  note "4. control: kboost on $m after the build"
  step kboost_control 30 "$kb" --model "${model_files[0]}" --model-name "$m" --batches 1,100,10000,1000000 \
    --trials "$trials" --missing "$missing" --machine "$machine" --paths batch --suite-csv "$logs/kboost_control.csv"
fi

if [ ${#forest_left[@]} -gt 0 ]; then
  note "5. kboost_device_forest, ${#forest_left[@]} models left"
  while [ ${#forest_left[@]} -gt 0 ]; do run_forest; done
fi

# Upstream build logs (the tail of the build log; all of it when it failed).
for f in configure build; do
  [ -f "$xgb/$f.log" ] && tail -n 200 "$xgb/$f.log" >"$logs/upstream_${f}_tail.log"
done
[ -f "$xgb/build.rc" ] && cp "$xgb/build.rc" "$logs/upstream_build.rc"
[ -f "$xgb/build.seconds" ] && cp "$xgb/build.seconds" "$logs/upstream_build.seconds"

# One CSV: kboost, xgboost_gpu, kboost_device_forest rows, model order as run.
csv=$out/predict_suite_gpu.csv
echo "machine,tool,model,trees,batch,trials,p50_ms,p99_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,check" >"$csv"
for tool in kboost xgboost_gpu kboost_device_forest nvforest; do
  for f in "${model_files[@]}"; do
    part=$logs/${tool}_$(name_of "$f").csv
    [ -f "$part" ] && tail -n +2 "$part" >>"$csv"
  done
done

{
  echo "# predict_suite_gpu.sh on ${HOSTNAME:-?}, $(date -u +%FT%TZ), $((SECONDS - T0)) s, $failed failed step(s)"
  echo "# GPU: $(tail -n 1 "$out/gpu.csv")"
  echo "# kboost: $kb; upstream: $xgb (build $(build_state)$( [ -f "$xgb/build.seconds" ] && echo ", $(cat "$xgb/build.seconds") s"))"
  echo "# rows per tool: $(tail -n +2 "$csv" | cut -d, -f2 | sort | uniq -c | awk '{printf "%s %s; ", $2, $1}')"
  echo
  echo "## steps"
  if command -v column >/dev/null; then column -s, -t <"$logs/steps.csv"; else cat "$logs/steps.csv"; fi
  echo
  echo "## end-to-end p50 (ms) and upstream / kboost"
  awk -F, 'NR > 1 {
      key = $3 "," $5
      if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
      p50[$2 "," key] = $7; trees[$3] = $4
    }
    END {
      printf "%-16s %6s %9s %12s %12s %12s %12s %12s %9s %9s\n", "model", "trees", "batch", "kboost", "xgboost_gpu", \
        "dev_forest", "nvforest", "nvforest_opt", "xgb/kb", "kb/nvf*"
      for (i = 1; i <= n; ++i) {
        split(keys[i], k, ",")
        a = p50["kboost," keys[i]]; b = p50["xgboost_gpu," keys[i]]; c = p50["kboost_device_forest," keys[i]]
        d = p50["nvforest," keys[i]]; e = p50["nvforest_opt," keys[i]]
        best = (d != "" && (e == "" || d + 0 < e + 0)) ? d : e
        r = (a != "" && b != "" && a > 0) ? sprintf("%.2f", b / a) : "-"
        q = (a != "" && best != "" && best > 0) ? sprintf("%.2f", a / best) : "-"
        printf "%-16s %6s %9s %12s %12s %12s %12s %12s %9s %9s\n", k[1], trees[k[1]], k[2], a == "" ? "-" : a, \
          b == "" ? "-" : b, c == "" ? "-" : c, d == "" ? "-" : d, e == "" ? "-" : e, r, q
      }
      print "(kb/nvf*: kboost p50 over the faster of the two nvForest layouts; the goal is <= 0.5)"
    }' "$csv"
  echo
  echo "## output checks (check lines of the logs): every tool against kboost"
  cat "$logs"/*.log 2>/dev/null | grep -h '^check ' | awk '{
      delete kv
      for (i = 2; i <= NF; ++i) { split($i, p, "="); kv[p[1]] = p[2] }
      key = kv["model"] " " kv["batch"]
      if (kv["tool"] == "kboost" && !(key in kb_bits)) { kb_bits[key] = kv["bits"]; kb_w[key] = kv["wsum"] }
      else if (kv["tool"] != "kboost") { tool[++n] = kv["tool"]; k[n] = key; bits[n] = kv["bits"]; w[n] = kv["wsum"] }
    }
    END {
      for (i = 1; i <= n; ++i) {
        if (!(k[i] in kb_bits)) { other[tool[i]]++; continue }
        if (bits[i] == kb_bits[k[i]]) { same[tool[i]]++; continue }
        d = w[i] - kb_w[k[i]]; if (d < 0) d = -d
        rel = d / (kb_w[k[i]] < 0 ? -kb_w[k[i]] : kb_w[k[i]] + 1e-30)
        diff[tool[i]]++
        if (rel > worst[tool[i]]) { worst[tool[i]] = rel; where[tool[i]] = k[i] }
      }
      for (t in same) printed[t] = 1
      for (t in diff) printed[t] = 1
      for (t in printed)
        printf "%-22s bit-identical to kboost at %d points, different at %d (largest relative wsum difference %.3g at %s)\n",
          t, same[t], diff[t], worst[t], diff[t] ? where[t] : "-"
      for (t in other) printf "%-22s %d points without a kboost point to compare\n", t, other[t]
    }'
  grep -h "bits equal to the batch path: NO" "$logs"/*.log 2>/dev/null
  grep -h "^result pointer" "$logs"/xgboost_gpu_*.log 2>/dev/null | sort -u
  if [ -f "$logs/kboost_control.csv" ]; then
    echo
    echo "## control: kboost p50 while upstream built (step 1) vs after (step 4), ms"
    m=$(name_of "${model_files[0]}")
    awk -F, -v m="$m" 'FNR == 1 { file++; next }
      file == 1 && $3 == m { during[$5] = $7 }
      file == 2 { after[$5] = $7; order[++n] = $5 }
      END { for (i = 1; i <= n; ++i) { b = order[i]; printf "batch %8s: %10s %10s\n", b, (b in during) ? during[b] : "-", after[b] } }' \
      "$logs/kboost_$m.csv" "$logs/kboost_control.csv" 2>/dev/null
  fi
} >"$out/summary.txt" 2>&1
cat "$out/summary.txt"

if [ "$(build_state)" = pending ] && [ -n "$build_pid" ]; then
  note "upstream build still running at the end: stopped"
  kill -TERM -- "-$build_pid" 2>/dev/null
fi
tar czf "$out/logs.tgz" -C "$out" logs
[ "${SUITE_KEEP_LOGS:-0}" = 1 ] || rm -rf "$logs"
exit $failed
