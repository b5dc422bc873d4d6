#!/usr/bin/env python3
"""Goldens for tests/tst_upstream_gpu.hpp: the trees and cuts of upstream XGBoost 3.4.1 built with
CUDA (perf/upstream_gpu/run.sh build), trained with device=cuda, tree_method=hist.

Runs on the GPU machine in two steps around upstream's C API (that image's Python cannot call the
library: its first call crashes, so the training is perf/upstream_gpu/xgb_golden_gpu.cpp):
    perf/upstream_gpu/run.sh goldens <build dir> <data dir> <out dir>
  = make_goldens.py prepare --data <data dir> --work W   (each case's float32 matrix and labels in
        perf/upstream_gpu/bench_file.hpp's format, and its driver arguments)
    xgb_golden_gpu W/<case>/data.bin W/<case> ROUNDS TYPES key=value...   (model.json, the cuts)
    make_goldens.py assemble --work W --out <out dir>
<data dir> holds the files of ../shared/data the cases read (lightgbm_*/..., california_housing/
housing.csv); the 1M-row case is synthetic (synthetic_rows below; tests/tst_upstream_gpu.hpp makes
the same float32 bits in C++). Output: one <case>.json per case and manifest.json, each case with
its parameters, a sha256 of its float32 feature matrix (row-major, NaN = missing) to prove both
sides train on the same bits, upstream's cuts (XGDMatrixGetQuantileCut after training: the GPU
sketch's, -inf leading each numerical feature) and every tree's node arrays, floats as their
float32 bit patterns.
"""
import argparse
import csv
import hashlib
import json
import os
import subprocess

import numpy as np

MASK64 = (1 << 64) - 1


