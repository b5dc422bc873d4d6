#!/usr/bin/env python3
"""SHAP goldens: upstream XGBoost 3.2.0 CPU SHAP values for every prediction golden case
(tests/golden/predict, written by make_predict_goldens.py: every model in ../shared/models and in
tests/golden/models).

Run with the venv that has xgboost 3.2.0 (the shared folder defaults to ../shared beside the repo):
  KBOOST_SHARED=/work/shared /tmp/venv/bin/python tests/golden/make_shap_goldens.py

Inputs are not written again: a case uses the first `rows` = min(32, rows) rows of the prediction
case's <case>.X.f32 (and <case>.bm.f32 base margins when it has them), with its `missing` value and
the end of its iteration_range. Interaction values use the first `inter_rows` of those rows
(min(8, rows), 4 when the model has more than 50 features).

Writes tests/golden/shap/manifest.json and, per case, little-endian float32 files (G = output groups,
F = features; the last of the F + 1 columns is the bias, which includes the base score or margin):
  <case>.contribs.f32      rows x G x (F+1)              predict(pred_contribs=True)
  <case>.approx.f32        rows x G x (F+1)              predict(pred_contribs=True, approx_contribs=True)
  <case>.inter.f32         inter_rows x G x (F+1) x (F+1) predict(pred_interactions=True)
  <case>.inter_approx.f32  inter_rows x G x (F+1) x (F+1) predict(pred_interactions=True, approx_contribs=True)
A manifest case holds "error" (upstream's message) instead of "files" when upstream refuses the
model (vector-leaf trees), and "skipped" when the prediction case's iteration_range begins after 0
(upstream computes contributions only for ranges that begin at 0).
The C++ test (tests/tst_shap.hpp) must reproduce every array BIT for bit.

As a sanity check the script prints, per case, the largest |sum of a row's contributions - margin|
(Saabas and TreeSHAP) and |sum of a row's interaction values - margin|.
"""
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("KBOOST_SHARED", os.path.join(REPO, "..", "shared"))
PREDICT = os.path.join(HERE, "predict")
OUT = os.path.join(HERE, "shap")
ROWS = 32
INTER_ROWS = 8
INTER_ROWS_WIDE = 4   # interaction rows when the model has more than WIDE features
WIDE = 50

sys.path.insert(0, HERE)
import make_predict_goldens as mpg  # noqa: E402  (asserts xgboost 3.2.0; loads models as 3.2 reads them)
import xgboost as xgb  # noqa: E402

mpg.SHARED = SHARED


def model_path(ref):
    """Path of a manifest model reference: "shared:<rel>" under SHARED, "golden:<rel>" under tests/golden."""
    kind, rel = ref.split(":", 1)
    return os.path.join(SHARED if kind == "shared" else HERE, rel)


def read_f32(name, rows, cols):
    a = np.fromfile(os.path.join(PREDICT, name), dtype="<f4")
    assert a.size == rows * cols, (name, a.size, rows, cols)
    return a.reshape(rows, cols)


def upstream_message(err):
    """First line of an upstream error without its [hh:mm:ss] timestamp."""
    line = str(err).strip().split("\n", 1)[0].rstrip()
    return re.sub(r"^\[\d\d:\d\d:\d\d\]\s*", "", line)


def write_f32(name, a):
    np.ascontiguousarray(a, dtype="<f4").tofile(os.path.join(OUT, name))


