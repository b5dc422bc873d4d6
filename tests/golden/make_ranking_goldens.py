#!/usr/bin/env python3
"""Goldens for tests/tst_train_ranking.hpp: upstream XGBoost 3.2.0 `tree_method=hist` learning to rank
(rank:ndcg, rank:pairwise, rank:map; LambdaMART with top-k or sampled "mean" pairs) on
  - "synthetic": 640 rows × 6 features in 48 query groups of 4-24 rows, relevance 0-4 from a noisy
    score of the features (numpy seed 7; values rounded to 2 decimals), written into the golden
    itself so that the repository-only test needs no data files;
  - "lambdarank": LightGBM's LambdaRank example (shared/data/lightgbm_lambdarank/rank.{train,test}
    with their .query group sizes; 301 features), dense with absent entries as 0 (the test builds the
    same matrix), trained on rank.train, evaluated on rank.test.
rank:map takes binary relevance: there the labels are 1 where the relevance is >= 1 (lambdarank) or
>= 2 (synthetic). Depth 6, eta 0.3, max_bin 256, nthread 1.

Per case: parameters, base_score, the eval metric after every round (its name as upstream prints it)
and the first tree's arrays (floats as hex of their float32).
    .venv/bin/python tests/golden/make_ranking_goldens.py      (a venv with xgboost 3.2.0, scikit-learn)
Output: tests/golden/ranking_goldens.json
"""
import json
import os

import numpy as np
import xgboost as xgb
from sklearn.datasets import load_svmlight_file

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
assert xgb.__version__ == "3.2.0", xgb.__version__
COMMON = {"max_depth": "6", "eta": "0.3", "max_bin": "256"}


def synthetic():
    rng = np.random.default_rng(7)
    sizes = rng.integers(4, 25, size=48)
    n = int(sizes.sum())
    X = np.round(rng.normal(size=(n, 6)), 2).astype(np.float32)
    score = X[:, 0] + 0.5 * X[:, 1] - 0.7 * X[:, 2] * X[:, 3] + rng.normal(scale=0.5, size=n)
    y = np.clip(np.floor(score + 2.0), 0, 4).astype(np.float32)
    return X, y, sizes


def lambdarank(part):
    path = os.path.join(shared, "data", "lightgbm_lambdarank", f"rank.{part}")
    X, y = load_svmlight_file(path, n_features=301, zero_based=True)
    return X.toarray().astype(np.float32), y.astype(np.float32), np.loadtxt(path + ".query", dtype=np.int64)


CASES = {
    "synthetic_ndcg": ("synthetic", {"objective": "rank:ndcg"}, 5),
    "synthetic_pairwise": ("synthetic", {"objective": "rank:pairwise", "lambdarank_num_pair_per_sample": "3"}, 5),
    "synthetic_map": ("synthetic", {"objective": "rank:map"}, 5),
    "synthetic_mean": ("synthetic", {"objective": "rank:ndcg", "lambdarank_pair_method": "mean",
                                     "lambdarank_num_pair_per_sample": "4", "eval_metric": "ndcg@5"}, 5),
    "synthetic_linear_gain": ("synthetic", {"objective": "rank:ndcg", "ndcg_exp_gain": "0",
                                            "lambdarank_normalization": "0",
                                            "lambdarank_score_normalization": "0"}, 5),
    "lambdarank_ndcg": ("lambdarank", {"objective": "rank:ndcg"}, 20),
    "lambdarank_pairwise": ("lambdarank", {"objective": "rank:pairwise"}, 20),
    "lambdarank_map": ("lambdarank", {"objective": "rank:map", "eval_metric": "pre@10"}, 20),
    "lambdarank_mean": ("lambdarank", {"objective": "rank:ndcg", "lambdarank_pair_method": "mean",
                                       "lambdarank_num_pair_per_sample": "8"}, 20),
}


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


golden = {"common": COMMON, "cases": {}}
Xs, ys, sizes = synthetic()
golden["synthetic"] = {"X": [[float(v) for v in row] for row in Xs], "y": [float(v) for v in ys],
                       "group_sizes": [int(s) for s in sizes]}
for name, (data, p, rounds) in CASES.items():
    binary = p["objective"] == "rank:map"
    if data == "synthetic":
        yy = (ys >= 2).astype(np.float32) if binary else ys
        dtrain = xgb.DMatrix(Xs, label=yy, group=sizes)
        dtest = dtrain
    else:
        Xtr, ytr, gtr = lambdarank("train")
        Xte, yte, gte = lambdarank("test")
        if binary:
            ytr, yte = (ytr >= 1).astype(np.float32), (yte >= 1).astype(np.float32)
        dtrain = xgb.DMatrix(Xtr, label=ytr, group=gtr)
        dtest = xgb.DMatrix(Xte, label=yte, group=gte)
    history = {}
    bst = xgb.train({**p, **COMMON, "tree_method": "hist", "nthread": 1}, dtrain, rounds, evals=[(dtest, "test")],
                    evals_result=history, verbose_eval=False)
    model = json.loads(bst.save_raw("json"))
    tree = model["learner"]["gradient_booster"]["model"]["trees"][0]
    (metric, values), = history["test"].items()
    golden["cases"][name] = {
        "data": data, "rounds": rounds, "params": p, "binary_from": 2 if data == "synthetic" else 1,
        "base_score": model["learner"]["learner_model_param"]["base_score"],
        "objective": model["learner"]["objective"], "metric": metric, "test_metric": values,
        "tree0": {"left_children": tree["left_children"], "split_indices": tree["split_indices"],
                  "default_left": tree["default_left"], "split_conditions": hexes(tree["split_conditions"]),
                  "base_weights": hexes(tree["base_weights"])},
    }
with open(os.path.join(here, "ranking_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
