#!/usr/bin/env python3
"""Writes the inference benchmark's model: 999 trees = multi:softprob, 3 classes x 333
rounds, max_depth 6, 9 features, trained by the venv's xgboost (hist, CPU) on seeded synthetic data.
Both kboost (perf/bench_predict_gpu) and upstream's C API load the same file.
perf/make_predict_suite_models.py imports features() and train() for its sliced ensembles.

Usage: .venv/bin/python perf/make_predict_model.py OUT.ubj
"""
import sys

import numpy as np
import xgboost as xgb


def features(rng, rows):
    """rows x 9 float32, uniform on [-2, 2) (the training distribution)."""
    return rng.uniform(-2, 2, size=(rows, 9)).astype(np.float32)


def train():
    """The 999-tree booster (deterministic: seeded data, hist, 2 threads)."""
    rng = np.random.default_rng(7)
    X = features(rng, 60000)
    score = X[:, 0] * X[:, 1] + np.sin(3 * X[:, 2]) + X[:, 3] ** 2 - X[:, 4] + rng.normal(scale=0.7, size=len(X))
    y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    params = {"objective": "multi:softprob", "num_class": 3, "max_depth": 6, "eta": 0.1, "tree_method": "hist",
              "max_bin": 256, "seed": 0, "nthread": 2}
    return xgb.train(params, xgb.DMatrix(X, label=y), num_boost_round=333)


def main():
    out = sys.argv[1]
    bst = train()
    bst.save_model(out)
    n = len(bst.get_dump())
    print(f"{out}: {n} trees")
    assert n == 999


if __name__ == "__main__":
    main()
