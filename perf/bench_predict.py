#!/usr/bin/env python3
"""kboost predict (OpenMP) vs upstream XGBoost inplace_predict, same model, data and thread count.

Trains (once, cached in --work) a 999-tree depth-6 binary:logistic model on ../shared/data/
lightgbm_binary/binary.train (28 features), builds a 1,000,000-row input by resampling its rows,
then times batches of 1, 100, 10,000 and 1,000,000 rows: p50 and p99 per call for both, printing
kboost/upstream ratios (< 1: kboost faster). kboost's time is its kernel with the input already
resident (predict + fence); on host backends its h2d/d2h are plain copies, reported beside it.
Also checks that kboost's predictions are bit-identical to upstream's for every batch.

  /work/main/.venv/bin/python perf/bench_predict.py --build build-infer --threads 2
"""
import argparse
import json
import os
import subprocess
import time

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DATA = os.path.join(REPO, "..", "shared", "data", "lightgbm_binary", "binary.train")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(REPO, "build-infer"))
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--work", default="/tmp/kboost_bench_predict")
    ap.add_argument("--batches", default="1,100,10000,1000000")
    ap.add_argument("--repeats", type=int, default=300)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    model = os.path.join(a.work, "binary_999x6.json")
    d = np.loadtxt(DATA, delimiter="\t", dtype=np.float64)
    X, y = d[:, 1:].astype(np.float32), d[:, 0].astype(np.float32)
    if not os.path.exists(model):
        t0 = time.time()
        b = xgb.train({"objective": "binary:logistic", "max_depth": 6, "eta": 0.05, "tree_method": "hist",
                       "nthread": a.threads, "seed": 0}, xgb.DMatrix(X, label=y), 999)
        b.save_model(model)
        print("trained 999 trees in %.1f s" % (time.time() - t0))
    xfile = os.path.join(a.work, "X_1M.f32")
    rng = np.random.default_rng(0)
    big = X[rng.integers(0, X.shape[0], 1_000_000)]
    big[rng.random(big.shape) < 0.02] = np.nan
    big.astype("<f4").tofile(xfile)

    batches = [int(b) for b in a.batches.split(",")]
    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="false")
    exe = os.path.join(a.build, "perf", "bench_predict")
    res = subprocess.run([exe, model, xfile, str(X.shape[1]), a.batches, str(a.repeats), os.path.join(a.work, "kb_")],
                         env=env, capture_output=True, text=True, check=True)
    kb = {r["rows"]: r for r in map(json.loads, res.stdout.strip().splitlines())}
    print(res.stderr.strip())

    booster = xgb.Booster(model_file=model)
    booster.set_param({"nthread": a.threads})
    print("%9s | %11s %11s | %11s %11s | %7s %7s | %s" % ("rows", "kboost p50", "kboost p99", "xgb p50", "xgb p99",
                                                        "p50 x", "p99 x", "bits"))
    rows_out = []
    for n in batches:
        off = kb[n]["check_offset"]  # the rows of bench_predict's call 0, whose predictions it wrote
        Xn = np.ascontiguousarray(big[off:off + n])
        calls = kb[n]["calls"]
        times = []
        for r in range(calls + 2):
            t0 = time.perf_counter()
            p = booster.inplace_predict(Xn)
            dt = (time.perf_counter() - t0) * 1e3
            if r >= 2:
                times.append(dt)
        times.sort()
        q = lambda v, f: v[min(len(v) - 1, int(f * (len(v) - 1) + 0.5))]
        x50, x99 = q(times, 0.5), q(times, 0.99)
        mine = np.fromfile(os.path.join(a.work, "kb_%d.f32" % n), dtype="<f4")
        same = np.array_equal(mine.view(np.uint32), p.astype(np.float32).reshape(-1).view(np.uint32))
        k50, k99 = kb[n]["kernel_p50_ms"], kb[n]["kernel_p99_ms"]
        print("%9d | %8.4f ms %8.4f ms | %8.4f ms %8.4f ms | %7.3f %7.3f | %s" % (
            n, k50, k99, x50, x99, k50 / x50, k99 / x99, "identical" if same else "DIFFERENT"))
        rows_out.append({"rows": n, "calls": calls, "kboost": kb[n], "xgboost_p50_ms": x50, "xgboost_p99_ms": x99,
                         "bit_identical": bool(same)})
    with open(os.path.join(a.work, "results.json"), "w") as f:
        json.dump({"threads": a.threads, "results": rows_out}, f, indent=1)


if __name__ == "__main__":
    main()
