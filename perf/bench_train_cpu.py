#!/usr/bin/env python3
"""CPU training side by side: kboost (its CLI, OpenMP backend) against xgboost `hist` and LightGBM,
same data, same thread count, same run, with the held-out AUC beside every time.

Data: synthetic train and test rows × features float32 (seeded; 2 % missing), binary label from a
noisy linear rule (the shape of ../shared/reference/anchors-h200.md's CPU table).
Timed:
  kboost    the `train` command's wall time: reading the HDF5 file, cuts, binning, all rounds
            (its phase table is printed below the results);
  xgboost   QuantileDMatrix construction + xgb.train (tree_method=hist, max_bin 256);
  lightgbm  Dataset construction + lgb.train (num_leaves 2^depth - 1, max_depth, max_bin 255).
Test AUC: kboost's model is loaded by xgboost and predicts the test rows (so the AUC also checks that
upstream reads kboost's model); the peers predict with their own models.

--contention runs one busy process per `--busy` core during every timed fit (HPC nodes are shared:
the goal is at most 2x the idle time with one of two cores busy).

--grow-policy lossguide --max-leaves N grows leaf-wise trees in all three (LightGBM: num_leaves N;
max_depth 0 is no depth limit); --missing sets the fraction of missing values; --kboost-extra passes
more options to kboost's train (e.g. "--kboost_lossguide_lookahead 0", printed as a second kboost row).

--suite runs both shapes of docs/training.md's CPU table one after the other (500k x 28 with 2 %
missing, depth 6; 300k x 200 with half the values missing, depth 8), every peer beside kboost.

Usage: python perf/bench_train_cpu.py [--rows 500000] [--features 28] [--rounds 100] [--max-depth 6]
       [--grow-policy depthwise|lossguide] [--max-leaves 0] [--missing 0.02] [--kboost-extra "..."]
       [--threads 2] [--repeat 1] [--contention] [--suite] [--peers xgboost,lightgbm] [--kboost build/kboost]
"""
import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# --suite: (rows, features, fraction missing, depth), 100 rounds (--rounds), depthwise
SUITE_SHAPES = [(500000, 28, 0.02, 6), (300000, 200, 0.5, 8)]


def make_data(rows, features, seed, missing):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=features)

    def draw(n):
        X = rng.normal(size=(n, features)).astype(np.float32)
        y = ((X @ w + rng.normal(scale=2.0, size=n)) > 0).astype(np.float32)
        X[rng.random(X.shape) < missing] = np.nan
        return X, y

    return draw(rows), draw(max(rows // 5, 1000))


def busy():
    while True:
        pass


class Contention:
    """Busy processes for the duration of a with-block (none when n == 0)."""

    def __init__(self, n):
        self.n, self.procs = n, []

    def __enter__(self):
        self.procs = [multiprocessing.Process(target=busy, daemon=True) for _ in range(self.n)]
        for p in self.procs:
            p.start()
        time.sleep(0.2 if self.n else 0)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.terminate()
            p.join()


def run_kboost(a, train_path, model_path, extra=()):
    cmd = [a.kboost, "--nthread", str(a.threads), "train", "--data", train_path, "--num-round", str(a.rounds),
           "--model-out", model_path, "--objective", "binary:logistic", "--max_depth", str(a.max_depth),
           "--eta", "0.3", "--max_bin", "256", "--grow_policy", a.grow_policy, "--max_leaves", str(a.max_leaves),
           *extra]
    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return time.perf_counter() - t0, out.stdout + out.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=500000)
    ap.add_argument("--features", type=int, default=28)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--max-depth", type=int, default=6)
    ap.add_argument("--grow-policy", default="depthwise", choices=["depthwise", "lossguide"])
    ap.add_argument("--max-leaves", type=int, default=0)
    ap.add_argument("--missing", type=float, default=0.02, help="fraction of values missing")
    ap.add_argument("--kboost-extra", default="", help="more kboost train options: a second kboost row")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="fits per library (the median is reported)")
    ap.add_argument("--contention", action="store_true", help="keep --busy cores busy during every fit")
    ap.add_argument("--busy", type=int, default=1)
    ap.add_argument("--peers", default="xgboost,lightgbm")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--kboost", default=os.path.join(ROOT, "build", "kboost"))
    ap.add_argument("--suite", action="store_true",
                    help="both shapes of docs/training.md's CPU table in one command (SUITE_SHAPES below)")
    a = ap.parse_args()
    if not a.suite:
        return run_shape(a)
    for rows, features, missing, depth in SUITE_SHAPES:
        a.rows, a.features, a.missing, a.max_depth, a.grow_policy, a.max_leaves = rows, features, missing, depth, \
            "depthwise", 0
        run_shape(a)
        print()
    return 0


