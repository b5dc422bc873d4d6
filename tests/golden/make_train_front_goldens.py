"""Goldens for kboost's train-front pieces from upstream XGBoost (venv xgboost 3.2.0).

- metrics.json: upstream metric values for fixed margins (Booster with 0 rounds, base_margin = margins,
  Booster.eval), per objective/metric, with and without sample weights.
- base_score.json: learner_model_param.base_score after 1 round (boost_from_average) for several
  objectives/datasets, with and without weights and scale_pos_weight.

    /work/main/.venv/bin/python tests/golden/make_train_front_goldens.py
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data")


def bits(a):
    return np.asarray(a, dtype=np.float32).view(np.uint32).tolist()


def metrics_golden():
    rng = np.random.default_rng(20261130)
    n = 300
    X = rng.random((n, 2)).astype(np.float32)
    w = (1 + (np.arange(n) % 7) / 4).astype(np.float32)
    cases = []
    specs = [
        ("binary:logistic", 1, lambda: rng.integers(0, 2, n), lambda: rng.normal(0, 2, n),
         ["logloss", "error", "error@0.7", "auc", "rmse", "mae"]),
        ("reg:squarederror", 1, lambda: rng.random(n) * 4 + 0.5, lambda: rng.random(n) * 4,
         ["rmse", "mae", "mape", "mphe", "rmsle"]),
        ("count:poisson", 1, lambda: rng.poisson(3, n), lambda: rng.normal(1, 0.5, n), ["poisson-nloglik"]),
        ("reg:gamma", 1, lambda: rng.gamma(2, 2, n) + 0.1, lambda: rng.normal(1, 0.5, n),
         ["gamma-nloglik", "gamma-deviance"]),
        ("reg:tweedie", 1, lambda: rng.poisson(2, n), lambda: rng.normal(0.5, 0.5, n),
         ["tweedie-nloglik@1.5", "tweedie-nloglik@1.2"]),
        ("multi:softprob", 3, lambda: rng.integers(0, 3, n), lambda: rng.normal(0, 1.5, (n, 3)),
         ["mlogloss", "merror"]),
    ]
    for obj, k, lab, mar, metrics in specs:
        y = np.asarray(lab(), dtype=np.float32)
        m = np.asarray(mar(), dtype=np.float32).reshape(n, k)
        for weighted in [False, True]:
            d = xgb.DMatrix(X, label=y, weight=w if weighted else None, base_margin=m if k > 1 else m[:, 0])
            params = {"objective": obj, "eval_metric": metrics, "base_score": 0.5 if obj != "reg:gamma" else 1.0}
            if k > 1:
                params["num_class"] = k
            b = xgb.train(params, d, num_boost_round=0)
            res = b.eval(d, name="d")
            vals = {}
            for tok in res.split("\t")[1:]:
                key, v = tok.rsplit(":", 1)
                vals[key[len("d-"):]] = float(v)
            cases.append({"objective": obj, "groups": k, "weighted": weighted, "labels_bits": bits(y),
                          "margins_bits": bits(m.reshape(-1)), "metrics": vals})
    # weights are 1 + (i % 7) / 4
    return {"xgboost": xgb.__version__, "rows": n, "cases": cases}


def load(name):
    if name == "agaricus":
        from sklearn.datasets import load_svmlight_file
        X, y = load_svmlight_file(os.path.join(DATA, "agaricus", "agaricus.txt.train"), n_features=127,
                                  zero_based=True)
        return X, y.astype(np.float32)
    if name == "california_housing":
        df = pd.read_csv(os.path.join(DATA, "california_housing", "housing.csv"))
        y = df.pop("median_house_value").to_numpy(np.float32)
        df["ocean_proximity"] = df["ocean_proximity"].astype("category").cat.codes
        return df.to_numpy(np.float32), y
    if name == "lightgbm_multiclass":
        a = np.loadtxt(os.path.join(DATA, "lightgbm_multiclass", "multiclass.train"), delimiter="\t",
                       dtype=np.float32)
        return a[:, 1:], a[:, 0]
    raise ValueError(name)


def base_score_golden():
    specs = [
        ("agaricus", "binary:logistic", {}),
        ("agaricus", "reg:squarederror", {}),
        ("agaricus", "binary:logistic", {"scale_pos_weight": 2.0}),
        ("california_housing", "reg:squarederror", {}),
        ("california_housing", "count:poisson", {}),
        ("california_housing", "reg:gamma", {}),
        ("california_housing", "reg:tweedie", {}),
        ("california_housing", "reg:pseudohubererror", {}),
        ("california_housing", "reg:absoluteerror", {}),
        ("lightgbm_multiclass", "multi:softprob", {"num_class": 5}),
    ]
    cases = []
    for ds, obj, extra in specs:
        X, y = load(ds)
        for weighted in [False, True]:
            w = (1 + (np.arange(X.shape[0]) % 7) / 4).astype(np.float32) if weighted else None
            d = xgb.DMatrix(X, label=y, weight=w, nthread=1)
            params = {"objective": obj, "tree_method": "hist", "nthread": 1, **extra}
            b = xgb.train(params, d, 1)
            bs = json.loads(b.save_raw("json"))["learner"]["learner_model_param"]["base_score"]
            vals = [float(v) for v in bs.strip("[]").split(",")]
            cases.append({"dataset": ds, "objective": obj, "params": {k: str(v) for k, v in extra.items()},
                          "weighted": weighted, "base_score_text": bs, "base_score_bits": bits(vals)})
            print(ds, obj, extra, weighted, bs)
    return {"xgboost": xgb.__version__, "cases": cases}


def main():
    with open(os.path.join(HERE, "metrics.json"), "w") as f:
        json.dump(metrics_golden(), f, separators=(",", ":"))
        f.write("\n")
    with open(os.path.join(HERE, "base_score.json"), "w") as f:
        json.dump(base_score_golden(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
