#!/usr/bin/env python3
"""Goldens for tests/host/tst_unseen_category.hpp: what upstream XGBoost 3.4.1 does with a category
value its model was not trained on.

A model is trained by upstream (`hist`, enable_categorical, 8 rounds, depth 3) on pandas data whose
column `colour` holds the categories b, d, f (the model stores them: gradient_booster.model.cats).
The predict file holds those three and the unseen a (before them in sorted order), c (between) and
g (after). Upstream 3.4.1 re-codes a frame's categories against the model's
(src/encoder/ordinal.h Recode) and raises "Found a category not in the training set" for each of
the three (recorded per value); kboost's default (`--unseen-category error`) refuses them alike.
With the unseen cells set to missing upstream predicts `expected_missing` (float32 bits as hex), which
`kboost predict --unseen-category missing` must reproduce.
    /path/to/venv/bin/python tests/golden/make_unseen_category_goldens.py   (xgboost 3.4.1, pandas)
Output: tests/golden/unseen_category/{model.json,predict.csv,goldens.json}
"""
import json
import os
import struct

import numpy as np
import pandas as pd
import xgboost as xgb

assert xgb.__version__ == "3.4.1", xgb.__version__
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unseen_category")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20261206)

TRAIN_CATS = ["b", "d", "f"]
n = 600
colour = rng.choice(TRAIN_CATS, n)
x0 = rng.normal(size=n).astype(np.float32)
x2 = rng.uniform(-1, 1, n).astype(np.float32)
y = (np.where(colour == "d", 1.5, np.where(colour == "f", -1.0, 0.2)) + x0 + 0.5 * x2 +
     0.1 * rng.normal(size=n)).astype(np.float32)
train = pd.DataFrame({"x0": x0, "colour": pd.Categorical(colour, categories=TRAIN_CATS), "x2": x2})
booster = xgb.train({"tree_method": "hist", "max_depth": 3, "eta": 0.3, "seed": 0},
                    xgb.DMatrix(train, label=y, enable_categorical=True), num_boost_round=8)
booster.save_model(os.path.join(out, "model.json"))

ALL = ["a", "b", "c", "d", "f", "g"]
m = 24
p_colour = [ALL[i % len(ALL)] for i in range(m)]
p_colour[7] = ""  # a missing cell stays missing under either rule
p_x0 = np.round(rng.normal(size=m), 3).astype(np.float32)
p_x2 = np.round(rng.uniform(-1, 1, m), 3).astype(np.float32)
with open(os.path.join(out, "predict.csv"), "w") as f:
    f.write("x0,colour,x2\n")
    for a, c, b in zip(p_x0, p_colour, p_x2):
        f.write(f"{a:.3f},{c},{b:.3f}\n")

errors = {}
for unseen in ["a", "c", "g"]:
    frame = pd.DataFrame({"x0": [0.0], "colour": pd.Categorical([unseen], categories=[unseen]), "x2": [0.0]})
    try:
        booster.inplace_predict(frame)
        errors[unseen] = None
    except xgb.core.XGBoostError as e:
        first = str(e).splitlines()[0]
        assert "Found a category not in the training set" in first, first
        errors[unseen] = first[first.index("Found"):]  # without the time stamp and source path
    assert errors[unseen] is not None, errors

seen = [c if c in TRAIN_CATS else None for c in p_colour]
frame = pd.DataFrame({"x0": p_x0, "colour": pd.Categorical(seen, categories=TRAIN_CATS), "x2": p_x2})
pred = booster.inplace_predict(frame).astype(np.float32)
goldens = {
    "xgboost": xgb.__version__,
    "upstream_errors": errors,
    "unseen_cells": sum(c in ("a", "c", "g") for c in p_colour),
    "expected_missing": [struct.pack(">f", float(v)).hex() for v in pred],
}
with open(os.path.join(out, "goldens.json"), "w") as f:
    json.dump(goldens, f, indent=1)
print(json.dumps(goldens["upstream_errors"], indent=1))
