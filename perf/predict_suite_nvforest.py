#!/usr/bin/env python3
"""nvForest (RAPIDS FIL's successor, PyPI nvforest-cu13) as a peer of both inference suites, each
point timed twice: the default layout (tool "nvforest", depth_first) and the layout and chunk size
that nvForest's own optimize() picks for that batch (tool "nvforest_opt"; the check column names
them). Single precision (precision="single") throughout; classifiers are timed through
predict_proba (the probabilities kboost and xgboost return), regressors through predict.

GPU suite (perf/predict_suite_gpu.sh, on the device machine; needs nvforest, cupy):
  predict_suite_nvforest.py gpu --model F [--model-name M] [--batches 1,100,...] [--trials 50]
      [--missing 0.02] [--machine h200] [--suite-csv FILE]
  Input: perf/predict_input.hpp's rows (the same bytes bench_predict_gpu and upstream's driver
  predict), held in pinned host memory (cupyx.empty_pinned); each call is nvForest's whole predict
  from that numpy array plus the copy of its CuPy result to the host (host -> device -> host: the
  GPU model answers numpy input with a device array), timed as predict_input.hpp's
  measure_point does (one untimed call, a probe call that sets the warm-up and trial counts, the
  warm-up, the timed calls; p50, p99). nvForest's call has no separate stages, so the h2d/kernel/d2h
  columns stay empty. optimize() runs on the batch's own rows, outside the timing. stdout: a line per
  point and the suite's "check tool=... model=... batch=... sum=... wsum=... bits=..." lines.

CPU suite (perf/predict_suite_cpu.py, like perf/predict_suite_onedal.py; OMP_NUM_THREADS threads):
  predict_suite_nvforest.py cpu SPEC_JSON
  SPEC_JSON: {"work", "name", "file", "objective", "x", "features", "batches", "rule": [budget_ms,
  min_trials, max_trials, seed]}. Times by perf/predict_suite_timing.py's rule; writes call 0's
  predictions to WORK/nvforest[_opt]_NAME_<batch>.npy and prints one JSON line per tool and batch.
  optimize() there sees at most 10,000 of the batch's rows (its search predicts them 18 times over).
"""
import argparse
import csv
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import predict_suite_timing as timing  # noqa: E402

COLUMNS = ["machine", "tool", "model", "trees", "batch", "trials", "p50_ms", "p99_ms", "h2d_p50_ms", "kernel_p50_ms",
           "d2h_p50_ms", "check"]
OPTIMIZE_MAX_ROWS_CPU = 10_000
FNV_MAX_VALUES = 300_000