def splitmix64(x):
    """splitmix64 of a uint64 numpy array (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def synthetic_rows(rows, features):
    """rows x features float32 from integer hashes (exact in float32, no library math): feature j of
    row i is h = splitmix64(i * 64 + j); every fifth feature takes 64 levels ((h >> 58) - 32),
    the others 2^20 ((h >> 44) / 2^16 - 8). Missing: (h >> 8) & 255 < 20 * (j % 3), and feature
    3 of rows [rows/4, rows/4 + rows/16). Label (binary): 1 when c0 - c1 + (c2 >> 2) + noise > 0,
    c_j the integer code of feature j (0 when missing), noise = (splitmix64(i * 64 + 63) >> 44) - 2^19."""
    i = np.arange(rows, dtype=np.uint64)[:, None]
    j = np.arange(features, dtype=np.uint64)[None, :]
    h = splitmix64(i * np.uint64(64) + j)
    fine = (h >> np.uint64(44)).astype(np.int64)  # 20 bits
    coarse = (h >> np.uint64(58)).astype(np.int64) - 32
    every5 = (np.arange(features) % 5 == 0)[None, :]
    code = np.where(every5, coarse, fine)
    X = np.where(every5, coarse.astype(np.float32), (fine.astype(np.float32) * np.float32(2.0 ** -16)) - np.float32(8))
    missing = ((h >> np.uint64(8)) & np.uint64(255)).astype(np.int64) < 20 * (np.arange(features) % 3)[None, :]
    missing[rows // 4: rows // 4 + rows // 16, 3] = True
    X = np.where(missing, np.float32(np.nan), X).astype(np.float32)
    code = np.where(missing, 0, code)
    noise = (splitmix64(np.arange(rows, dtype=np.uint64) * np.uint64(64) + np.uint64(63)) >> np.uint64(44)).astype(
        np.int64) - (1 << 19)
    y = ((code[:, 0] * (1 << 14) - code[:, 1] + (code[:, 2] >> 2) + noise) > 0).astype(np.float32)
    return X, y


def lightgbm(data, name, part="train"):
    a = np.loadtxt(os.path.join(data, f"lightgbm_{name}", f"{name}.{part}"), delimiter="\t", dtype=np.float32)
    return a[:, 1:], a[:, 0], None


def california(data, categorical):
    """housing.csv: label median_house_value; ocean_proximity as the codes of its sorted categories
    (kboost's reader), a categorical feature when `categorical`; empty cells missing."""
    with open(os.path.join(data, "california_housing", "housing.csv")) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    li, ci = header.index("median_house_value"), header.index("ocean_proximity")
    cats = sorted({r[ci] for r in body})
    cols = [k for k in range(len(header)) if k != li]
    X = np.array([[np.float32(cats.index(r[k])) if k == ci else (np.float32(r[k]) if r[k] != "" else np.nan)
                   for k in cols] for r in body], dtype=np.float32)
    y = np.array([np.float32(r[li]) for r in body], dtype=np.float32)
    types = ["c" if k == ci else "q" for k in cols] if categorical else None
    return X, y, types


def dataset(data, name):
    if name == "lightgbm_binary":
        return lightgbm(data, "binary")
    if name == "lightgbm_multiclass":
        return lightgbm(data, "multiclass")
    if name == "lightgbm_regression":
        return lightgbm(data, "regression")
    if name == "california_housing":
        return california(data, False)
    if name == "california_housing_categorical":
        return california(data, True)
    if name == "synthetic_1m":
        X, y = synthetic_rows(1_000_000, 16)
        return X, y, None
    raise ValueError(name)


# name: (dataset, rounds, parameters beside device=cuda, tree_method=hist and upstream's defaults)
CASES = {
    "binary_depth6": ("lightgbm_binary", 20, {"objective": "binary:logistic", "max_depth": 6}),
    "multiclass": ("lightgbm_multiclass", 10, {"objective": "multi:softprob", "num_class": 5}),
    "regression_depth8": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "max_depth": 8}),
    "pseudohuber": ("lightgbm_regression", 10, {"objective": "reg:pseudohubererror"}),
    "poisson": ("california_housing", 10, {"objective": "count:poisson"}),
    "gamma": ("california_housing", 10, {"objective": "reg:gamma"}),
    "missing_california": ("california_housing", 20, {"objective": "reg:squarederror"}),
    "missing_1m": ("synthetic_1m", 10, {"objective": "binary:logistic", "max_depth": 6}),
    "lossguide": ("lightgbm_binary", 10, {"objective": "binary:logistic", "grow_policy": "lossguide",
                                          "max_leaves": 31, "max_depth": 0}),
    "max_bin64": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "max_bin": 64}),
    "regularised": ("lightgbm_binary", 10, {"objective": "binary:logistic", "lambda": 2.0, "alpha": 0.5,
                                            "gamma": 1.0, "min_child_weight": 5.0, "max_delta_step": 0.7}),
    "eta": ("lightgbm_regression", 20, {"objective": "reg:squarederror", "eta": 0.05}),
    "sampling": ("lightgbm_binary", 10, {"objective": "binary:logistic", "subsample": 0.8, "colsample_bytree": 0.8,
                                         "colsample_bylevel": 0.8, "colsample_bynode": 0.8, "seed": 7}),
    "categorical_onehot": ("california_housing_categorical", 10, {"objective": "reg:squarederror",
                                                                  "max_cat_to_onehot": 8}),
    "categorical_partition": ("california_housing_categorical", 10, {"objective": "reg:squarederror",
                                                                     "max_cat_to_onehot": 1}),
    # the same features with squared error, whose gradients need no special function
    "lossguide_regression": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "grow_policy": "lossguide",
                                                         "max_leaves": 31, "max_depth": 0}),
    "regularised_regression": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "lambda": 2.0,
                                                           "alpha": 0.5, "gamma": 1.0, "min_child_weight": 5.0,
                                                           "max_delta_step": 0.7}),
    "colsample_regression": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "colsample_bytree": 0.8,
                                                         "colsample_bylevel": 0.8, "colsample_bynode": 0.8,
                                                         "seed": 7}),
    "subsample_regression": ("lightgbm_regression", 10, {"objective": "reg:squarederror", "subsample": 0.8,
                                                         "seed": 7}),
    "depth10_california": ("california_housing", 10, {"objective": "reg:squarederror", "max_depth": 10}),
    "regression_1m": ("synthetic_1m", 10, {"objective": "reg:squarederror", "max_depth": 8}),
    "lossguide_1m": ("synthetic_1m", 10, {"objective": "reg:squarederror", "grow_policy": "lossguide",
                                          "max_leaves": 63, "max_depth": 0}),
}


