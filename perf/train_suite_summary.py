#!/usr/bin/env python3
"""The table of perf/train_suite_gpu.sh: for each shape (a kboost_<tag>.csv of perf/bench_train_gpu
and an upstream_<tag>.csv of perf/upstream_gpu/xgb_train_gpu in one folder), the first fit and the
median of the later fits of each tool, kboost / upstream for both, and each tool's held-out metric
(auc for binary:logistic, mlogloss for multi:softprob; a lower mlogloss is better).

Usage: python3 perf/train_suite_summary.py <out dir>   (Markdown on standard output)
"""
import csv
import glob
import os
import statistics
import sys


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def shape_row(out, tag):
    kb = rows_of(os.path.join(out, f"kboost_{tag}.csv"))
    up_path = os.path.join(out, f"upstream_{tag}.csv")
    up = rows_of(up_path) if os.path.exists(up_path) else []
    kb_first = [float(r["wall_s"]) for r in kb if r["mode"] == "tuned_first"]
    kb_later = [float(r["wall_s"]) for r in kb if r["mode"] == "tuned"]
    same = len({r["model_fnv"] for r in kb}) == 1
    up_first = [float(r["seconds"]) for r in up if r["fit"] == "0"]
    up_later = [float(r["seconds"]) for r in up if r["fit"] != "0"]

    def cell(v):
        return f"{v:.2f}" if v is not None else "–"

    def ratio(a, b):
        return f"**{a / b:.2f}**" if a is not None and b else "–"

    k1 = kb_first[0] if kb_first else None
    kl = statistics.median(kb_later) if kb_later else None
    u1 = up_first[0] if up_first else None
    ul = statistics.median(up_later) if up_later else None
    km = kb[0]["test_metric"] if kb and "test_metric" in kb[0] else "–"
    um = up[0].get("test_metric", "–") if up else "–"
    return (f"| {tag} | {cell(k1)} | {cell(kl)} | {cell(u1)} | {cell(ul)} | {ratio(k1, u1)} | {ratio(kl, ul)} "
            f"| {km} | {um} | {'yes' if same else 'NO'} |")


def main():
    out = sys.argv[1]
    tags = sorted(os.path.basename(p)[len("kboost_"):-len(".csv")] for p in glob.glob(os.path.join(out, "kboost_*.csv")))
    print("| shape | kboost first fit s | kboost later s | upstream first fit s | upstream later s "
          "| first fit kboost/upstream | later kboost/upstream | kboost held-out | upstream held-out "
          "| kboost models identical |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for tag in tags:
        print(shape_row(out, tag))
    first = os.path.join(out, "first_process.csv")
    if os.path.exists(first):
        kb = rows_of(first)
        t = {r["mode"]: float(r["wall_s"]) for r in kb}
        print()
        print(f"New process, 1M x 28 x 500 rounds depth 8, no warm-up, empty CUDA compute cache: first fit "
              f"{t.get('tuned_first', float('nan')):.2f} s, the next fit in that process {t.get('tuned', float('nan')):.2f} s.")
    print()
    print("Held-out metric: auc for binary:logistic (higher is better), mlogloss for multi:softprob "
          "(lower is better). kboost's first fit includes the histogram tuner; upstream's first fit "
          "builds its sketch and compressed matrix, later fits reuse them.")


if __name__ == "__main__":
    main()