def predict_input(rows, cols, missing, seed=12345):
    """perf/predict_input.hpp's fill_predict_input: one MMIX LCG step per element, value from bits
    40..63 in [-2, 2), NaN when bits 16..39 fall below missing * 2^24. Vectorised by jumping the LCG
    a block of K steps at a time (s_{i+K} = A_K s_i + C_K mod 2^64)."""
    a, c, mask = 6364136223846793005, 1442695040888963407, (1 << 64) - 1
    n = rows * cols
    k = min(n, 1 << 14)
    first, s = [], seed
    for _ in range(k):
        s = (s * a + c) & mask
        first.append(s)
    ak, ck = 1, 0
    for _ in range(k):
        ak, ck = (ak * a) & mask, (ck * a + c) & mask
    states = np.empty(((n + k - 1) // k, k), dtype=np.uint64)
    states[0] = np.array(first, dtype=np.uint64)
    ak64, ck64 = np.uint64(ak), np.uint64(ck)
    with np.errstate(over="ignore"):
        for b in range(1, len(states)):
            states[b] = states[b - 1] * ak64 + ck64
    s = states.reshape(-1)[:n]
    values = ((s >> np.uint64(40)) & np.uint64(0xFFFFFF)).astype(np.float32) / np.float32(16777216.0)
    values = values * np.float32(4.0) - np.float32(2.0)
    cut = np.uint64(int(round(min(max(missing, 0.0), 1.0) * 16777216.0)))
    values[((s >> np.uint64(16)) & np.uint64(0xFFFFFF)) < cut] = np.nan
    return values.reshape(rows, cols)


def output_check(out):
    """predict_input.hpp's check_output: plain sum, position-weighted sum, FNV-1a of the bytes (0 beyond
    FNV_MAX_VALUES values: a byte loop in Python takes seconds there)."""
    flat = np.ascontiguousarray(out, dtype=np.float32).reshape(-1)
    f64 = flat.astype(np.float64)
    weighted = float(np.sum(f64 * (np.arange(flat.size) % 7 + 1)))
    h = 1469598103934665603
    if flat.size > FNV_MAX_VALUES:
        return float(np.sum(f64)), weighted, 0
    for byte in flat.tobytes():
        h = ((h ^ byte) * 1099511628211) & ((1 << 64) - 1)
    return float(np.sum(f64)), weighted, h


def load(path, device, layout="depth_first"):
    import nvforest
    return nvforest.load_model(path, device=device, layout=layout, precision="single")


def to_host(a):
    """A result in host memory: the GPU model returns CuPy arrays even for numpy input."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


def predictor(model):
    """predict_proba for classifiers (the positive class alone when there are two), else predict; the
    result copied to the host, so a GPU call is host -> device -> host."""
    if not model.is_classifier:
        return lambda X: to_host(model.predict(X))

    def proba(X):
        p = to_host(model.predict_proba(X))
        return p[:, -1] if p.ndim == 2 and p.shape[1] <= 2 else p
    return proba


def optimized(model, X, device):
    """optimize() on X (the batch's rows): the model at the layout and chunk size it picks."""
    if device == "cpu":
        X = X[:OPTIMIZE_MAX_ROWS_CPU]
    return model.optimize(data=X)


def describe(model):
    return "layout=%s chunk=%s" % (model.layout, model.default_chunk_size)


# --- GPU suite -----------------------------------------------------------------------------------
def measure_point(call, max_trials):
    """predict_input.hpp's measure_point without the stage split: e2e times in ms and the plan."""
    call()
    t0 = time.perf_counter()
    call()
    probe_ms = max((time.perf_counter() - t0) * 1e3, 1e-3)
    warmup = int(min(max(500.0 / probe_ms, 1.0), 20.0))
    trials = min(max(max_trials, 1), int(max(5.0, min(1e6, 2000.0 / probe_ms))))
    for _ in range(warmup):
        call()
    times = []
    for _ in range(trials):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def pinned_copy(X):
    """X in page-locked host memory (cupyx.empty_pinned), as bench_predict_gpu holds its input."""
    import cupyx
    P = cupyx.empty_pinned(X.shape, dtype=X.dtype)
    P[...] = X
    return P


def gpu_main(argv):
    ap = argparse.ArgumentParser(prog="predict_suite_nvforest.py gpu")
    ap.add_argument("--model", required=True)
    ap.add_argument("--model-name")
    ap.add_argument("--batches", default="1,10,100,1000,10000,100000")
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--missing", type=float, default=0.02)
    ap.add_argument("--machine", default="h200")
    ap.add_argument("--suite-csv")
    a = ap.parse_args(argv)
    name = a.model_name or os.path.splitext(os.path.basename(a.model))[0]
    batches = [int(b) for b in a.batches.split(",")]
    t0 = time.time()
    base = load(a.model, "gpu")
    features, trees = base.forest.num_features, base.forest.num_trees
    print("nvforest: %s loaded in %.1f s: %d trees, %d features" % (name, time.time() - t0, trees, features),
          flush=True)
    X_all = pinned_copy(predict_input(max(batches), features, a.missing))
    out = open(a.suite_csv, "w", newline="") if a.suite_csv else None
    w = csv.DictWriter(out, COLUMNS) if out else None
    if w:
        w.writeheader()
    for batch in batches:
        X = X_all[:batch]
        opt = optimized(base, X, "gpu")
        for tool, model in (("nvforest", base), ("nvforest_opt", opt)):
            predict = predictor(model)
            result = {}

            def call():
                result["out"] = predict(X)

            times = measure_point(call, a.trials)
            s, ws, bits = output_check(result["out"])
            p50, p99 = timing.pct(times, 0.5), timing.pct(times, 0.99)
            print("%-13s %-16s batch %8d: p50 %.4f ms p99 %.4f ms (%d trials) %s" % (
                tool, name, batch, p50, p99, len(times), describe(model)), flush=True)
            print("check tool=%s model=%s batch=%d sum=%.9g wsum=%.9g bits=%d" % (tool, name, batch, s, ws, bits))
            if w:
                w.writerow({"machine": a.machine, "tool": tool, "model": name, "trees": trees, "batch": batch,
                            "trials": len(times), "p50_ms": "%.6g" % p50, "p99_ms": "%.6g" % p99,
                            "h2d_p50_ms": "", "kernel_p50_ms": "", "d2h_p50_ms": "",
                            "check": "checksum=%.9g %s" % (s, describe(model))})
                out.flush()
    return 0


# --- CPU suite -----------------------------------------------------------------------------------
def cpu_main(argv):
    spec = json.loads(argv[0])
    rule = timing.Rule(*spec["rule"])
    X = timing.load_rows(spec["x"], spec["features"])
    base = load(os.path.join(spec["work"], spec["file"]), "cpu")
    for tool in ("nvforest", "nvforest_opt"):
        for rows in spec["batches"]:
            model = base
            if tool == "nvforest_opt":
                model = optimized(base, X[timing.offset(rule.seed, 0, rows, len(X)):][:rows], "cpu")
            predict = predictor(model)
            predict(X[:1])
            r = timing.time_calls(predict, X, rows, rule)
            np.save(os.path.join(spec["work"], "%s_%s_%d.npy" % (tool, spec["name"], rows)), np.asarray(r.pop("out")))
            print(json.dumps(dict(r, rows=rows, tool=tool, config=describe(model))), flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("gpu", "cpu"):
        sys.exit(__doc__)
    sys.exit((gpu_main if sys.argv[1] == "gpu" else cpu_main)(sys.argv[2:]))
