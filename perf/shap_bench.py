#!/usr/bin/env python3
"""SHAP contributions: kboost predict --pred-contribs (OpenMP) vs upstream XGBoost 3.2.0 CPU
pred_contribs, same model, rows and thread count.

Makes once, cached in --workdir: synthetic regression data (28 features, 200,000 training rows and
--rows evaluation rows, 10% of the values missing, a nonlinear target with noise, fixed numpy
seed), an upstream model (tree_method=hist, max_depth=--depth, eta=0.1, reg:squarederror,
--trees rounds) saved as model.json, and the evaluation rows as eval.csv (no header, missing =
empty field, 9 significant digits so every float32 reads back exactly).

Times (on the first --time-rows rows when given, else on all --rows):
  upstream: bst.predict(DMatrix(X), pred_contribs=True) with nthread=--threads, best of 3 after a
            warm-up on 1,000 rows (fewer when fewer are timed; the DMatrix is built outside the
            timed call);
  kboost:   OMP_NUM_THREADS=N OMP_PROC_BIND=false kboost predict --model model.json --data eval.csv
            --out contribs.csv --pred-contribs --timing --repeat 3, the p50 of its "kernel:" line
            (the SHAP computation with the rows already resident; no file reading or writing).
Then compares kboost's contributions with upstream's: the largest |difference| relative to the
row's sum of |contributions|, and the fraction of values that are exactly equal.

One CSV line per run goes to stdout and is appended to --workdir/shap_bench.csv. With --time-rows
the measured seconds are for those rows; rows/s and the time for all --rows (extrapolated
linearly, flagged in the "extrapolated" column) are given beside them.

  /tmp/venv/bin/python perf/shap_bench.py --workdir /tmp/kboost_shap_bench --threads 2 --time-rows 2000
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FEATURES = 28
TRAIN_ROWS = 200_000
NAN_FRACTION = 0.1
SEED = 20261204
WARMUP_ROWS = 1000

COLUMNS = ["machine", "threads", "rows", "timed_rows", "trees", "depth", "leaves_per_tree",
           "upstream_s", "kboost_s", "ratio_kboost_upstream", "max_rel_diff", "exact_fraction",
           "upstream_rows_per_s", "kboost_rows_per_s", "upstream_s_all_rows", "kboost_s_all_rows", "extrapolated"]


def machine_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
        else:
            name = platform.processor() or platform.machine()
    except OSError:
        name = platform.processor() or platform.machine()
    name = re.sub(r"\s+", " ", name.replace(",", " "))
    return "%s (%d cpus)" % (name, os.cpu_count())


# ---------------------------------------------------------------- data and model
def synthetic(rng, n):
    """n x 28 float32 rows (10% NaN) and a nonlinear target computed on the complete rows plus noise."""
    X = rng.standard_normal((n, FEATURES)).astype(np.float32)
    x = X.astype(np.float64)
    y = (np.sin(2.0 * x[:, 0]) * x[:, 1] + 0.5 * x[:, 2] ** 2 - x[:, 3] * x[:, 4]
         + np.exp(-x[:, 5] ** 2) + np.abs(x[:, 6]) * (x[:, 7] > 0) + 0.3 * np.tanh(x[:, 8:16].sum(axis=1))
         + 0.1 * x[:, 16:].sum(axis=1))
    y += 0.2 * rng.standard_normal(n)
    X[rng.random(X.shape) < NAN_FRACTION] = np.nan
    return X, y.astype(np.float32)


def write_csv(path, X):
    """No header, 9 significant digits (float32 round-trips exactly), missing = empty field."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for row in X:
            f.write(",".join("" if v != v else "%.9g" % v for v in row.tolist()))
            f.write("\n")
    os.replace(tmp, path)


