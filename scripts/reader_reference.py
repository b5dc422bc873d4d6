"""Reference numbers for tests/tst_readers.hpp, computed with pandas and sklearn's load_svmlight_file.

Run: .venv/bin/python scripts/reader_reference.py ../shared/data
For each dataset: rows, features, missing cells, a few cells and labels, and the sequential (row-major,
double) sum of all non-missing feature cells as float32 -- the same order tst_readers.hpp sums in, so
the numbers must match exactly (repr of a double).
"""
import sys

import numpy as np
import pandas as pd
from sklearn.datasets import load_svmlight_file

root = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"


def seq_sum(a):
    s = 0.0
    for v in np.asarray(a, dtype=np.float32).ravel():
        if not np.isnan(v):
            s += float(v)
    return s


def codes(df):
    """String columns -> pandas categorical codes (sorted categories), NaN stays NaN."""
    out = df.copy()
    for c in out.columns:
        if not pd.api.types.is_numeric_dtype(out[c]):
            cat = out[c].astype("category")
            out[c] = cat.cat.codes.astype("float64").where(cat.notna(), np.nan)
    return out


def dense(name, df, label):
    y = df[label]
    if not pd.api.types.is_numeric_dtype(y):
        y = y.astype("category").cat.codes
    X = codes(df.drop(columns=[label])).to_numpy(dtype=np.float32)
    print(f"{name}: rows {X.shape[0]} features {X.shape[1]} missing {int(np.isnan(X).sum())} "
          f"sum {seq_sum(X)!r} label_sum {float(np.sum(np.asarray(y, dtype=np.float64)))!r}")
    return X, np.asarray(y, dtype=np.float32)


def sparse(name, path, zero_based=True, n_features=None):
    X, y = load_svmlight_file(path, zero_based=zero_based, n_features=n_features, dtype=np.float32)
    X.sort_indices()
    print(f"{name}: rows {X.shape[0]} features {X.shape[1]} nnz {X.nnz} sum {seq_sum(X.data)!r} "
          f"label_sum {float(np.sum(y, dtype=np.float64))!r}")
    return X, y


na = ["", "NA", "NaN", "nan", "?"]
X, y = dense("california_housing", pd.read_csv(f"{root}/california_housing/housing.csv", keep_default_na=False,
                                                na_values=na), "median_house_value")
print("  X[0,:]", X[0].tolist(), "y[0]", y[0], "first missing row", int(np.argmax(np.isnan(X[:, 4]))))
X, y = dense("adult", pd.read_csv(f"{root}/adult/adult.data", header=None, skipinitialspace=True,
                                  keep_default_na=False, na_values=na), 14)
print("  X[0,:]", X[0].tolist(), "y[:3]", y[:3].tolist(), "row 27:", X[27].tolist())
X, y = dense("dermatology", pd.read_csv(f"{root}/dermatology/dermatology.data", header=None,
                                        keep_default_na=False, na_values=na), 34)
print("  missing rows", np.where(np.isnan(X[:, 33]))[0].tolist(), "X[0,33]", X[0, 33], "y[0]", y[0])
X, y = dense("diamonds", pd.read_csv(f"{root}/diamonds/diamonds.csv", keep_default_na=False, na_values=na), "price")
print("  X[0,:]", X[0].tolist(), "y[0]", y[0])
for f in ["lightgbm_binary/binary.train", "lightgbm_multiclass/multiclass.train"]:
    X, y = dense(f, pd.read_csv(f"{root}/{f}", sep="\t", header=None, keep_default_na=False, na_values=na), 0)
    print("  X[0,:3]", X[0, :3].tolist(), "X[6999,27]", X[-1, -1], "y[0]", y[0])
X, y = dense("machine", pd.read_csv(f"{root}/machine/machine.data", header=None, keep_default_na=False,
                                    na_values=na), 8)
print("  X[0,:]", X[0].tolist(), "y[0]", y[0])
df = pd.read_csv(f"{root}/veterans_lung_cancer/veterans_lung_cancer.csv", keep_default_na=False, na_values=na)
X = df.drop(columns=["Survival_label_lower_bound"]).to_numpy(np.float32)
print("veterans: rows", X.shape[0], "features", X.shape[1], "inf cells", int(np.isinf(X).sum()),
      "y sum", float(df["Survival_label_lower_bound"].sum()))

X, y = sparse("agaricus.train", f"{root}/agaricus/agaricus.txt.train")
print("  row0 cols", X[0].indices.tolist())
X, y = sparse("agaricus.test", f"{root}/agaricus/agaricus.txt.test")
X, y = sparse("a1a (0-based as-is)", f"{root}/a1a/a1a.svmlight")
X, y = sparse("a1a (1-based detected)", f"{root}/a1a/a1a.svmlight", zero_based="auto")
print("  row0 cols", X[0].indices.tolist(), "y[:3]", y[:3].tolist())
X, y = sparse("rank.train", f"{root}/lightgbm_lambdarank/rank.train")
print("  row0 first cols", X[0].indices[:3].tolist(), X[0].data[:3].tolist())
q = np.loadtxt(f"{root}/lightgbm_lambdarank/rank.train.query", dtype=int)
print("  groups", len(q), "first sizes", q[:3].tolist())
