#!/usr/bin/env python3
"""Goldens for tests/tst_train_dart.hpp: upstream XGBoost 3.2.0 `booster=dart`, `tree_method=hist`
(trees dropped from the training margins each round, then weighted by Dart::NormalizeTrees), on
  - "synthetic": 300 rows × 4 features (numpy seed 17, values rounded to 2 decimals, none
    missing) with a real target, a binary one and a three-class one, written into the golden
    itself so that the repository-only test needs no data files;
  - "housing": California housing (shared/data/california_housing/housing.csv, ocean_proximity
    left out, median_house_value the label; total_bedrooms has missing values), first 80 % of the
    rows trained, the rest evaluated.
Cases cover sample_type uniform/weighted, normalize_type tree/forest, skip_drop, one_drop, seeds
and a multiclass objective; depth 4 (housing 6), eta 0.3, max_bin 256, nthread 1. Per case:
parameters, base_score, weight_drop (hex of float32: which trees fell in which round shows in
these), the eval metric after every round and the last tree (floats as hex of their float32).
    .venv/bin/python tests/golden/make_dart_goldens.py      (a venv with xgboost 3.2.0, pandas)
Output: tests/golden/dart_goldens.json
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
assert xgb.__version__ == "3.2.0", xgb.__version__


def synthetic():
    rng = np.random.default_rng(17)
    n = 300
    X = np.round(rng.normal(size=(n, 4)), 2).astype(np.float32)
    y = 1.5 * X[:, 0] - X[:, 1] * X[:, 2] + np.sin(2 * X[:, 3]) + rng.normal(scale=0.3, size=n)
    binary = (X[:, 0] + X[:, 1] ** 2 + rng.normal(scale=0.7, size=n)) > 0.8
    classes = np.digitize(X[:, 0] - 0.5 * X[:, 3] + rng.normal(scale=0.4, size=n), [-0.5, 0.5])
    return X, {"y": np.round(y, 3).astype(np.float32), "binary": binary.astype(np.float32),
               "classes": classes.astype(np.float32)}


def housing():
    df = pd.read_csv(os.path.join(shared, "data", "california_housing", "housing.csv"))
    y = df.pop("median_house_value").to_numpy(np.float32)
    return df.drop(columns=["ocean_proximity"]).to_numpy(np.float32), y


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


Xs, targets = synthetic()
golden = {"cases": {}, "synthetic": {"X": [[float(v) for v in row] for row in Xs],
                                     **{k: [float(v) for v in t] for k, t in targets.items()}}}
CASES = {
    "uniform_tree": ("synthetic", "y", 10, {"objective": "reg:squarederror", "rate_drop": "0.3"}),
    "forest_skip_one_drop": ("synthetic", "y", 10, {"objective": "reg:squarederror", "rate_drop": "0.2",
                                                    "skip_drop": "0.5", "normalize_type": "forest", "one_drop": "1"}),
    "uniform_one_drop_seed": ("synthetic", "y", 10, {"objective": "reg:squarederror", "rate_drop": "0.05",
                                                     "one_drop": "1", "seed": "7"}),
    "weighted_one_drop": ("synthetic", "binary", 10, {"objective": "binary:logistic", "rate_drop": "0.1",
                                                      "sample_type": "weighted", "one_drop": "1"}),
    "weighted_forest": ("synthetic", "binary", 10, {"objective": "binary:logistic", "rate_drop": "0.4",
                                                    "sample_type": "weighted", "normalize_type": "forest"}),
    "multiclass": ("synthetic", "classes", 8, {"objective": "multi:softprob", "num_class": "3", "rate_drop": "0.2"}),
    "housing": ("housing", None, 20, {"objective": "reg:squarederror", "rate_drop": "0.1"}),
}
Xh, yh = housing()
for name, (data, target, rounds, extra) in CASES.items():
    if data == "synthetic":
        X, y, n_train = Xs, targets[target], len(Xs)
    else:
        X, y, n_train = Xh, yh, int(len(Xh) * 0.8)
    dtrain = xgb.DMatrix(X[:n_train], label=y[:n_train], missing=np.nan)
    dtest = dtrain if data == "synthetic" else xgb.DMatrix(X[n_train:], label=y[n_train:], missing=np.nan)
    p = {"booster": "dart", **extra, "max_depth": "4" if data == "synthetic" else "6", "eta": "0.3", "max_bin": "256"}
    history = {}
    bst = xgb.train({**p, "tree_method": "hist", "nthread": 1}, dtrain, rounds, evals=[(dtest, "test")],
                    evals_result=history, verbose_eval=False)
    model = json.loads(bst.save_raw("json"))
    learner = model["learner"]
    booster = learner["gradient_booster"]
    tree = booster["gbtree"]["model"]["trees"][-1]
    golden["cases"][name] = {
        "data": data, "target": target, "rounds": rounds, "train_rows": n_train, "params": p,
        "base_score": learner["learner_model_param"]["base_score"],
        "weight_drop": hexes(booster["weight_drop"]),
        "test_metrics": history["test"],
        "last_tree": {"left_children": tree["left_children"], "split_indices": tree["split_indices"],
                      "default_left": tree["default_left"], "split_conditions": hexes(tree["split_conditions"]),
                      "base_weights": hexes(tree["base_weights"])},
    }
with open(os.path.join(here, "dart_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
