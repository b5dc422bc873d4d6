"""Golden histogram cuts from upstream XGBoost (run with the venv's xgboost 3.2.0).

Writes tests/golden/cuts_<name>.json: for each dataset the cut pointers and cut values (float32 bit
patterns, exact) that upstream's CPU `hist` computes for a DMatrix (train 1 round, then
DMatrix.get_quantile_cut()) and for a QuantileDMatrix, at max_bin 256 (and 16 for a small-bin case).
Features are read the way kboost's readers read them (docs/datasets.md); categorical codes are
treated as numbers (kboost's sketch_cuts sketches every column as numerical).

    /work/main/.venv/bin/python tests/golden/make_cuts_goldens.py
"""
import json
import os

import numpy as np
import pandas as pd
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data")


def load(name):
    if name == "agaricus":
        # LibSVM, indices as column ids (127 columns), absent = missing
        return xgb.DMatrix(os.path.join(DATA, "agaricus", "agaricus.txt.train") + "?format=libsvm"), None
    if name == "california_housing":
        df = pd.read_csv(os.path.join(DATA, "california_housing", "housing.csv"))
        y = df.pop("median_house_value").to_numpy(np.float32)
        df["ocean_proximity"] = df["ocean_proximity"].astype("category").cat.codes
        X = df.to_numpy(np.float32)
        return X, y
    if name == "lightgbm_binary":
        a = np.loadtxt(os.path.join(DATA, "lightgbm_binary", "binary.train"), delimiter="\t", dtype=np.float32)
        return a[:, 1:], a[:, 0]
    raise ValueError(name)


def cuts_of(d, max_bin):
    xgb.train({"tree_method": "hist", "max_bin": max_bin, "nthread": 1}, d, 1)
    ptrs, vals = d.get_quantile_cut()
    return [int(p) for p in ptrs], np.asarray(vals, dtype=np.float32)


def main():
    for name in ["agaricus", "california_housing", "lightgbm_binary"]:
        X, y = load(name)
        out = {"dataset": name, "xgboost": xgb.__version__, "cases": []}
        for max_bin in [256, 16]:
            if isinstance(X, xgb.DMatrix):
                d = X
                qd = None
            else:
                d = xgb.DMatrix(X, label=y, nthread=1)
                qd = xgb.QuantileDMatrix(X, label=y, max_bin=max_bin, nthread=1)
            d_ptrs, d_vals = cuts_of(d, max_bin)
            case = {"max_bin": max_bin, "ptrs": d_ptrs, "values_bits": d_vals.view(np.uint32).tolist()}
            if qd is not None:
                q_ptrs, q_vals = cuts_of(qd, max_bin)
                same = q_ptrs == d_ptrs and np.array_equal(q_vals.view(np.uint32), d_vals.view(np.uint32))
                case["quantile_dmatrix_equal"] = bool(same)
                if not same:
                    case["qdm_ptrs"] = q_ptrs
                    case["qdm_values_bits"] = q_vals.view(np.uint32).tolist()
            out["cases"].append(case)
            if not isinstance(X, xgb.DMatrix) and max_bin == 256:
                # weighted sketch: weights w_i = 1 + (i % 7) / 4 (exact in float32)
                w = (1 + (np.arange(X.shape[0]) % 7) / 4).astype(np.float32)
                dw = xgb.DMatrix(X, label=y, weight=w, nthread=1)
                w_ptrs, w_vals = cuts_of(dw, max_bin)
                out["cases"].append({"max_bin": max_bin, "weights": "1+(i%7)/4", "ptrs": w_ptrs,
                                     "values_bits": w_vals.view(np.uint32).tolist()})
            print(name, max_bin, "features", len(d_ptrs) - 1, "cuts", len(d_vals), "qdm==dm", case.get("quantile_dmatrix_equal"))
        with open(os.path.join(HERE, f"cuts_{name}.json"), "w") as f:
            json.dump(out, f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
