#!/usr/bin/env python3
"""Goldens for tests/tst_train_multi_target.hpp: upstream XGBoost 3.2.0 `tree_method=hist`
trained on a label matrix (rows × targets; multi_strategy one_output_per_tree: one tree per target
per round, one intercept per target), on
  - "synthetic": 400 rows × 5 features (numpy seed 5, values rounded to 2 decimals, none missing:
    with missing values upstream's CPU hist breaks ties between equivalent splits by its backward
    scan, kboost by upstream's GPU rule, and the first trees' thresholds would differ where a node
    has empty bins) with three real targets, two binary ones and row weights, written into the
    golden itself so that the repository-only test needs no data files;
  - "housing": California housing (shared/data/california_housing/housing.csv; ocean_proximity
    left out) with targets median_house_value and median_income from the other seven columns,
    first 80 % of the rows trained, the rest evaluated.
Cases: reg:squarederror (synthetic unweighted and weighted, housing), binary:logistic on the two
binary targets, reg:absoluteerror (per-target leaf refit), reg:pseudohubererror; depth 4
(housing 6), eta 0.3, max_bin 256, nthread 1. Per case: parameters, base_score, num_target, the
eval metric after every round and the first round's trees (one per target; floats as hex of
their float32).
    .venv/bin/python tests/golden/make_multi_target_goldens.py      (a venv with xgboost 3.2.0, pandas)
Output: tests/golden/multi_target_goldens.json
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
assert xgb.__version__ == "3.2.0", xgb.__version__
ROUNDS = 10


def synthetic():
    rng = np.random.default_rng(5)
    n = 400
    X = np.round(rng.normal(size=(n, 5)), 2).astype(np.float32)
    y = np.stack([2.0 * X[:, 0] - X[:, 1] * X[:, 2] + rng.normal(scale=0.3, size=n),
                  np.sin(X[:, 3]) + 0.5 * X[:, 4] + rng.normal(scale=0.2, size=n),
                  np.abs(X[:, 0] + X[:, 4]) + rng.normal(scale=0.5, size=n)], axis=1)
    binary = np.stack([(X[:, 0] + rng.normal(scale=0.5, size=n)) > 0, (X[:, 1] * X[:, 3]) > 0.1], axis=1)
    w = np.round(rng.uniform(0.5, 2.0, size=n), 2)
    return X, np.round(y, 3).astype(np.float32), binary.astype(np.float32), w.astype(np.float32)


def housing():
    df = pd.read_csv(os.path.join(shared, "data", "california_housing", "housing.csv"))
    df = df.drop(columns=["ocean_proximity"])
    y = np.stack([df.pop("median_house_value"), df.pop("median_income")], axis=1).astype(np.float32)
    return df.to_numpy(np.float32), y


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


def tree_fields(tree):
    return {"left_children": tree["left_children"], "split_indices": tree["split_indices"],
            "default_left": tree["default_left"], "split_conditions": hexes(tree["split_conditions"]),
            "base_weights": hexes(tree["base_weights"])}


def listed(a):
    return [[None if np.isnan(v) else float(v) for v in row] for row in a]


Xs, ys, bs, ws = synthetic()
golden = {"rounds": ROUNDS, "cases": {},
          "synthetic": {"X": listed(Xs), "y": listed(ys), "binary": listed(bs), "weight": [float(v) for v in ws]}}
CASES = {
    "synthetic_squarederror": ("synthetic", "y", False, {"objective": "reg:squarederror"}),
    "synthetic_squarederror_weighted": ("synthetic", "y", True, {"objective": "reg:squarederror"}),
    "synthetic_logistic": ("synthetic", "binary", False, {"objective": "binary:logistic"}),
    "synthetic_absoluteerror": ("synthetic", "y", False, {"objective": "reg:absoluteerror"}),
    "synthetic_pseudohuber": ("synthetic", "y", True, {"objective": "reg:pseudohubererror", "huber_slope": "1.5"}),
    "housing_squarederror": ("housing", None, False, {"objective": "reg:squarederror"}),
}
Xh, yh = housing()
for name, (data, target, weighted, extra) in CASES.items():
    if data == "synthetic":
        X, y, n_train = Xs, (ys if target == "y" else bs), len(Xs)
    else:
        X, y, n_train = Xh, yh, int(len(Xh) * 0.8)
    w = ws if weighted else None
    dtrain = xgb.DMatrix(X[:n_train], label=y[:n_train], weight=w, missing=np.nan)
    dtest = dtrain if data == "synthetic" else xgb.DMatrix(X[n_train:], label=y[n_train:], missing=np.nan)
    p = {**extra, "max_depth": "4" if data == "synthetic" else "6", "eta": "0.3", "max_bin": "256"}
    history = {}
    bst = xgb.train({**p, "tree_method": "hist", "nthread": 1, "multi_strategy": "one_output_per_tree"}, dtrain,
                    ROUNDS, evals=[(dtest, "test")], evals_result=history, verbose_eval=False)
    model = json.loads(bst.save_raw("json"))
    learner = model["learner"]
    trees = learner["gradient_booster"]["model"]["trees"]
    targets = y.shape[1]
    golden["cases"][name] = {
        "data": data, "target": target, "weighted": weighted, "train_rows": n_train, "params": p,
        "base_score": learner["learner_model_param"]["base_score"],
        "num_target": learner["learner_model_param"]["num_target"],
        "test_metrics": history["test"],
        "round0_trees": [tree_fields(trees[t]) for t in range(targets)],
        "tree_info": learner["gradient_booster"]["model"]["tree_info"][:2 * targets],
    }
with open(os.path.join(here, "multi_target_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
