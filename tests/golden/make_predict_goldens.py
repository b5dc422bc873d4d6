#!/usr/bin/env python3
"""Inference goldens: upstream XGBoost 3.2.0 CPU predictions for every model in ../shared/models and
for small models trained here (tests/golden/models/, one per objective plus categorical, DART,
num_parallel_tree > 1, multi-target one-output-per-tree and vector-leaf models).

Run with the project venv:  /work/main/.venv/bin/python tests/golden/make_predict_goldens.py
Writes tests/golden/predict/manifest.json and, per case, little-endian float32 files:
  <case>.X.f32       rows x features input (NaN = missing)
  <case>.margin.f32  rows x outputs   predict(output_margin=True)
  <case>.pred.f32    rows x columns   predict()
  <case>.leaf.f32    min(rows, 32) x trees  predict(pred_leaf=True)
  <case>.bm.f32      rows x outputs base_margin (only for cases that set one; margin/pred use it)
The C++ test (tests/tst_predict_goldens.hpp) must reproduce margin and pred BIT for bit.

XGBoost 3.2 does not know the DART layouts of 3.3 (weight_drop beside "model") and 3.4 (inside
"model"): it would silently load those files as plain gbtree. For them the golden is computed on the
same model rewritten into the {"name": "dart", "gbtree": ..., "weight_drop": ...} layout 3.2 reads.
"""
import json
import os
import struct
import sys

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(REPO, "..", "shared")
OUT = os.path.join(HERE, "predict")
MODELS = os.path.join(HERE, "models")
MAX_ROWS = 200
LEAF_ROWS = 32

assert xgb.__version__ == "3.2.0", xgb.__version__


# ---------------------------------------------------------------- UBJSON (only to read weight_drop)
def ubjson_load(buf):
    pos = [0]

    def rd(n):
        b = buf[pos[0]:pos[0] + n]
        pos[0] += n
        return b

    def scalar(t):
        fmt = {b"i": ">b", b"U": ">B", b"I": ">h", b"l": ">i", b"L": ">q", b"d": ">f", b"D": ">d"}
        if t in fmt:
            f = fmt[t]
            return struct.unpack(f, rd(struct.calcsize(f)))[0]
        if t == b"S":
            n = scalar(rd(1))
            return rd(n).decode()
        if t == b"T":
            return True
        if t == b"F":
            return False
        if t == b"Z":
            return None
        if t == b"[":
            return array()
        if t == b"{":
            return obj()
        raise ValueError("ubjson type %r" % t)

    def array():
        t = None
        n = None
        if buf[pos[0]:pos[0] + 1] == b"$":
            pos[0] += 1
            t = rd(1)
        if buf[pos[0]:pos[0] + 1] == b"#":
            pos[0] += 1
            n = scalar(rd(1))
        out = []
        if n is not None:
            for _ in range(n):
                out.append(scalar(t if t else rd(1)))
            return out
        while buf[pos[0]:pos[0] + 1] != b"]":
            out.append(scalar(rd(1)))
        pos[0] += 1
        return out

    def obj():
        out = {}
        n = None
        if buf[pos[0]:pos[0] + 1] == b"#":
            pos[0] += 1
            n = scalar(rd(1))
        i = 0
        while (n is None and buf[pos[0]:pos[0] + 1] != b"}") or (n is not None and i < n):
            k = rd(scalar(rd(1))).decode()
            out[k] = scalar(rd(1))
            i += 1
        if n is None:
            pos[0] += 1
        return out

    return scalar(rd(1))


def load_json_any(path):
    raw = open(path, "rb").read()
    if raw.lstrip()[:1] == b"{" and raw.lstrip()[1:2] in (b'"', b"\n", b" ", b"\t", b"\r", b"}"):
        return json.loads(raw.decode())
    return ubjson_load(raw)


def booster_for_upstream(path):
    """Booster as XGBoost 3.2 should see it (3.3/3.4 DART rewritten into the old layout)."""
    j = load_json_any(path)
    gb = j["learner"]["gradient_booster"]
    wd = None
    if gb.get("name") == "gbtree":
        if "weight_drop" in gb:
            wd = gb.pop("weight_drop")
        if "weight_drop" in gb["model"]:
            wd = gb["model"].pop("weight_drop")
    if wd is None:
        return xgb.Booster(model_file=path)
    j["learner"]["gradient_booster"] = {"name": "dart", "gbtree": {"name": "gbtree", "model": gb["model"]},
                                        "weight_drop": wd}
    b = xgb.Booster()
    b.load_model(bytearray(json.dumps(j).encode()))
    return b


