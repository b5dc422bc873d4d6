"""Reader speed: kboost's read_dataset (perf/bench_read) beside pandas.read_csv, sklearn's
load_svmlight_file and xgboost.DMatrix("file?format=...") on the same files (best of N, seconds).

Run: .venv/bin/python perf/bench_read.py BUILD_DIR [../shared/data]
Also builds a larger CSV (binary.train tiled 20x: 140,000 rows) in a temp dir for a less noisy number.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import pandas as pd
from sklearn.datasets import load_svmlight_file

warnings.filterwarnings("ignore")
build = sys.argv[1]
data = sys.argv[2] if len(sys.argv) > 2 else "../shared/data"
R = 5


def best(f):
    ts = []
    for _ in range(R):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def kboost(path, *args):
    out = subprocess.run([f"{build}/perf/bench_read", path, str(R), *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["best_s"]


def xgb(uri):
    try:
        import xgboost
        return best(lambda: xgboost.DMatrix(uri))
    except Exception as e:  # noqa: BLE001
        return float("nan")


tmp = tempfile.mkdtemp()
big = os.path.join(tmp, "binary_x20.tsv")
with open(f"{data}/lightgbm_binary/binary.train") as src, open(big, "w") as dst:
    text = src.read()
    for _ in range(20):
        dst.write(text)

cases = [
    ("adult (csv, strings)", f"{data}/adult/adult.data", ["--label-column", "-1"],
     lambda p: pd.read_csv(p, header=None, skipinitialspace=True, na_values="?"), None),
    ("california_housing (csv)", f"{data}/california_housing/housing.csv", ["--label-column", "median_house_value"],
     lambda p: pd.read_csv(p), None),
    ("binary.train x20 (tsv)", big, ["--label-column", "0"], lambda p: pd.read_csv(p, sep="\t", header=None),
     big + "?format=csv&label_column=0"),
    ("agaricus.train (libsvm)", f"{data}/agaricus/agaricus.txt.train", [],
     lambda p: load_svmlight_file(p, zero_based=True), f"{data}/agaricus/agaricus.txt.train?format=libsvm"),
    ("rank.train (libsvm)", f"{data}/lightgbm_lambdarank/rank.train", [],
     lambda p: load_svmlight_file(p, zero_based=True), f"{data}/lightgbm_lambdarank/rank.train?format=libsvm"),
]
print(f"{'file':28s} {'MB':>6s} {'kboost s':>9s} {'py ref s':>9s} {'xgboost s':>9s}")
for name, path, args, ref, uri in cases:
    mb = os.path.getsize(path) / 1e6
    k = kboost(path, *args)
    p = best(lambda: ref(path))
    x = xgb(uri) if uri else float("nan")
    print(f"{name:28s} {mb:6.2f} {k:9.4f} {p:9.4f} {x:9.4f}")