def run_shape(a):
    peers = [p for p in a.peers.split(",") if p]
    (X, y), (Xt, yt) = make_data(a.rows, a.features, a.seed, a.missing)
    results = {}
    load = a.busy if a.contention else 0
    with tempfile.TemporaryDirectory() as tmp:
        train_path = os.path.join(tmp, "train.h5")
        with h5py.File(train_path, "w") as f:
            f["X"] = X
            f["y"] = y
        import xgboost as xgb

        model_path = os.path.join(tmp, "m.json")
        times, phases = [], ""
        for _ in range(a.repeat):
            with Contention(load):
                t, phases = run_kboost(a, train_path, model_path)
            times.append(t)
        bst = xgb.Booster(model_file=model_path)
        auc = roc_auc_score(yt, bst.predict(xgb.DMatrix(Xt, missing=np.nan)))
        results["kboost"] = (times, auc)
        if a.kboost_extra:
            times = []
            for _ in range(a.repeat):
                with Contention(load):
                    times.append(run_kboost(a, train_path, model_path, a.kboost_extra.split())[0])
            auc = roc_auc_score(yt, xgb.Booster(model_file=model_path).predict(xgb.DMatrix(Xt, missing=np.nan)))
            results[f"kboost {a.kboost_extra}"] = (times, auc)

        if "xgboost" in peers:
            params = {"objective": "binary:logistic", "max_depth": a.max_depth, "eta": 0.3, "max_bin": 256,
                      "tree_method": "hist", "nthread": a.threads, "grow_policy": a.grow_policy,
                      "max_leaves": a.max_leaves}
            times = []
            for _ in range(a.repeat):
                with Contention(load):
                    t0 = time.perf_counter()
                    d = xgb.QuantileDMatrix(X, label=y, missing=np.nan, nthread=a.threads, max_bin=256)
                    b = xgb.train(params, d, a.rounds)
                    times.append(time.perf_counter() - t0)
            auc = roc_auc_score(yt, b.predict(xgb.DMatrix(Xt, missing=np.nan)))
            results[f"xgboost {xgb.__version__} hist"] = (times, auc)
        if "lightgbm" in peers:
            import lightgbm as lgb

            leaves = a.max_leaves if a.grow_policy == "lossguide" else 2 ** a.max_depth - 1
            params = {"objective": "binary", "num_leaves": leaves, "max_depth": a.max_depth or -1,
                      "learning_rate": 0.3, "max_bin": 255, "num_threads": a.threads, "verbose": -1}
            times = []
            for _ in range(a.repeat):
                with Contention(load):
                    t0 = time.perf_counter()
                    d = lgb.Dataset(X, label=y, params={"max_bin": 255, "verbose": -1})
                    b = lgb.train(params, d, a.rounds)
                    times.append(time.perf_counter() - t0)
            auc = roc_auc_score(yt, b.predict(Xt))
            results[f"lightgbm {lgb.__version__}"] = (times, auc)

    kb = statistics.median(results["kboost"][0])
    shape = f"lossguide {a.max_leaves} leaves, " if a.grow_policy == "lossguide" else ""
    print(f"# {a.rows} x {a.features} ({100 * a.missing:g} % missing), binary:logistic, {a.rounds} rounds, "
          f"{shape}depth {a.max_depth or 'unlimited'}, "
          f"{a.threads} threads{', ' + str(load) + ' core(s) kept busy' if load else ''}; median of {a.repeat}")
    print("| library | fit wall (s) | test AUC | kboost / library |")
    print("|---|---|---|---|")
    for name, (times, auc) in results.items():
        med = statistics.median(times)
        print(f"| {name} | {med:.3f} | {auc:.5f} | {kb / med:.2f} |")
    print("\nkboost phases (last fit):")
    print(phases.strip())
    print(json.dumps({k: {"times_s": v[0], "test_auc": v[1]} for k, v in results.items()}))


if __name__ == "__main__":
    sys.exit(main())
