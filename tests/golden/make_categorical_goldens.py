#!/usr/bin/env python3
"""Goldens for tests/tst_train_categorical.hpp: upstream XGBoost 3.2.0 `tree_method=hist` training
categorical features (pandas category columns, enable_categorical=True) on
  - adult (shared/data/adult/adult.data; ', ' delimited, '?' missing, label income == '>50K'), its
    eight text columns categorical: the defaults (one-hot below max_cat_to_onehot=4 categories, so
    'sex' is one-hot and the others partitions), every feature one-hot (max_cat_to_onehot=64), and
    partitions bounded by max_cat_threshold=4;
  - diamonds (shared/data/diamonds/diamonds.csv; label price; cut, color, clarity categorical);
  - machine (shared/data/machine/machine.data; label PRP, column 8; the vendor categorical; the model
    name and ERP left out).
Each trained on the first 80 % of the rows and evaluated on the rest, depth 6, eta 0.3, 20 rounds.
Categories are the sorted distinct strings of the whole file (pandas' codes), which is also how
kboost's CSV reader codes text columns.

Per case: the parameters, the held-out metric after every round, the first tree's arrays (floats as
hex of their float32) and, for adult, upstream's category encoder (gradient_booster.model.cats).
    .venv/bin/python tests/golden/make_categorical_goldens.py      (a venv with xgboost 3.2.0, pandas)
Output: tests/golden/categorical_goldens.json
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
assert xgb.__version__ == "3.2.0", xgb.__version__
ROUNDS = 20
COMMON = {"max_depth": "6", "eta": "0.3", "max_bin": "256"}


def categorical(df):
    for c in df.columns:
        if not pd.api.types.is_numeric_dtype(df[c]):
            df[c] = pd.Categorical(df[c])  # categories: the sorted distinct strings
    return df


def adult():
    df = pd.read_csv(os.path.join(shared, "data", "adult", "adult.data"), header=None, skipinitialspace=True,
                     na_values="?")
    y = (df.pop(14).astype(str).str.strip() == ">50K").to_numpy(np.float32)
    return categorical(df), y


def diamonds():
    df = pd.read_csv(os.path.join(shared, "data", "diamonds", "diamonds.csv"))
    y = df.pop("price").to_numpy(np.float32)
    return categorical(df), y


def machine():
    df = pd.read_csv(os.path.join(shared, "data", "machine", "machine.data"), header=None)
    y = df[8].to_numpy(np.float32)
    return categorical(df.drop(columns=[1, 8, 9])), y


DATA = {"adult": adult, "diamonds": diamonds, "machine": machine}
CASES = {
    "adult": ("adult", {"objective": "binary:logistic"}),
    "adult_onehot": ("adult", {"objective": "binary:logistic", "max_cat_to_onehot": "64"}),
    "adult_threshold": ("adult", {"objective": "binary:logistic", "max_cat_threshold": "4"}),
    "diamonds": ("diamonds", {"objective": "reg:squarederror"}),
    "machine": ("machine", {"objective": "reg:squarederror"}),
}


def hexes(values):
    return [float(np.float32(v)).hex() for v in values]


golden = {"rounds": ROUNDS, "common": COMMON, "cases": {}}
for name, (data, p) in CASES.items():
    X, y = DATA[data]()
    n_train = int(len(y) * 0.8)
    dtrain = xgb.DMatrix(X.iloc[:n_train], label=y[:n_train], enable_categorical=True)
    dtest = xgb.DMatrix(X.iloc[n_train:], label=y[n_train:], enable_categorical=True)
    history = {}
    bst = xgb.train({**p, **COMMON, "tree_method": "hist", "nthread": 1}, dtrain, ROUNDS, evals=[(dtest, "test")],
                    evals_result=history, verbose_eval=False)
    model = json.loads(bst.save_raw("json"))
    gbm = model["learner"]["gradient_booster"]["model"]
    tree = gbm["trees"][0]
    (metric, values), = history["test"].items()
    golden["cases"][name] = {
        "data": data, "rows": int(len(y)), "train_rows": n_train, "params": p,
        "base_score": model["learner"]["learner_model_param"]["base_score"],
        "metric": metric, "test_metric": values,
        "tree0": {k: tree[k] for k in ("left_children", "split_indices", "default_left", "split_type",
                                      "categories_nodes", "categories_segments", "categories_sizes", "categories")},
    }
    golden["cases"][name]["tree0"]["split_conditions"] = hexes(tree["split_conditions"])
    golden["cases"][name]["tree0"]["base_weights"] = hexes(tree["base_weights"])
    if name == "adult":
        golden["adult_cats"] = gbm["cats"]
with open(os.path.join(here, "categorical_goldens.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
