#!/usr/bin/env python3
"""Model-dump and feature-importance goldens: upstream XGBoost 3.2.0's Booster.get_dump,
Booster.dump_model and Booster.get_score for every model in ../shared/models (*.json, *.ubj, with
the model's .fmap beside it when there is one) and every model in tests/golden/models/ (with the
hand-written feature maps tests/golden/dump/*.fmap where there is one).

Run:  KBOOST_SHARED=/work/shared /tmp/venv/bin/python tests/golden/make_dump_goldens.py
(KBOOST_SHARED defaults to ../shared beside the repository; without it only the tests/golden
models are written.)

Writes one file per model, tests/golden/dump/<source>__<model file>.json:
  {"model": "<shared|golden>:<path relative to that folder>", "num_trees": n,
   "dumps": [{"format": "text"|"json"|"dot", "with_stats": bool, "fmap": null | "<path>",
              "result": R}, ...],
   "dump_model": [{"format": "text"|"json", "result": {"sha256": <hex of the file's bytes>}}],
   "scores": [{"type": "weight"|..., "fmap": null | "<path>",
               "result": {"pairs": [[name, value], ...]} | {"error": "..."}}]}
R is {"trees": [dump of each tree]} when the dump is small, else
{"sha256": [hex of each tree's UTF-8 dump]} (text dumps also keep "head": the first two trees), or
{"error": "<first line of upstream's error>"} when upstream refuses (a feature map whose length
is not num_feature, a categorical split on a feature whose type is not "c", statistics of
vector-leaf trees). "fmap" paths are "<shared|golden>:<relative path>". get_score values are the
Python floats upstream returns (float32 scores widened to double; JSON keeps them exactly).
The C++ test tests/tst_model_dump.hpp must reproduce every dump byte for byte and every score exactly.

XGBoost 3.2 reads the 3.3/3.4 DART layouts as plain gbtree; neither the dump nor get_score depends
on DART's tree weights, so those files are used as they are.
"""
import glob
import hashlib
import json
import os
import re
import sys

import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("KBOOST_SHARED", os.path.join(REPO, "..", "shared"))
OUT = os.path.join(HERE, "dump")
FULL_LIMIT = 6000  # bytes of a whole dump kept verbatim; larger ones keep hashes + two trees
TYPES = ["weight", "gain", "cover", "total_gain", "total_cover"]

assert xgb.__version__ == "3.2.0", xgb.__version__


def first_line(e):
    """The error's first line without upstream's timestamp, so reruns give the same bytes."""
    line = str(e).strip().split("\n")[0]
    return re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line)


def dump_result(bst, fmt, stats, fmap):
    try:
        trees = bst.get_dump(fmap=fmap or "", with_stats=stats, dump_format=fmt)
    except xgb.core.XGBoostError as e:
        return {"error": first_line(e)}
    if sum(len(t.encode()) for t in trees) <= FULL_LIMIT:
        return {"trees": trees}
    out = {"sha256": [hashlib.sha256(t.encode()).hexdigest() for t in trees]}
    if fmt == "text":  # readable context for a failing hash; the hashes already pin every byte
        out["head"] = trees[:2]
    return out


def dump_model_result(bst, fmt, tmp):
    try:
        bst.dump_model(tmp, dump_format=fmt)
    except xgb.core.XGBoostError as e:
        return {"error": first_line(e)}
    with open(tmp, "rb") as f:
        data = f.read()
    os.remove(tmp)
    return {"sha256": hashlib.sha256(data).hexdigest()}


def score_result(bst, kind, fmap):
    try:
        scores = bst.get_score(fmap=fmap or "", importance_type=kind)
    except xgb.core.XGBoostError as e:
        return {"error": first_line(e)}
    return {"pairs": [[k, v] for k, v in scores.items()]}


def one_model(tag, root, rel, fmaps):
    path = os.path.join(root, rel)
    bst = xgb.Booster(model_file=path)
    dumps = []
    for fmap in [None] + fmaps:
        for fmt in ["text", "json", "dot"]:
            for stats in [False, True]:
                real = None if fmap is None else fmap[1]
                dumps.append({"format": fmt, "with_stats": stats, "fmap": fmap and fmap[0],
                              "result": dump_result(bst, fmt, stats, real)})
    tmp = os.path.join(OUT, ".dump_model.tmp")
    dm = [{"format": f, "result": dump_model_result(bst, f, tmp)} for f in ["text", "json"]]
    scores = []
    for fmap in [None] + fmaps:
        for kind in TYPES:
            scores.append({"type": kind, "fmap": fmap and fmap[0],
                           "result": score_result(bst, kind, None if fmap is None else fmap[1])})
    out = {"model": f"{tag}:{rel}", "num_trees": len(bst.get_dump(dump_format="dot")),
           "dumps": dumps, "dump_model": dm, "scores": scores}
    name = f"{tag}__{os.path.basename(rel)}.json"
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(name, os.path.getsize(os.path.join(OUT, name)))


def main():
    os.makedirs(OUT, exist_ok=True)
    jobs = []
    if os.path.isdir(SHARED):
        for p in sorted(glob.glob(os.path.join(SHARED, "models", "*.json")) +
                        glob.glob(os.path.join(SHARED, "models", "*.ubj"))):
            rel = os.path.relpath(p, SHARED)
            fm = os.path.splitext(p)[0] + ".fmap"
            fmaps = [("shared:" + os.path.relpath(fm, SHARED), fm)] if os.path.exists(fm) else []
            jobs.append(("shared", SHARED, rel, fmaps))
    else:
        print(f"no shared folder at {SHARED}: only tests/golden models", file=sys.stderr)
    for p in sorted(glob.glob(os.path.join(HERE, "models", "*"))):
        rel = os.path.relpath(p, HERE)
        stem = os.path.splitext(os.path.basename(p))[0]
        fm = os.path.join(OUT, stem + ".fmap")
        fmaps = [("golden:" + os.path.relpath(fm, HERE), fm)] if os.path.exists(fm) else []
        jobs.append(("golden", HERE, rel, fmaps))
    for job in jobs:
        try:
            one_model(*job)
        except xgb.core.XGBoostError as e:
            print(f"{job[2]}: upstream 3.2 cannot load it, skipped: {first_line(e)}", file=sys.stderr)


if __name__ == "__main__":
    main()