def load_meta(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def prepare(a):
    """Eval rows (float32) and the model path, making whatever the work folder lacks or has for other settings."""
    os.makedirs(a.workdir, exist_ok=True)
    data_meta = {"features": FEATURES, "train_rows": TRAIN_ROWS, "eval_rows": a.rows, "nan": NAN_FRACTION, "seed": SEED}
    npz = os.path.join(a.workdir, "data.npz")
    eval_csv = os.path.join(a.workdir, "eval.csv")
    fresh_data = load_meta(os.path.join(a.workdir, "data.meta.json")) != data_meta or not os.path.exists(npz) \
        or not os.path.exists(eval_csv)
    if fresh_data:
        t0 = time.time()
        rng = np.random.default_rng(SEED)
        Xt, yt = synthetic(rng, TRAIN_ROWS)
        Xe, _ = synthetic(rng, a.rows)
        np.savez(npz, Xt=Xt, yt=yt, Xe=Xe)
        write_csv(eval_csv, Xe)
        json.dump(data_meta, open(os.path.join(a.workdir, "data.meta.json"), "w"))
        print("# data: %d train + %d eval rows written in %.1f s" % (TRAIN_ROWS, a.rows, time.time() - t0),
              file=sys.stderr)
    d = np.load(npz)
    model_meta = dict(data_meta, trees=a.trees, depth=a.depth, eta=0.1, xgboost=xgb.__version__)
    model = os.path.join(a.workdir, "model.json")
    if fresh_data or load_meta(os.path.join(a.workdir, "model.meta.json")) != model_meta or not os.path.exists(model):
        t0 = time.time()
        params = {"tree_method": "hist", "max_depth": a.depth, "eta": 0.1, "objective": "reg:squarederror",
                  "nthread": a.threads, "seed": 0}
        b = xgb.train(params, xgb.DMatrix(d["Xt"], label=d["yt"]), a.trees)
        b.save_model(model)
        json.dump(model_meta, open(os.path.join(a.workdir, "model.meta.json"), "w"))
        print("# model: %d trees of depth %d trained in %.1f s" % (a.trees, a.depth, time.time() - t0),
              file=sys.stderr)
    return d["Xe"], model


def leaves_per_tree(model):
    trees = json.load(open(model))["learner"]["gradient_booster"]["model"]["trees"]
    leaves = sum(sum(1 for c in t["left_children"] if c == -1) for t in trees)
    return leaves / max(1, len(trees))


# ---------------------------------------------------------------- timing
def time_upstream(model, X, threads):
    bst = xgb.Booster(model_file=model)
    bst.set_param({"nthread": threads})
    bst.predict(xgb.DMatrix(X[:min(WARMUP_ROWS, X.shape[0])]), pred_contribs=True)
    d = xgb.DMatrix(X, nthread=threads)
    best, out = None, None
    for _ in range(3):
        t0 = time.perf_counter()
        out = bst.predict(d, pred_contribs=True)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best, out.reshape(X.shape[0], -1)


def time_kboost(a, model, data_csv, rows):
    out_csv = os.path.join(a.workdir, "contribs.csv")
    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="false")
    cmd = [a.kboost, "predict", "--model", model, "--data", data_csv, "--format", "csv", "--no-header",
           "--out", out_csv, "--pred-contribs", "--timing", "--repeat", "3"]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("kboost failed (%d): %s\n%s%s" % (res.returncode, " ".join(cmd), res.stdout, res.stderr))
    m = re.search(r"^kernel:\s+p50\s+([0-9.eE+-]+)\s*ms", res.stdout, re.M)
    if not m:
        raise SystemExit("no 'kernel: p50 ... ms' line in kboost's output:\n" + res.stdout + res.stderr)
    print("# kboost: " + " | ".join(l.strip() for l in res.stdout.strip().splitlines()), file=sys.stderr)
    # The output CSV has a header line of column names; 9 significant digits read back exactly.
    contribs = np.loadtxt(out_csv, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2).astype(np.float32)
    assert contribs.shape[0] == rows, (contribs.shape, rows)
    return float(m.group(1)) / 1e3, contribs


def compare(kb, up):
    """Largest |kboost - upstream| over a row, relative to that row's sum of |upstream contributions|;
    fraction of values exactly equal."""
    if kb.shape != up.shape:
        raise SystemExit("kboost contributions are %s, upstream's %s" % (kb.shape, up.shape))
    diff = np.abs(kb.astype(np.float64) - up.astype(np.float64))
    scale = np.abs(up.astype(np.float64)).sum(axis=1)
    rel = diff.max(axis=1) / np.where(scale > 0, scale, 1.0)
    return float(rel.max()), float(np.mean(kb == up))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--rows", type=int, default=100_000, help="evaluation rows made (default 100000)")
    ap.add_argument("--trees", type=int, default=1000)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--kboost", default=os.path.join(REPO, "build", "kboost"))
    ap.add_argument("--time-rows", type=int, default=0,
                    help="time both on only the first R rows; the time for all --rows is extrapolated")
    ap.add_argument("--skip-kboost", action="store_true", help="time upstream only (kboost columns left empty)")
    a = ap.parse_args()
    if xgb.__version__ != "3.2.0":
        print("# warning: upstream is xgboost %s, not 3.2.0" % xgb.__version__, file=sys.stderr)

    X, model = prepare(a)
    rows = min(a.time_rows, a.rows) if a.time_rows > 0 else a.rows
    data_csv = os.path.join(a.workdir, "eval.csv")
    if rows < a.rows:
        X = X[:rows]
        data_csv = os.path.join(a.workdir, "eval_%d.csv" % rows)
        if not os.path.exists(data_csv):
            write_csv(data_csv, X)

    up_s, up = time_upstream(model, X, a.threads)
    kb_s, rel, exact = None, None, None
    if not a.skip_kboost:
        kb_s, kb = time_kboost(a, model, data_csv, rows)
        rel, exact = compare(kb, up)

    scale = a.rows / rows
    fmt = lambda v, f: "" if v is None else f % v  # noqa: E731
    rec = {
        "machine": machine_name(), "threads": a.threads, "rows": a.rows, "timed_rows": rows, "trees": a.trees,
        "depth": a.depth, "leaves_per_tree": "%.1f" % leaves_per_tree(model),
        "upstream_s": "%.4f" % up_s, "kboost_s": fmt(kb_s, "%.4f"),
        "ratio_kboost_upstream": fmt(None if kb_s is None else kb_s / up_s, "%.3f"),
        "max_rel_diff": fmt(rel, "%.3g"), "exact_fraction": fmt(exact, "%.6f"),
        "upstream_rows_per_s": "%.1f" % (rows / up_s),
        "kboost_rows_per_s": fmt(None if kb_s is None else rows / kb_s, "%.1f"),
        "upstream_s_all_rows": "%.2f" % (up_s * scale),
        "kboost_s_all_rows": fmt(None if kb_s is None else kb_s * scale, "%.2f"),
        "extrapolated": "yes" if rows < a.rows else "no",
    }
    line = ",".join(str(rec[c]) for c in COLUMNS)
    out = os.path.join(a.workdir, "shap_bench.csv")
    new = not os.path.exists(out)
    with open(out, "a") as f:
        if new:
            f.write(",".join(COLUMNS) + "\n")
        f.write(line + "\n")
    print(",".join(COLUMNS))
    print(line)


if __name__ == "__main__":
    main()
