#!/usr/bin/env python3
"""Goldens for tests/tst_train_aft.hpp: upstream XGBoost 3.2.0 `tree_method=hist` with
objective survival:aft (accelerated failure time on interval labels label_lower_bound /
label_upper_bound) and the metrics aft-nloglik and interval-regression-accuracy, on
  - "synthetic": 500 rows × 4 features (numpy seed 11, values rounded to 2 decimals) whose log
    survival time is a noisy function of the features; 60 % of the rows observed exactly, 20 %
    right-censored (upper bound inf), 10 % left-censored (lower bound 0), 10 % interval-censored;
    written into the golden itself so that the repository-only test needs no data files;
  - "veterans": the veterans' lung cancer trial (shared/data/veterans_lung_cancer: the
    Survival_label_lower_bound / _upper_bound columns, the other 11 as features), first 80 % of the
    rows trained, the rest evaluated.
Each with aft_loss_distribution normal, logistic and extreme; depth 6 (synthetic: 4), eta 0.3,
max_bin 256, nthread 1. Per case: parameters, base_score, the eval metrics after every round and the
first tree's arrays (floats as hex of their float32).
    .venv/bin/python tests/golden/make_aft_goldens.py      (a venv with xgboost 3.2.0, pandas)
Output: tests/golden/aft_goldens.json
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
    rng = np.random.default_rng(11)
    n = 500
    X = np.round(rng.normal(size=(n, 4)), 2).astype(np.float32)
    log_t = 3.0 + 0.8 * X[:, 0] - 0.5 * X[:, 1] * (X[:, 2] > 0) + rng.normal(scale=0.4, size=n)
    t = np.exp(log_t)
    kind = rng.choice(4, size=n, p=[0.6, 0.2, 0.1, 0.1])
    lower = np.where(kind == 2, 0.0, np.where(kind == 1, t * 0.7, np.where(kind == 3, t * 0.8, t)))
    upper = np.where(kind == 1, np.inf, np.where(kind == 2, t * 1.3, np.where(kind == 3, t * 1.25, t)))
    return X, np.round(lower, 3).astype(np.float32), np.round(upper, 3).astype(np.float32)


def veterans():
    df = pd.read_csv(os.path.join(shared, "data", "veterans_lung_cancer", "veterans_lung_cancer.csv"))
    lower = df.pop("Survival_label_lower_bound").to_numpy(np.float32)
    upper = df.pop("Survival_label_upper_bound").to_numpy(np.float32)
    return df.to_numpy(np.float32), lower, upper


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


def dmatrix(X, lo, hi):
    d = xgb.DMatrix(X)
    d.set_float_info("label_lower_bound", lo)
    d.set_float_info("label_upper_bound", hi)
    return d


Xs, ls, us = synthetic()
golden = {"rounds": ROUNDS, "cases": {},
          "synthetic": {"X": [[float(v) for v in row] for row in Xs], "lower": [float(v) for v in ls],
                        "upper": [float(v) if np.isfinite(v) else "inf" for v in us]}}
for data in ("synthetic", "veterans"):
    X, lo, hi = (Xs, ls, us) if data == "synthetic" else veterans()
    n_train = len(lo) if data == "synthetic" else int(len(lo) * 0.8)
    dtrain = dmatrix(X[:n_train], lo[:n_train], hi[:n_train])
    dtest = dtrain if data == "synthetic" else dmatrix(X[n_train:], lo[n_train:], hi[n_train:])
    for dist, scale in (("normal", "1"), ("logistic", "0.8"), ("extreme", "1.2")):
        p = {"objective": "survival:aft", "aft_loss_distribution": dist, "aft_loss_distribution_scale": scale,
             "max_depth": "4" if data == "synthetic" else "6", "eta": "0.3", "max_bin": "256"}
        history = {}
        bst = xgb.train({**p, "tree_method": "hist", "nthread": 1,
                         "eval_metric": ["interval-regression-accuracy", "aft-nloglik"]},
                        dtrain, ROUNDS, evals=[(dtest, "test")], evals_result=history, verbose_eval=False)
        model = json.loads(bst.save_raw("json"))
        tree = model["learner"]["gradient_booster"]["model"]["trees"][0]
        golden["cases"][f"{data}_{dist}"] = {
            "data": data, "train_rows": n_train, "params": p,
            "base_score": model["learner"]["learner_model_param"]["base_score"],
            "objective": model["learner"]["objective"], "test_metrics": history["test"],
            "tree0": {"left_children": tree["left_children"], "split_indices": tree["split_indices"],
                      "default_left": tree["default_left"], "split_conditions": hexes(tree["split_conditions"]),
                      "base_weights": hexes(tree["base_weights"])},
        }
with open(os.path.join(here, "aft_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
