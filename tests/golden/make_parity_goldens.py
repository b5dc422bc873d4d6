#!/usr/bin/env python3
"""Goldens for tests/tst_train_parity.hpp: upstream XGBoost 3.2.0 `tree_method=hist` on California
housing (shared/data/california_housing/housing.csv; label median_house_value, ocean_proximity a
categorical feature (its sorted categories), total_bedrooms' empty cells missing), trained on the first 80 % of the
rows and evaluated on the rest, for the objectives and constraints kboost trains like upstream:
reg:absoluteerror (leaf refit to residual medians), reg:quantileerror with three alphas (three
outputs), monotone_constraints, interaction_constraints and reg:squaredlogerror. Also survival:cox on the veterans' lung
cancer data (shared/data/veterans_lung_cancer; label = the lower bound, negated for the rows whose
upper bound is inf, i.e. right-censored), all 137 rows trained and evaluated.

Per case: the parameters, upstream's base_score text (its model's learner_model_param), the
held-out metric after every round, and the first tree's arrays (floats as hex of their float32).
    .venv/bin/python tests/golden/make_parity_goldens.py      (a venv with xgboost 3.2.0, pandas)
Output: tests/golden/parity_goldens.json
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
assert xgb.__version__ == "3.2.0", xgb.__version__

df = pd.read_csv(os.path.join(shared, "data", "california_housing", "housing.csv"))
y = df.pop("median_house_value").to_numpy(np.float32)
df["ocean_proximity"] = pd.Categorical(df["ocean_proximity"])  # a categorical feature, as kboost reads text
n_train = int(len(y) * 0.8)
dtrain = xgb.DMatrix(df.iloc[:n_train], label=y[:n_train], missing=np.nan, enable_categorical=True)
dtest = xgb.DMatrix(df.iloc[n_train:], label=y[n_train:], missing=np.nan, enable_categorical=True)

ROUNDS = 20
CASES = {
    "absoluteerror": {"objective": "reg:absoluteerror"},
    "quantile3": {"objective": "reg:quantileerror", "quantile_alpha": "[0.1,0.5,0.9]"},
    "monotone": {"objective": "reg:squarederror", "monotone_constraints": "(1,-1,0,0,0,0,0,1,0)"},
    "interaction": {"objective": "reg:squarederror", "interaction_constraints": "[[0,1],[2,3,4],[5,6,7,8]]"},
    "squaredlogerror": {"objective": "reg:squaredlogerror"},
}
COMMON = {"max_depth": "6", "eta": "0.3", "max_bin": "256"}


def upstream_params(p):
    out = {**p, **COMMON, "tree_method": "hist", "nthread": 1}
    if "quantile_alpha" in out:
        out["quantile_alpha"] = json.loads(out["quantile_alpha"])
    return out


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


golden = {"rows": int(len(y)), "train_rows": n_train, "rounds": ROUNDS, "common": COMMON, "cases": {}}
for name, p in CASES.items():
    history = {}
    bst = xgb.train(upstream_params(p), dtrain, ROUNDS, evals=[(dtest, "test")], evals_result=history,
                    verbose_eval=False)
    model = json.loads(bst.save_raw("json"))
    tree = model["learner"]["gradient_booster"]["model"]["trees"][0]
    (metric, values), = history["test"].items()
    golden["cases"][name] = {
        "params": p,
        "base_score": model["learner"]["learner_model_param"]["base_score"],
        "metric": metric,
        "test_metric": values,
        "tree0": {
            "left_children": tree["left_children"],
            "split_indices": tree["split_indices"],
            "default_left": tree["default_left"],
            "split_conditions": hexes(tree["split_conditions"]),
            "base_weights": hexes(tree["base_weights"]),
        },
    }
vet = pd.read_csv(os.path.join(shared, "data", "veterans_lung_cancer", "veterans_lung_cancer.csv"))
lower = vet.pop("Survival_label_lower_bound").to_numpy(np.float32)
upper = vet.pop("Survival_label_upper_bound").to_numpy(np.float32)
cox_y = np.where(np.isinf(upper), -lower, lower).astype(np.float32)
dcox = xgb.DMatrix(vet.to_numpy(np.float32), label=cox_y)
cox_params = {"objective": "survival:cox", "max_depth": "3", "eta": "0.1"}
history = {}
bst = xgb.train({**cox_params, "tree_method": "hist", "nthread": 1}, dcox, ROUNDS, evals=[(dcox, "train")],
                evals_result=history, verbose_eval=False)
model = json.loads(bst.save_raw("json"))
tree = model["learner"]["gradient_booster"]["model"]["trees"][0]
golden["cox"] = {
    "params": cox_params, "labels": [float(v) for v in cox_y],
    "base_score": model["learner"]["learner_model_param"]["base_score"],
    "train_metric": history["train"]["cox-nloglik"],
    "tree0": {"left_children": tree["left_children"], "split_indices": tree["split_indices"],
              "split_conditions": hexes(tree["split_conditions"])},
}
with open(os.path.join(here, "parity_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
