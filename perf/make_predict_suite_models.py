#!/usr/bin/env python3
"""Models and inputs of the CPU inference suite (perf/predict_suite_cpu.py), written to WORK once
(each file is skipped when present; delete it to rebuild). Deterministic: seeded numpy data, hist.

  softprob_<T>.ubj   perf/make_predict_model.py's 999-tree model (multi:softprob, 3 classes x 333
                     rounds, depth 6, 9 features) sliced to its first 33, 66, ..., 297 and 333
                     rounds: T = 99, 198, ..., 891 and 999 trees, so the tree count is the only variable.
  deep_lossguide.ubj reg:squarederror, lossguide, max_depth 12, max_leaves 4096, 28 features,
                     900 rounds on 200,000 rows: > 3.75 M nodes, a kboost node pool (16 B/node)
                     larger than the H200's 60 MB L2. Trained with 1 thread (lossguide's per-node
                     overhead makes 2 threads ~10x slower on this 2-core box) and 64 bins.
  d8_500.ubj         binary:logistic, 500 rounds, max_depth 8, 28 features.
  X9.f32, X28.f32    1,000,000 inference rows each (raw little-endian float32, ~2 % NaN) drawn
                     from the training distributions with other seeds; the same rows for every peer.
  <model>.plain.json the model as JSON with learner_model_param.base_score written as a plain
                     number (XGBoost 3.x writes "[5E-1]", which xgboost 2.1 and so daal4py reject).
  models.json        manifest: name, file, trees, nodes, features, objective, training seconds.

Usage: .perf-venv/main/bin/python perf/make_predict_suite_models.py [WORK]   (default /tmp/kboost_predict_suite)
"""
import json
import os
import re
import sys
import time

import numpy as np
import xgboost as xgb

import make_predict_model

ROWS = 1_000_000
MISSING = 0.02
SOFTPROB_ROUNDS = [33 * k for k in range(1, 10)] + [333]


def features28(rng, rows):
    """rows x 28 standard-normal float32."""
    return rng.standard_normal((rows, 28), dtype=np.float32)


def with_missing(rng, X):
    """X with ~2 % of its values set to NaN."""
    X[rng.random(X.shape) < MISSING] = np.nan
    return X


def target28(rng, X):
    """A noisy non-linear score of the first features (NaN counts as 0)."""
    Z = np.nan_to_num(X)
    return Z[:, 0] * Z[:, 1] + np.sin(2 * Z[:, 2]) + Z[:, 3] ** 2 - Z[:, 4] + 0.5 * Z[:, 5] * Z[:, 6] + \
        rng.normal(scale=1.0, size=len(Z))


def train_deep_lossguide():
    rng = np.random.default_rng(11)
    X = with_missing(rng, features28(rng, 200_000))
    y = target28(rng, X)
    params = {"objective": "reg:squarederror", "tree_method": "hist", "grow_policy": "lossguide", "max_depth": 12,
              "max_leaves": 4096, "max_bin": 64, "eta": 0.1, "seed": 0, "nthread": 1}
    return xgb.train(params, xgb.QuantileDMatrix(X, label=y, max_bin=64), num_boost_round=900)


def train_d8_500():
    rng = np.random.default_rng(13)
    X = with_missing(rng, features28(rng, 100_000))
    y = (target28(rng, X) > 1.0).astype(np.float32)
    params = {"objective": "binary:logistic", "tree_method": "hist", "max_depth": 8, "eta": 0.05, "seed": 0,
              "nthread": 2}
    return xgb.train(params, xgb.DMatrix(X, label=y), num_boost_round=500)


def plain_base_score(raw):
    """XGBoost JSON bytes with a bracketed base_score ("[5E-1]" or one equal value per class) made plain."""
    m = re.search(rb'"base_score":"\[([^\]"]*)\]"', raw)
    if not m:
        return raw
    values = set(float(v) for v in m.group(1).split(b","))
    assert len(values) == 1, "per-class base_scores differ: %r" % m.group(1)
    return raw[:m.start()] + b'"base_score":"%s"' % m.group(1).split(b",")[0] + raw[m.end():]


def describe(work, name, booster, train_s):
    """Save NAME.plain.json and return the manifest entry of the saved NAME.ubj."""
    raw = bytes(booster.save_raw("json"))
    with open(os.path.join(work, name + ".plain.json"), "wb") as f:
        f.write(plain_base_score(raw))
    nodes = sum(int(n) for n in re.findall(rb'"num_nodes":"(\d+)"', raw))
    cfg = json.loads(booster.save_config())
    trees = int(re.search(rb'"num_trees":"(\d+)"', raw).group(1))
    return {"name": name, "file": name + ".ubj", "trees": trees, "nodes": nodes,
            "features": booster.num_features(), "objective": cfg["learner"]["objective"]["name"],
            "train_s": round(train_s, 1)}


def softprob_names():
    return ["softprob_%d" % (3 * r) for r in SOFTPROB_ROUNDS]


def build(work, name, train, entries):
    """Train and save NAME unless its files and manifest entry exist."""
    if name in entries and os.path.exists(os.path.join(work, name + ".ubj")):
        return
    t0 = time.time()
    booster = train()
    train_s = time.time() - t0
    booster.save_model(os.path.join(work, name + ".ubj"))
    entries[name] = describe(work, name, booster, train_s)
    print("%s: %d trees, %d nodes, trained in %.0f s" % (name, entries[name]["trees"], entries[name]["nodes"], train_s))


def build_softprob(work, entries):
    names = softprob_names()
    if all(n in entries and os.path.exists(os.path.join(work, n + ".ubj")) for n in names):
        return
    t0 = time.time()
    full = make_predict_model.train()
    train_s = time.time() - t0
    print("softprob: 999 trees trained in %.0f s" % train_s)
    for rounds, name in zip(SOFTPROB_ROUNDS, names):
        sliced = full[0:rounds]
        sliced.save_model(os.path.join(work, name + ".ubj"))
        entries[name] = describe(work, name, sliced, train_s)


def write_inputs(work):
    for name, seed, make in (("X9.f32", 21, make_predict_model.features), ("X28.f32", 23, features28)):
        path = os.path.join(work, name)
        if os.path.exists(path):
            continue
        rng = np.random.default_rng(seed)
        with_missing(rng, make(rng, ROWS)).astype("<f4").tofile(path)


def build_all(work):
    """Build what is missing in WORK; return the manifest entries (softprob by trees, then the others)."""
    os.makedirs(work, exist_ok=True)
    manifest = os.path.join(work, "models.json")
    entries = {}
    if os.path.exists(manifest):
        with open(manifest) as f:
            entries = {e["name"]: e for e in json.load(f)}
    write_inputs(work)
    build_softprob(work, entries)
    build(work, "deep_lossguide", train_deep_lossguide, entries)
    build(work, "d8_500", train_d8_500, entries)
    entries = [entries[n] for n in softprob_names() + ["deep_lossguide", "d8_500"]]
    with open(manifest, "w") as f:
        json.dump(entries, f, indent=1)
    return entries


def main():
    for e in build_all(sys.argv[1] if len(sys.argv) > 1 else "/tmp/kboost_predict_suite"):
        print("%-15s %5d trees %9d nodes %7.1f MB (16 B/node) %2d features %-18s trained in %5.0f s" % (
            e["name"], e["trees"], e["nodes"], e["nodes"] * 16 / 1e6, e["features"], e["objective"], e["train_s"]))


if __name__ == "__main__":
    main()
