#!/usr/bin/env python3
"""Goldens for tests/tst_train_agaricus.hpp: the leaf value every training row reaches in each of the
first 10 trees of upstream XGBoost 3.2.0 `tree_method=hist` on agaricus (binary:logistic, max_depth=6,
eta=0.3, max_bin=256). Run with the repository's venv:
    .venv/bin/python tests/golden/make_train_goldens.py
Output tests/golden/train_agaricus_leaves.txt, compact form:
    line 1: rows trees
    per tree: "tree <t> <n_leaves>" then "<nid> <value as %a hex float>" per leaf
    "paths <k>" then k lines of <trees> node ids (distinct per-row paths)
    "rows" then one line of per-row path indices (space separated)
"""
import json
import os
import sys

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
train = os.path.join(shared, "data", "agaricus", "agaricus.txt.train")
assert xgb.__version__ == "3.2.0", xgb.__version__
d = xgb.DMatrix(train + "?format=libsvm")
params = {"objective": "binary:logistic", "max_depth": 6, "eta": 0.3, "max_bin": 256, "tree_method": "hist",
          "nthread": 1}
n_trees = 10
bst = xgb.train(params, d, n_trees)
leaf = bst.predict(d, pred_leaf=True).astype(np.int64)  # rows × trees node ids
trees = json.loads(bst.save_raw("json"))["learner"]["gradient_booster"]["model"]["trees"]
out = [f"{leaf.shape[0]} {n_trees}"]
for t in range(n_trees):
    tr = trees[t]
    leaves = [i for i, l in enumerate(tr["left_children"]) if l == -1]
    out.append(f"tree {t} {len(leaves)}")
    for i in leaves:
        out.append(f"{i} {float(np.float32(tr['split_conditions'][i])).hex()}")
paths, index = np.unique(leaf, axis=0, return_inverse=True)
out.append(f"paths {len(paths)}")
out += [" ".join(str(int(v)) for v in p) for p in paths]
out.append("rows")
out.append(" ".join(str(int(i)) for i in index.reshape(-1)))
with open(os.path.join(here, "train_agaricus_leaves.txt"), "w") as f:
    f.write("\n".join(out) + "\n")
print("wrote", len(paths), "distinct paths for", leaf.shape[0], "rows", file=sys.stderr)

# ---- early stopping: LightGBM's binary example, eval on its test file, logloss + error, stop after 5
# rounds without improvement of the LAST metric of the LAST eval set (upstream callback.EarlyStopping).
import pandas as pd  # noqa: E402

lgb = os.path.join(shared, "data", "lightgbm_binary")
tr = pd.read_csv(os.path.join(lgb, "binary.train"), sep="\t", header=None)
te = pd.read_csv(os.path.join(lgb, "binary.test"), sep="\t", header=None)
dtr = xgb.DMatrix(tr.iloc[:, 1:].to_numpy(np.float32), label=tr.iloc[:, 0].to_numpy(np.float32))
dte = xgb.DMatrix(te.iloc[:, 1:].to_numpy(np.float32), label=te.iloc[:, 0].to_numpy(np.float32))
es_params = {"objective": "binary:logistic", "max_depth": 6, "eta": 0.3, "max_bin": 256, "tree_method": "hist",
             "eval_metric": ["error", "logloss"], "nthread": 1}
history = {}
es = xgb.train(es_params, dtr, 200, evals=[(dtr, "train"), (dte, "test")], early_stopping_rounds=5,
               evals_result=history, verbose_eval=False)
golden = {"params": {k: v for k, v in es_params.items() if k not in ("tree_method", "nthread")},
          "num_round": 200, "early_stopping_rounds": 5, "best_iteration": es.attributes()["best_iteration"],
          "best_score": es.attributes()["best_score"], "rounds": es.num_boosted_rounds(),
          "test_logloss": history["test"]["logloss"]}
with open(os.path.join(here, "train_early_stopping.json"), "w") as f:
    json.dump(golden, f, indent=1)
print("early stopping:", golden["best_iteration"], golden["best_score"], golden["rounds"], file=sys.stderr)
