#!/usr/bin/env python3
"""CPU inference suite: kboost (OpenMP) vs XGBoost 3.2 inplace_predict, TL2cgen and oneDAL on the
same models, rows and thread count, in one run. Run it through perf/predict_suite_cpu.sh, which
makes the venvs and builds bench_predict; this script needs the main venv (xgboost 3.2, treelite,
tl2cgen, matplotlib) and --onedal-python (a venv with xgboost 2.1.4, scikit-learn < 1.6, daal4py).

  perf/predict_suite_cpu.sh [--out perf/results/NAME] [--threads 2] [--models a,b] [--tools a,b] ...

Models (perf/make_predict_suite_models.py, built into --work when missing): softprob_<T> (T = 99,
198, ..., 891, 999 trees of one multi:softprob model, depth 6, 9 features), deep_lossguide (900
trees, depth 12 lossguide, 4.55 M nodes, 28 features) and d8_500 (500 trees, depth 8, binary).
Scope, with SMALL = 15 geometric batch sizes from 1 to 10,000 (np.geomspace rounded), chosen so that
the sweep takes ~11-13 min on an idle 2-core box with 2 threads (TL2cgen and oneDAL set-up aside):
  softprob_<T>     SMALL + 100,000; softprob_999 also 1,000,000 (one 1M-row call: 17-70 s per peer)
  deep_lossguide   1, 10, 100, 1,000, 10,000, no TL2cgen (4.55 M nodes of generated C); 100,000
                   would add ~3 min (one call: 14-46 s per peer) and throughput has saturated by 10,000
  d8_500           1, 10, 100, 1,000, 10,000, 100,000 (1,000,000 would add ~3 min for the same reason)
Timing (perf/predict_suite_timing.py, mirrored by perf/bench_predict.cpp): per point one warm-up
call, then clamp(floor(--budget-ms / warm-up), --min-trials, --max-trials) timed calls (defaults
500 ms, 1, 50: 50 calls up to 10 ms, one from 500 ms on), each on other seeded rows; p50 and p99.
Each tool's time is its whole call from a float32 numpy array / host View: kboost = H2D copy +
predict + fence + D2H (parts in the h2d/kernel/d2h columns), xgboost = inplace_predict, TL2cgen =
DMatrix + predict, oneDAL = predict_proba (classes) or predict, nvForest (CPU mode, single precision;
tools nvforest = default layout, nvforest_opt = the layout and chunk its optimize() picks per batch,
in --nvforest-python, a venv with nvforest-cu13) = predict_proba (classes) or predict.
Checks on call 0's rows: kboost must be bit-identical to xgboost ("bits"); the others report
"maxabs=<v>" (or "bits"). oneDAL reads the model re-saved with a plain base_score by xgboost 2.1.4,
whose predictions are compared with 3.2's (printed; must be within 1e-6).
Cached in --work (delete to rebuild): models and inputs (~8 min to make), TL2cgen libraries (gcc
-O3, one job per core: ~10-15 min for all on 2 cores) and oneDAL's converted models (~2 min, most
of it deep_lossguide), so the first run is ~25 min longer.
Output in --out: predict_cpu.csv (machine,tool,model,trees,batch,trials,p50_ms,p99_ms,h2d_p50_ms,
kernel_p50_ms,d2h_p50_ms,check), then perf/plot_predict_suite.py's PNGs and summary.md.
"""
import argparse
import csv
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np
import tl2cgen
import treelite
import xgboost as xgb

import make_predict_suite_models
import plot_predict_suite
import predict_suite_timing as timing

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SMALL = [int(b) for b in np.unique(np.round(np.geomspace(1, 1e4, 15)))]
TOOLS = ["kboost", "xgboost", "tl2cgen", "onedal", "nvforest"]
COLUMNS = ["machine", "tool", "model", "trees", "batch", "trials", "p50_ms", "p99_ms", "h2d_p50_ms", "kernel_p50_ms",
           "d2h_p50_ms", "check"]