def bits(a):
    return np.asarray(a, dtype=np.float32).view(np.uint32).tolist()


def sha256_of(X):
    X = np.ascontiguousarray(X, dtype=np.float32).copy()
    X[np.isnan(X)] = np.float32(np.nan)  # one NaN pattern
    return hashlib.sha256(X.tobytes()).hexdigest()


def trees_of(model):
    learner = model["learner"]
    out = []
    for t in learner["gradient_booster"]["model"]["trees"]:
        out.append({
            "left_children": t["left_children"], "right_children": t["right_children"],
            "split_indices": t["split_indices"], "default_left": [int(v) for v in t["default_left"]],
            "split_type": [int(v) for v in t["split_type"]],
            "split_conditions": bits(t["split_conditions"]), "base_weights": bits(t["base_weights"]),
            "loss_changes": bits(t["loss_changes"]), "sum_hessian": bits(t["sum_hessian"]),
            "categories": t["categories"], "categories_nodes": t["categories_nodes"],
            "categories_segments": t["categories_segments"], "categories_sizes": t["categories_sizes"],
        })
    return learner["learner_model_param"]["base_score"], learner["gradient_booster"]["model"]["tree_info"], out


def case_arrays(data, name, cache):
    ds, rounds, extra = CASES[name]
    if ds not in cache:
        cache[ds] = dataset(data, ds)
    X, y, types = cache[ds]
    scaled = extra["objective"] in ("count:poisson", "reg:gamma")
    if scaled:
        y = (y / np.float32(100000)).astype(np.float32)
    return X, y, types, (1e-5 if scaled else 1)


def prepare(args):
    cache = {}
    for name in args.cases.split(","):
        ds, rounds, extra = CASES[name]
        X, y, types, _ = case_arrays(args.data, name, cache)
        work = os.path.join(args.work, name)
        os.makedirs(work, exist_ok=True)
        with open(os.path.join(work, "data.bin"), "wb") as f:
            f.write(np.array([X.shape[0], X.shape[1]], dtype=np.int64).tobytes())
            f.write(np.ascontiguousarray(X, dtype=np.float32).tobytes())
            f.write(np.ascontiguousarray(y, dtype=np.float32).tobytes())
        argv = [str(rounds), ",".join(types) if types else "-"] + [f"{k}={v}" for k, v in extra.items()]
        with open(os.path.join(work, "args"), "w") as f:
            f.write(" ".join(argv) + "\n")


def assemble(args):
    cache = {}
    manifest = {"xgboost": "3.4.1", "gpu": subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
        capture_output=True, text=True).stdout.strip(), "cases": []}
    for name in args.cases.split(","):
        ds, rounds, extra = CASES[name]
        X, y, types, scale = case_arrays(args.data, name, cache)
        work = os.path.join(args.work, name)
        with open(os.path.join(work, "model.json")) as f:
            model = json.load(f)
        ptrs = np.fromfile(os.path.join(work, "cut_ptrs.u64"), dtype=np.uint64)
        values = np.fromfile(os.path.join(work, "cut_values.f32"), dtype=np.float32)
        base_score, tree_info, trees = trees_of(model)
        case = {"name": name, "dataset": ds, "rounds": rounds, "params": extra, "label_scale": scale,
                "rows": int(X.shape[0]), "features": int(X.shape[1]), "X_sha256": sha256_of(X),
                "y_sha256": hashlib.sha256(np.ascontiguousarray(y, dtype=np.float32).tobytes()).hexdigest(),
                "base_score": base_score, "tree_info": tree_info,
                "cuts": {"ptrs": [int(p) for p in ptrs], "values_bits": bits(values)}, "trees": trees}
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump(case, f, separators=(",", ":"))
        manifest["cases"].append(name)
        print(name, len(trees), "trees", flush=True)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("step", choices=["prepare", "assemble"])
    ap.add_argument("--data", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out")
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    if args.step == "prepare":
        prepare(args)
    else:
        os.makedirs(args.out, exist_ok=True)
        assemble(args)


if __name__ == "__main__":
    main()