# ---------------------------------------------------------------- inputs for the shared models
def rng_rows(rng, n, f, nan_frac=0.1, scale=1.0):
    X = (rng.standard_normal((n, f)) * scale).astype(np.float32)
    X[rng.random((n, f)) < nan_frac] = np.nan
    return X


def read_fmap_categories(path):
    cats = {}
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 2 and "=" in parts[1]:
            name, value = parts[1].split("=", 1)
            cats.setdefault(name, []).append(value)
    return cats


def encode_csv(path, names, types, fmap):
    """Features in model order from the jpmml CSVs; categorical strings -> fmap code order."""
    import csv
    cats = read_fmap_categories(fmap) if fmap else {}
    rows = list(csv.DictReader(open(path)))
    X = np.full((len(rows), len(names)), np.nan, dtype=np.float32)
    for r, row in enumerate(rows):
        for c, (name, t) in enumerate(zip(names, types)):
            v = row[name].strip()
            if v in ("NA", ""):
                continue
            if t == "c":
                X[r, c] = cats[name].index(v) if v in cats.get(name, []) else np.nan
            elif v in ("TRUE", "FALSE"):
                X[r, c] = 1.0 if v == "TRUE" else 0.0
            else:
                X[r, c] = np.float32(v)
    return X


def shared_inputs(name, booster, rng):
    f = booster.num_features()
    base = os.path.join(SHARED, "models", name)
    stem = os.path.splitext(base)[0]
    names, types = booster.feature_names, booster.feature_types
    if os.path.exists(stem + ".input.csv") and names:
        fmap = stem + ".fmap" if os.path.exists(stem + ".fmap") else None
        X = encode_csv(stem + ".input.csv", names, types, fmap)
    elif os.path.exists(stem + ".input.csv"):
        import csv
        rows = list(csv.reader(open(stem + ".input.csv")))[1:]
        X = np.array([[np.float32(v) for v in r[:f]] for r in rows], dtype=np.float32)
    elif os.path.exists(stem + ".input.tsv"):
        X = np.loadtxt(stem + ".input.tsv", dtype=np.float64).astype(np.float32)[:, :f]
    elif os.path.exists(stem + ".input.libsvm"):
        lines = open(stem + ".input.libsvm").read().split("\n")
        X = np.full((len([l for l in lines if l.strip()]), f), np.nan, dtype=np.float32)
        for i, l in enumerate(l for l in lines if l.strip()):
            for tok in l.split()[1:]:
                k, v = tok.split(":")
                X[i, int(k)] = np.float32(v)
    elif name.startswith("nvforest"):
        X = np.array([[1, 2], [-1, 2]], dtype=np.float32)
    else:
        X = rng_rows(rng, 150, f)
    # Subsample real rows, then add seeded rows with NaN (and, for categorical features,
    # unseen / out-of-range codes) so missing-value and category routing are exercised.
    if X.shape[0] > MAX_ROWS - 50:
        X = X[rng.choice(X.shape[0], MAX_ROWS - 50, replace=False)]
    extra = X[rng.integers(0, X.shape[0], 50)].copy()
    extra[rng.random(extra.shape) < 0.15] = np.nan
    if types and "c" in types:
        for c, t in enumerate(types):
            if t == "c":
                sel = rng.random(50) < 0.2
                extra[sel, c] = rng.choice(np.array([40.0, 1000.0, 3.0e7, 2.5], dtype=np.float32), sel.sum())
    return np.vstack([X, extra]).astype(np.float32)


# ---------------------------------------------------------------- trained models
def load_libsvm_dense(path, n_rows, n_feat=None):
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(path, n_features=n_feat, zero_based=True)
    X = X[:n_rows].toarray().astype(np.float32)
    return X, y[:n_rows].astype(np.float32)


def load_tsv(path, n_rows):
    d = np.loadtxt(path, delimiter="\t", max_rows=n_rows, dtype=np.float64)
    return d[:, 1:].astype(np.float32), d[:, 0].astype(np.float32)


