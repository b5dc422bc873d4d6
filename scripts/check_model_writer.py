"""Check that upstream XGBoost loads kboost-written models and predicts what kboost predicts.

Run in the venv (xgboost 3.2.0) from the repository root, after building:

    .venv/bin/python scripts/check_model_writer.py --build build-trainA

1. Round trip: the Catch2 test "[model_writer]" re-saves every upstream model in tests/golden/models
   with kboost's writer (JSON and UBJSON) into a temp dir (KBOOST_WRITER_OUT); upstream loads each
   and its predictions (margin and transformed) must equal the original model's bit for bit.
2. Trained: `kboost train` on agaricus (binary:logistic) and california_housing (reg:squarederror),
   saved as .json and .ubj; upstream loads them and its predictions must equal `kboost predict`'s
   (CSV, 9 significant digits = float32 round trip) bit for bit.
Exit status 0 when everything matches.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import xgboost as xgb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data")


def probe_matrix(booster, rows=2000, seed=0):
    rng = np.random.default_rng(seed)
    nf = booster.num_features()
    X = rng.normal(0, 2, (rows, nf)).astype(np.float32)
    X[rng.random(X.shape) < 0.1] = np.nan
    ft = booster.feature_types
    if ft and "c" in ft:
        for j, t in enumerate(ft):
            if t == "c":
                X[:, j] = np.where(np.isnan(X[:, j]), np.nan, rng.integers(0, 8, rows))
        return xgb.DMatrix(X, feature_types=ft, enable_categorical=True)
    return xgb.DMatrix(X)


def same_bits(a, b):
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def round_trip(build):
    out = tempfile.mkdtemp(prefix="kboost_writer_")
    exe = os.path.join(ROOT, build, "tests", "kboost_tests_host")
    env = dict(os.environ, KBOOST_WRITER_OUT=out)
    subprocess.run([exe, "[model_writer]"], check=True, env=env, stdout=subprocess.DEVNULL)
    ok = True
    for orig in sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "models", "*"))):
        if not orig.endswith((".json", ".ubj")):
            continue
        stem = os.path.splitext(os.path.basename(orig))[0]
        b0 = xgb.Booster(model_file=orig)
        d = probe_matrix(b0)
        for ext in (".json", ".ubj"):
            path = os.path.join(out, stem + ext)
            try:
                b1 = xgb.Booster(model_file=path)
                good = all(same_bits(b0.predict(d, output_margin=m), b1.predict(d, output_margin=m)) for m in (True, False))
            except xgb.core.XGBoostError as e:
                good = False
                print("  load error:", str(e).splitlines()[0])
            print(f"round trip {stem}{ext}: {'OK' if good else 'MISMATCH'}")
            ok &= good
    return ok


def trained(build):
    exe = os.path.join(ROOT, build, "kboost")
    out = tempfile.mkdtemp(prefix="kboost_trained_")
    cases = [
        ("agaricus", os.path.join(SHARED, "agaricus", "agaricus.txt.train"),
         os.path.join(SHARED, "agaricus", "agaricus.txt.test"), [], "binary:logistic"),
        ("california", os.path.join(SHARED, "california_housing", "housing.csv"),
         os.path.join(SHARED, "california_housing", "housing.csv"), ["--label-column", "median_house_value"],
         "reg:squarederror"),
    ]
    ok = True
    for name, train, test, ro, obj in cases:
        for ext in (".json", ".ubj"):
            model = os.path.join(out, name + ext)
            r = subprocess.run([exe, "train", "--data", train, *ro, "--objective", obj, "--num-round", "5", "--quiet",
                                "--model-out", model], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"trained {name}{ext}: kboost train failed: {r.stderr.strip()[:200]}")
                ok = False
                continue
            pred = os.path.join(out, name + ext + ".csv")
            subprocess.run([exe, "predict", "--model", model, "--data", test, *ro, "--out", pred, "--output-margin"],
                           check=True, capture_output=True)
            mine = np.loadtxt(pred, delimiter=",", dtype=np.float64, ndmin=1).astype(np.float32)
            if name == "agaricus":
                d = xgb.DMatrix(test + "?format=libsvm")
            else:
                import pandas as pd
                df = pd.read_csv(test)
                df.pop("median_house_value")
                df["ocean_proximity"] = df["ocean_proximity"].astype("category").cat.codes
                d = None
            b = xgb.Booster(model_file=model)
            if d is None:  # CSV: kboost keeps the header's feature names (and "c" for the string column)
                d = xgb.DMatrix(df.to_numpy(np.float32), feature_names=b.feature_names, feature_types=b.feature_types,
                                enable_categorical=True)
            up = b.predict(d, output_margin=True)
            good = same_bits(mine.reshape(up.shape), up)
            print(f"trained {name}{ext}: upstream loads it; predictions {'equal' if good else 'DIFFER'}"
                  f" ({np.sum(mine.reshape(up.shape) != up)} of {up.size} differ)")
            ok &= good
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    ok = round_trip(a.build)
    ok &= trained(a.build)
    print("ALL OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