def make_case(pc):
    name = pc["name"]
    begin, end = pc["iteration_range"]
    out = {"name": name, "predict_case": name, "model": pc["model"]}
    if begin != 0:
        out["skipped"] = ("iteration_range [%d, %d) begins after 0: upstream computes SHAP values only "
                          "for ranges that begin at 0" % (begin, end))
        return out, None
    n, f = pc["rows"], pc["features"]
    rows = min(ROWS, n)
    inter_rows = INTER_ROWS_WIDE if f > WIDE else min(INTER_ROWS, rows)
    files = pc["files"]
    X = read_f32(files["X"][0], n, f)[:rows]
    bm = None
    if "bm" in files:
        bm = read_f32(files["bm"][0], files["bm"][1], files["bm"][2])[:rows]
    missing = pc["missing"]
    booster = mpg.booster_for_upstream(model_path(pc["model"]))
    ir = (0, end)
    d = mpg.upstream_dmatrix(booster, X, missing, bm)
    di = mpg.upstream_dmatrix(booster, X[:inter_rows], missing, None if bm is None else bm[:inter_rows])
    try:
        margin = booster.predict(d, output_margin=True, iteration_range=ir, strict_shape=True).reshape(rows, -1)
        contribs = booster.predict(d, pred_contribs=True, iteration_range=ir, strict_shape=True)
        approx = booster.predict(d, pred_contribs=True, approx_contribs=True, iteration_range=ir, strict_shape=True)
        inter = booster.predict(di, pred_interactions=True, iteration_range=ir, strict_shape=True)
        inter_approx = booster.predict(di, pred_interactions=True, approx_contribs=True, iteration_range=ir,
                                       strict_shape=True)
    except xgb.core.XGBoostError as e:
        out["error"] = upstream_message(e)
        return out, None
    g = margin.shape[1]
    C = f + 1
    assert contribs.shape == (rows, g, C), (name, contribs.shape)
    assert approx.shape == (rows, g, C), (name, approx.shape)
    assert inter.shape == (inter_rows, g, C, C), (name, inter.shape)
    assert inter_approx.shape == (inter_rows, g, C, C), (name, inter_approx.shape)
    out.update({"rows": rows, "inter_rows": inter_rows, "features": f, "groups": g, "iteration_end": end,
                "missing": missing, "base_margin": bm is not None})
    fl = {}
    for key, arr in (("contribs", contribs), ("approx", approx), ("inter", inter), ("inter_approx", inter_approx)):
        fn = "%s.%s.f32" % (name, key)
        write_f32(fn, arr)
        fl[key] = [fn, int(arr.shape[0]), int(arr[0].size)]
    out["files"] = fl
    m64 = margin.astype(np.float64)
    check = {
        "contribs": np.abs(contribs.astype(np.float64).sum(axis=2) - m64).max(),
        "approx": np.abs(approx.astype(np.float64).sum(axis=2) - m64).max(),
        "inter": np.abs(inter.astype(np.float64).sum(axis=(2, 3)) - m64[:inter_rows]).max(),
        "inter_approx": np.abs(inter_approx.astype(np.float64).sum(axis=(2, 3)) - m64[:inter_rows]).max(),
        "margin_max": np.abs(m64).max(),
    }
    return out, check


def main():
    os.makedirs(OUT, exist_ok=True)
    for fn in os.listdir(OUT):
        os.remove(os.path.join(OUT, fn))
    predict = json.load(open(os.path.join(PREDICT, "manifest.json")))
    cases = []
    print("%-40s %10s %10s %10s %10s %10s" % ("case: max |sum - margin|", "contribs", "approx", "inter",
                                              "inter_apx", "max|margin|"))
    for pc in predict["cases"]:
        case, check = make_case(pc)
        cases.append(case)
        if check is not None:
            print("%-40s %10.3g %10.3g %10.3g %10.3g %10.3g" % (case["name"], check["contribs"], check["approx"],
                                                                check["inter"], check["inter_approx"],
                                                                check["margin_max"]))
        else:
            print("%-40s %s" % (case["name"], case.get("error") or "skipped: " + case["skipped"]))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"xgboost": xgb.__version__, "cases": cases}, f, indent=1)
    size = sum(os.path.getsize(os.path.join(OUT, fn)) for fn in os.listdir(OUT))
    print("%d cases (%d with files) written to %s, %.2f MB" % (
        len(cases), sum("files" in c for c in cases), OUT, size / 1e6))


if __name__ == "__main__":
    sys.exit(main())
