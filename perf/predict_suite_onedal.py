#!/usr/bin/env python3
"""oneDAL peer of the CPU inference suite; run by perf/predict_suite_cpu.py in its own venv
(xgboost 2.1.4, scikit-learn < 1.6, daal4py: daal4py cannot read XGBoost 3.x models).

Loads NAME.plain.json (the suite's model re-saved with a plain base_score) with xgboost 2.1.4,
converts it with daal4py.mb.convert_model (once: the converted model is pickled to
WORK/onedal_NAME.pkl, as the conversion of a 4.5 M-node model takes minutes and 4 GB) and times
predict_proba (classification) or predict (regression) by perf/predict_suite_timing.py's rule on
THREADS threads. Writes, as .npy in WORK: onedal_NAME_<batch>.npy (call 0's predictions, shaped as
xgboost's) and, with the conversion, xgb214_NAME.npy (xgboost 2.1.4's inplace_predict of rows
[0, 10000), to prove the re-saved model is the timed one). Prints one JSON line per batch, after
one with the conversion time (0 when the pickle was reused).

  python perf/predict_suite_onedal.py SPEC_JSON
SPEC_JSON: {"work", "name", "objective", "x", "features", "batches", "threads", "rule": [budget_ms,
min_trials, max_trials, seed]}
"""
import json
import os
import pickle
import sys
import time

import daal4py
import daal4py.mb
import numpy as np
import xgboost as xgb

import predict_suite_timing as timing


def predictor(model, objective):
    """The predict call whose output is shaped as xgboost's inplace_predict for `objective`."""
    if objective == "multi:softprob":
        return model.predict_proba
    if objective == "binary:logistic":
        return lambda X: model.predict_proba(X)[:, 1]
    return model.predict


def converted(spec, X):
    """The daal4py model of NAME (from the pickle, or converted and pickled) and the conversion seconds."""
    work, name = spec["work"], spec["name"]
    pkl = os.path.join(work, "onedal_%s.pkl" % name)
    if os.path.exists(pkl):
        with open(pkl, "rb") as f:
            return pickle.load(f), 0.0
    booster = xgb.Booster(model_file=os.path.join(work, name + ".plain.json"))
    booster.set_param({"nthread": spec["threads"]})
    np.save(os.path.join(work, "xgb214_%s.npy" % name), booster.inplace_predict(X[:10000]))
    t0 = time.time()
    model = daal4py.mb.convert_model(booster)
    convert_s = time.time() - t0
    with open(pkl, "wb") as f:
        pickle.dump(model, f)
    return model, convert_s


def main():
    spec = json.loads(sys.argv[1])
    daal4py.daalinit(spec["threads"])
    rule = timing.Rule(*spec["rule"])
    X = timing.load_rows(spec["x"], spec["features"])
    model, convert_s = converted(spec, X)
    predict = predictor(model, spec["objective"])
    print(json.dumps({"convert_s": convert_s}), flush=True)
    for rows, r in timing.sweep(predict, X, spec["batches"], rule):
        np.save(os.path.join(spec["work"], "onedal_%s_%d.npy" % (spec["name"], rows)), r.pop("out"))
        print(json.dumps(dict(r, rows=rows)), flush=True)


if __name__ == "__main__":
    main()