def trained_models(rng):
    """(name, booster) pairs, trained by upstream 3.2 on ../shared/data; saved under models/."""
    D = os.path.join(SHARED, "data")
    Xr, yr = load_tsv(os.path.join(D, "lightgbm_regression", "regression.train"), 400)
    Xb, yb = load_tsv(os.path.join(D, "lightgbm_binary", "binary.train"), 400)
    Xm, ym = load_tsv(os.path.join(D, "lightgbm_multiclass", "multiclass.train"), 400)
    Xq, yq = load_libsvm_dense(os.path.join(D, "lightgbm_lambdarank", "rank.train"), 10_000)
    groups = [int(l) for l in open(os.path.join(D, "lightgbm_lambdarank", "rank.train.query")) if l.strip()]
    cut = np.cumsum(groups)
    g = int(np.searchsorted(cut, 600)) + 1
    nq = int(cut[g - 1])
    Xq, yq, groups = Xq[:nq], yq[:nq], groups[:g]
    Xq = Xq[:, :40]
    for X in (Xr, Xb, Xm, Xq):
        X[rng.random(X.shape) < 0.05] = np.nan
    pos = np.abs(yr) + 0.5
    common = {"max_depth": 4, "eta": 0.3, "seed": 0, "nthread": 1, "tree_method": "hist"}
    out = []

    def train(name, params, X, y, rounds=8, **dm):
        d = xgb.DMatrix(X, label=y, **dm)
        b = xgb.train({**common, **params}, d, rounds)
        ext = ".ubj" if len(out) % 2 else ".json"
        path = os.path.join(MODELS, name + ext)
        b.save_model(path)
        out.append((name + ext, X))

    train("reg_squarederror", {"objective": "reg:squarederror"}, Xr, yr)
    train("reg_squaredlogerror", {"objective": "reg:squaredlogerror"}, Xr, pos)
    train("reg_logistic", {"objective": "reg:logistic"}, Xb, yb)
    train("reg_pseudohubererror", {"objective": "reg:pseudohubererror"}, Xr, yr)
    train("reg_absoluteerror", {"objective": "reg:absoluteerror"}, Xr, yr)
    train("reg_quantileerror", {"objective": "reg:quantileerror", "quantile_alpha": [0.1, 0.5, 0.9]}, Xr, yr)
    train("reg_gamma", {"objective": "reg:gamma"}, Xr, pos)
    train("reg_tweedie", {"objective": "reg:tweedie", "tweedie_variance_power": 1.3}, Xr, pos)
    train("binary_logistic", {"objective": "binary:logistic"}, Xb, yb)
    train("binary_logitraw", {"objective": "binary:logitraw"}, Xb, yb)
    train("binary_hinge", {"objective": "binary:hinge"}, Xb, yb)
    train("multi_softmax", {"objective": "multi:softmax", "num_class": 5}, Xm, ym)
    train("multi_softprob", {"objective": "multi:softprob", "num_class": 5}, Xm, ym)
    train("count_poisson", {"objective": "count:poisson"}, Xr, np.floor(pos))
    cox_y = np.where(yb > 0, pos, -pos).astype(np.float32)
    train("survival_cox", {"objective": "survival:cox"}, Xr, cox_y)
    d = xgb.DMatrix(Xr)
    d.set_float_info("label_lower_bound", pos)
    d.set_float_info("label_upper_bound", np.where(yb > 0, pos, np.inf).astype(np.float32))
    b = xgb.train({**common, "objective": "survival:aft", "aft_loss_distribution": "normal"}, d, 8)
    b.save_model(os.path.join(MODELS, "survival_aft.json"))
    out.append(("survival_aft.json", Xr))
    for obj in ("rank:pairwise", "rank:ndcg", "rank:map"):
        yy = yq if obj != "rank:map" else (yq > 1).astype(np.float32)
        train(obj.replace(":", "_"), {"objective": obj}, Xq, yy, group=groups)
    # Categorical (native, partition-based and one-hot splits), DART, random forest, multi-target.
    Xc = Xr[:, :6].copy()
    Xc[:, 0] = np.floor(np.abs(Xr[:, 0]) * 7) % 23
    Xc[:, 3] = np.floor(np.abs(Xr[:, 3]) * 3) % 5
    Xc[np.isnan(Xr[:, :6])] = np.nan
    ft = ["c", "q", "q", "c", "q", "q"]
    train("categorical", {"objective": "reg:squarederror", "max_cat_to_onehot": 4}, Xc, yr,
          feature_types=ft, enable_categorical=True)
    train("dart", {"objective": "binary:logistic", "booster": "dart", "rate_drop": 0.3, "skip_drop": 0.0}, Xb, yb, 10)
    train("forest", {"objective": "reg:squarederror", "num_parallel_tree": 3, "subsample": 0.7,
                     "colsample_bynode": 0.7}, Xr, yr, 4)
    Y2 = np.stack([yr, np.abs(yr)], axis=1).astype(np.float32)
    train("multi_target", {"objective": "reg:squarederror"}, Xr, Y2)
    train("vector_leaf", {"objective": "reg:squarederror", "multi_strategy": "multi_output_tree"}, Xr, Y2)
    train("deep_lossguide", {"objective": "reg:squarederror", "grow_policy": "lossguide", "max_depth": 0,
                             "max_leaves": 48}, Xr, yr, 4)
    return out


