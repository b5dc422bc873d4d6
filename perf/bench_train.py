#!/usr/bin/env python3
"""Training time: kboost (its CLI, OpenMP backend) against upstream xgboost tree_method=hist, same
thread count, same data, one run each; prints both times and the ratio.

Data: synthetic rows × features float32 (seeded; 2 % missing), binary label from a noisy linear
rule, or --data FILE.h5 with datasets X and y. kboost's time is its `train` command's wall time
(reading the HDF5 file, cuts, binning and all rounds); upstream's is DMatrix construction + xgb.train.
kboost's phase summary is printed as well.

Usage: .venv/bin/python perf/bench_train.py [--rows 200000] [--features 50] [--rounds 50]
       [--threads 2] [--kboost build-trainB/kboost]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
import xgboost as xgb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200000)
    ap.add_argument("--features", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--max-depth", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--data", default="")
    ap.add_argument("--kboost", default=os.path.join(ROOT, "build-trainB", "kboost"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = a.data
        if not path:
            rng = np.random.default_rng(42)
            X = rng.normal(size=(a.rows, a.features)).astype(np.float32)
            w = rng.normal(size=a.features)
            y = ((X @ w + rng.normal(scale=2.0, size=a.rows)) > 0).astype(np.float32)
            X[rng.random(X.shape) < 0.02] = np.nan
            path = os.path.join(tmp, "bench.h5")
            with h5py.File(path, "w") as f:
                f["X"] = X
                f["y"] = y
        with h5py.File(path, "r") as f:
            X = f["X"][...].astype(np.float32)
            y = f["y"][...].astype(np.float32)
        params = {"objective": "binary:logistic", "max_depth": a.max_depth, "eta": 0.3, "max_bin": 256}
        cmd = [a.kboost, "--nthread", str(a.threads), "train", "--data", path, "--num-round", str(a.rounds),
               "--model-out", os.path.join(tmp, "m.json")]
        for k, v in params.items():
            cmd += [f"--{k}", str(v)]
        env = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="false")
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
        t_kb = time.perf_counter() - t0
        print(out.stdout, end="")
        t0 = time.perf_counter()
        d = xgb.DMatrix(X, label=y, missing=np.nan, nthread=a.threads)
        xgb.train({**params, "tree_method": "hist", "nthread": a.threads}, d, a.rounds)
        t_up = time.perf_counter() - t0
    print(f"rows {X.shape[0]} features {X.shape[1]} rounds {a.rounds} threads {a.threads}")
    print(f"kboost {t_kb:.3f} s  upstream hist {t_up:.3f} s  ratio kboost/upstream {t_kb / t_up:.2f}")


if __name__ == "__main__":
    sys.exit(main())
