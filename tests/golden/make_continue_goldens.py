#!/usr/bin/env python3
"""Golden for continued training (tests/tst_train_agaricus.hpp): upstream XGBoost 3.2.0's 5-round
`tree_method=hist` model on agaricus (binary:logistic, max_depth=6, eta=0.3, max_bin=256), the
model that `xgb.train(..., xgb_model=...)` continues. Checks upstream's own property that 5 rounds
continued by 5 more give the same trees (every field) as 10 rounds in one call, so the existing
10-round golden (train_agaricus_leaves.txt) is also the golden of the continued fit.
    .perf-venv/main/bin/python tests/golden/make_continue_goldens.py
Output: tests/golden/models/agaricus_hist_5rounds.json
"""
import json
import os

import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("KBOOST_SHARED", os.path.join(here, "..", "..", "..", "shared"))
train = os.path.join(shared, "data", "agaricus", "agaricus.txt.train")
assert xgb.__version__ == "3.2.0", xgb.__version__
d = xgb.DMatrix(train + "?format=libsvm")
params = {"objective": "binary:logistic", "max_depth": 6, "eta": 0.3, "max_bin": 256, "tree_method": "hist",
          "nthread": 1}
first = xgb.train(params, d, 5)
out = os.path.join(here, "models", "agaricus_hist_5rounds.json")
first.save_model(out)
continued = xgb.train(params, d, 5, xgb_model=xgb.Booster(model_file=out))
whole = xgb.train(params, d, 10)


def trees(b):
    return json.loads(b.save_raw("json"))["learner"]["gradient_booster"]["model"]["trees"]


ta, tb = trees(continued), trees(whole)
assert len(ta) == len(tb) == 10
for t, (a, b) in enumerate(zip(ta, tb)):
    a.pop("id"), b.pop("id")
    assert a == b, f"tree {t}: 5 + 5 rounds differ from 10 rounds"
print("wrote", out, "; upstream's 5 + 5 rounds equal its 10 rounds")