NO_TL2CGEN = {"deep_lossguide"}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "cpu-%s-predict" % datetime.date.today()))
    ap.add_argument("--work", default="/tmp/kboost_predict_suite", help="models, inputs, TL2cgen libraries")
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="host build with perf/bench_predict")
    ap.add_argument("--onedal-python", default=os.path.join(REPO, ".perf-venv", "onedal", "bin", "python"))
    ap.add_argument("--nvforest-python", default=os.path.join(REPO, ".perf-venv", "nvforest", "bin", "python"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--models", help="comma-separated subset of the models (default: all)")
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--batches", help="comma-separated batch sizes for every model (default: the scope above)")
    ap.add_argument("--budget-ms", type=float, default=500)
    ap.add_argument("--min-trials", type=int, default=1)
    ap.add_argument("--max-trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def scope(name):
    if name == "softprob_999":
        return SMALL + [100_000, 1_000_000]
    if name.startswith("softprob_"):
        return SMALL + [100_000]
    if name == "deep_lossguide":
        return [1, 10, 100, 1_000, 10_000]
    return [1, 10, 100, 1_000, 10_000, 100_000]


def run(cmd, env):
    """Run cmd; its stdout, or its stderr printed and an error."""
    res = subprocess.run(cmd, env=dict(os.environ, **env), capture_output=True, text=True)
    if res.returncode:
        sys.exit("%s failed (%d):\n%s" % (cmd[0], res.returncode, res.stderr))
    return res


def run_kboost(e, a, batches, rule):
    out_prefix = os.path.join(a.work, "kb_%s_" % e["name"])
    cmd = [os.path.join(a.build, "perf", "bench_predict"), os.path.join(a.work, e["file"]), e["x"],
           str(e["features"]), ",".join(map(str, batches)), str(rule.max_trials), out_prefix,
           "--budget-ms", str(rule.budget_ms), "--min-trials", str(rule.min_trials), "--seed", str(rule.seed)]
    res = run(cmd, {"OMP_NUM_THREADS": str(a.threads), "OMP_PROC_BIND": "false"})
    print("  kboost: %s" % res.stderr.strip().splitlines()[-1])
    total = os.path.getsize(e["x"]) // (4 * e["features"])
    rows = {}
    for r in map(json.loads, res.stdout.split("\n")[:-1]):
        assert r["check_offset"] == timing.offset(rule.seed, 0, r["rows"], total), "bench_predict's rows differ"
        out = np.fromfile(out_prefix + "%d.f32" % r["rows"], dtype="<f4")
        rows[r["rows"]] = {"trials": r["calls"], "p50_ms": r["e2e_p50_ms"], "p99_ms": r["e2e_p99_ms"],
                           "h2d_p50_ms": r["h2d_p50_ms"], "kernel_p50_ms": r["kernel_p50_ms"],
                           "d2h_p50_ms": r["d2h_p50_ms"], "out": out}
    return rows


def run_xgboost(e, a, X, batches, rule):
    booster = xgb.Booster(model_file=os.path.join(a.work, e["file"]))
    booster.set_param({"nthread": a.threads})
    return dict(timing.sweep(booster.inplace_predict, X, batches, rule))


def tl2cgen_lib(e, a):
    """The model's TL2cgen library (gcc -O3), compiled into WORK/tl2cgen once."""
    lib = os.path.join(a.work, "tl2cgen", e["name"] + ".so")
    if not os.path.exists(lib):
        os.makedirs(os.path.dirname(lib), exist_ok=True)
        t0 = time.time()
        model = treelite.frontend.load_xgboost_model(os.path.join(a.work, e["file"]))
        units = max(4, e["nodes"] // 8000)
        tl2cgen.export_lib(model, toolchain="gcc", libpath=lib, params={"parallel_comp": units},
                           nthread=os.cpu_count())
        print("  tl2cgen: compiled %s (%d units) in %.0f s" % (lib, units, time.time() - t0))
    return lib


def run_tl2cgen(e, a, X, batches, rule):
    predictor = tl2cgen.Predictor(tl2cgen_lib(e, a), nthread=a.threads)
    return dict(timing.sweep(lambda Xc: predictor.predict(tl2cgen.DMatrix(Xc)), X, batches, rule))


def run_onedal(e, a, batches, rule):
    spec = {"work": a.work, "name": e["name"], "objective": e["objective"], "x": e["x"], "features": e["features"],
            "batches": batches, "threads": a.threads, "rule": list(rule)}
    res = run([a.onedal_python, os.path.join(HERE, "predict_suite_onedal.py"), json.dumps(spec)],
              {"OMP_NUM_THREADS": str(a.threads)})
    lines = [json.loads(line) for line in res.stdout.split("\n")[:-1]]
    if lines[0]["convert_s"]:
        print("  onedal: daal4py.mb.convert_model in %.1f s (pickled for later runs)" % lines[0]["convert_s"])
    rows = {}
    for r in lines[1:]:
        r["out"] = np.load(os.path.join(a.work, "onedal_%s_%d.npy" % (e["name"], r["rows"])))
        rows[r["rows"]] = r
    return rows


def run_nvforest(e, a, batches, rule):
    """nvForest's CPU mode in its venv (perf/predict_suite_nvforest.py cpu): tools nvforest (default
    layout) and nvforest_opt (optimize()d per batch), {tool: {batch: result}}."""
    spec = {"work": a.work, "name": e["name"], "file": e["file"], "objective": e["objective"], "x": e["x"],
            "features": e["features"], "batches": batches, "rule": list(rule)}
    res = run([a.nvforest_python, os.path.join(HERE, "predict_suite_nvforest.py"), "cpu", json.dumps(spec)],
              {"OMP_NUM_THREADS": str(a.threads), "PYTHONWARNINGS": "ignore"})
    rows = {}
    for r in map(json.loads, res.stdout.split("\n")[:-1]):
        r["out"] = np.load(os.path.join(a.work, "%s_%s_%d.npy" % (r["tool"], e["name"], r["rows"])))
        rows.setdefault(r["tool"], {})[r["rows"]] = r
    for r in rows.get("nvforest_opt", {}).values():
        print("  nvforest_opt: batch %d: %s" % (r["rows"], r["config"]))
    return rows


def check(out, ref):
    """"bits" when out has ref's dtype and bits, else the max abs difference."""
    out = np.asarray(out).reshape(ref.shape)
    if out.dtype == ref.dtype and np.array_equal(out.view(np.uint32), ref.view(np.uint32)):
        return "bits"
    return "maxabs=%.3g" % np.max(np.abs(out.astype(np.float64) - ref.astype(np.float64)))


def check_xgb214(e, a, X):
    """Max abs difference of xgboost 2.1.4 (oneDAL's loader) vs 3.2 on rows [0, 10000)."""
    booster = xgb.Booster(model_file=os.path.join(a.work, e["file"]))
    booster.set_param({"nthread": a.threads})
    diff = check(np.load(os.path.join(a.work, "xgb214_%s.npy" % e["name"])), booster.inplace_predict(X[:10000]))
    print("  onedal: xgboost 2.1.4 reading %s.plain.json vs 3.2: %s" % (e["name"], diff))
    if diff != "bits" and float(diff.split("=")[1]) > 1e-6:
        print("  WARNING: the model oneDAL converts differs from the timed one")


def run_model(e, a, tools, batches, rule):
    """All tools on one model: {tool: {batch: result}}."""
    X = timing.load_rows(e["x"], e["features"])
    runners = {"kboost": lambda: run_kboost(e, a, batches, rule),
               "xgboost": lambda: run_xgboost(e, a, X, batches, rule),
               "tl2cgen": lambda: run_tl2cgen(e, a, X, batches, rule),
               "onedal": lambda: run_onedal(e, a, batches, rule),
               "nvforest": lambda: run_nvforest(e, a, batches, rule)}
    res = {}
    for tool in tools:
        if tool == "tl2cgen" and e["name"] in NO_TL2CGEN:
            print("  tl2cgen: skipped (%d nodes of generated C would take hours to compile)" % e["nodes"])
            continue
        t0 = time.time()
        if tool == "nvforest":
            res.update(runners[tool]())
        else:
            res[tool] = runners[tool]()
        if tool == "onedal":
            check_xgb214(e, a, X)
        print("  %s: %d batches in %.0f s" % (tool, len(batches), time.time() - t0), flush=True)
    return res


def csv_rows(e, a, res):
    """The CSV rows of one model; checks against xgboost's call-0 output for the same rows."""
    ref = res.get("xgboost", {})
    for tool, per_batch in res.items():
        for batch, r in per_batch.items():
            ms = {k: "%.6g" % r[k] if k in r else "" for k in COLUMNS if k.endswith("_ms")}
            yield dict(ms, machine="cpu-%dt" % a.threads, tool=tool, model=plot_predict_suite.family(e["name"]),
                       trees=e["trees"], batch=batch, trials=r["trials"],
                       check=check(r["out"], ref[batch]["out"]) if batch in ref else "")


def print_model(e, rows):
    """One line per batch: p50 of each tool and its check."""
    by_batch = {}
    for r in rows:
        by_batch.setdefault(r["batch"], []).append("%s %s ms (%s)" % (r["tool"], r["p50_ms"], r["check"]))
    for batch, cells in by_batch.items():
        print("  %-15s %8d | %s" % (e["name"], batch, " | ".join(cells)))


def report_mismatches(path):
    """Print every kboost point whose output is not bit-identical to xgboost's."""
    with open(path) as f:
        bad = [r for r in csv.DictReader(f) if r["tool"] == "kboost" and r["check"] not in ("bits", "")]
    for r in bad:
        print("BIT MISMATCH kboost vs xgboost: %s %s trees, batch %s: %s" % (r["model"], r["trees"], r["batch"],
                                                                             r["check"]))
    print("kboost vs xgboost: %s" % ("%d points differ" % len(bad) if bad else "bit-identical at every point"))


def main():
    a = parse_args()
    t_start = time.time()
    entries = make_predict_suite_models.build_all(a.work)
    names = a.models.split(",") if a.models else [e["name"] for e in entries]
    unknown = set(names) - {e["name"] for e in entries}
    if unknown:
        sys.exit("unknown models %s; the suite's: %s" % (sorted(unknown), ", ".join(e["name"] for e in entries)))
    tools = [t for t in TOOLS if t in a.tools.split(",")]
    rule = timing.Rule(a.budget_ms, a.min_trials, a.max_trials, a.seed)
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "predict_cpu.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        for e in (e for e in entries if e["name"] in names):
            e["x"] = os.path.join(a.work, "X%d.f32" % e["features"])
            batches = [int(b) for b in a.batches.split(",")] if a.batches else scope(e["name"])
            print("%s: %d trees, %d nodes, %d features, batches %s" % (e["name"], e["trees"], e["nodes"],
                                                                      e["features"], batches), flush=True)
            rows = list(csv_rows(e, a, run_model(e, a, tools, batches, rule)))
            w.writerows(rows)
            f.flush()
            print_model(e, rows)
    print("wrote %s in %.0f s" % (path, time.time() - t_start))
    report_mismatches(path)
    plot_predict_suite.main([path, "--out-dir", a.out])


if __name__ == "__main__":
    sys.exit(main())