# ---------------------------------------------------------------- writing
def write_f32(path, a):
    np.ascontiguousarray(a, dtype="<f4").tofile(path)


def upstream_dmatrix(booster, X, missing=None, base_margin=None):
    """DMatrix of X with the booster's feature names and types (categorical when it has types),
    `missing` (None = NaN only) and optional base margins."""
    kw = {}
    if booster.feature_names:
        kw["feature_names"] = booster.feature_names
    if booster.feature_types:
        kw["feature_types"] = booster.feature_types
        kw["enable_categorical"] = True
    d = xgb.DMatrix(X, missing=np.nan if missing is None else missing, **kw)
    if base_margin is not None:
        d.set_base_margin(base_margin)
    return d


def make_case(cases, case, model_rel, booster, X, iteration_range=(0, 0), missing=None, base_margin=None):
    n, f = X.shape
    Xin = X.copy()
    d = upstream_dmatrix(booster, Xin, missing, base_margin)
    ir = tuple(iteration_range)
    margin = booster.predict(d, output_margin=True, iteration_range=ir, strict_shape=True).reshape(n, -1)
    pred = booster.predict(d, iteration_range=ir, strict_shape=True).reshape(n, -1)
    arrays = [("X", X), ("margin", margin), ("pred", pred)]
    if ir[0] == 0:  # upstream: "Predict leaf supports only iteration end"
        dl = upstream_dmatrix(booster, Xin[:LEAF_ROWS], missing)
        leaf = booster.predict(dl, pred_leaf=True, iteration_range=ir).reshape(min(n, LEAF_ROWS), -1)
        arrays.append(("leaf", leaf))
    files = {}
    for key, arr in tuple(arrays) + (
            (("bm", base_margin),) if base_margin is not None else ()):
        fn = "%s.%s.f32" % (case, key)
        write_f32(os.path.join(OUT, fn), arr)
        files[key] = [fn, int(arr.shape[0]), int(arr.reshape(arr.shape[0], -1).shape[1])]
    cases.append({"name": case, "model": model_rel, "rows": n, "features": f,
                  "iteration_range": list(ir), "missing": missing, "files": files})


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(MODELS, exist_ok=True)
    for fn in os.listdir(OUT):
        os.remove(os.path.join(OUT, fn))
    rng = np.random.default_rng(20261130)
    cases = []
    for name in sorted(os.listdir(os.path.join(SHARED, "models"))):
        if not name.endswith((".json", ".ubj")):
            continue
        b = booster_for_upstream(os.path.join(SHARED, "models", name))
        X = shared_inputs(name, b, rng)
        case = os.path.splitext(name)[0]
        make_case(cases, case, "shared:models/" + name, b, X)
        if case == "jpmml_auto_reg_dart_v330":
            # The source repository predicted with iteration_range=(0, best_iteration + 1).
            make_case(cases, case + "_range", "shared:models/" + name, b, X, iteration_range=(0, 22))
        if case == "jpmml_iris_dart_v132":
            make_case(cases, case + "_range", "shared:models/" + name, b, X, iteration_range=(3, 11))
    for name, Xtrain in trained_models(rng):
        b = xgb.Booster(model_file=os.path.join(MODELS, name))
        X = Xtrain[rng.choice(Xtrain.shape[0], 100, replace=False)]
        X = np.vstack([X, rng_rows(rng, 20, X.shape[1])])
        case = "trained_" + os.path.splitext(name)[0]
        make_case(cases, case, "golden:models/" + name, b, X)
        if name.startswith("binary_logistic"):
            make_case(cases, case + "_range", "golden:models/" + name, b, X, iteration_range=(2, 6))
            Xm = X.copy()
            Xm[np.random.default_rng(1).random(Xm.shape) < 0.1] = -999.0
            make_case(cases, case + "_missing", "golden:models/" + name, b, Xm, missing=-999.0)
            bm = np.random.default_rng(2).standard_normal((X.shape[0], 1)).astype(np.float32)
            make_case(cases, case + "_base_margin", "golden:models/" + name, b, X, base_margin=bm)
        if name.startswith("multi_softprob"):
            make_case(cases, case + "_range", "golden:models/" + name, b, X, iteration_range=(1, 5))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"xgboost": xgb.__version__, "cases": cases}, f, indent=1)
    print("%d cases written to %s" % (len(cases), OUT))


if __name__ == "__main__":
    sys.exit(main())
