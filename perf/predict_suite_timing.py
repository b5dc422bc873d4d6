"""Timing rule of the CPU inference suite, shared by its Python peers (perf/predict_suite_cpu.py:
xgboost, TL2cgen; perf/predict_suite_onedal.py: oneDAL) and mirrored by perf/bench_predict.cpp
(kboost), so that every tool times the same rows the same way:

- call c of a batch of n rows (c = 0 is the warm-up) reads rows [off, off + n) of the 1M-row
  input, off = ((seed + c + 1) * 2654435761 + n * 40503) mod (total - n + 1);
- the warm-up's time t sets the timed calls 1..trials:
  trials = clamp(floor(budget_ms / t), min_trials, max_trials);
- p50 / p99 are order statistics of the timed calls: sorted[min(k - 1, floor(q * (k - 1) + 0.5))];
- call 0's predictions are kept for the checks against xgboost;
- one untimed call on the first row precedes a tool's first batch (first-call set-up costs would
  otherwise inflate that batch's warm-up and cut its trials).
Needs numpy only (it is imported by both the main and the oneDAL venv).
"""
import collections
import time

import numpy as np

Rule = collections.namedtuple("Rule", "budget_ms min_trials max_trials seed")


def offset(seed, call, rows, total):
    """First row of call `call` for a batch of `rows` out of `total`."""
    return ((seed + call + 1) * 2654435761 + rows * 40503) % (total - rows + 1)


def trials_for(warmup_ms, rule):
    return min(rule.max_trials, max(rule.min_trials, int(rule.budget_ms // max(warmup_ms, 1e-6))))


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]


def load_rows(path, n_features):
    """The suite's input: a raw little-endian float32 file of rows x n_features."""
    return np.fromfile(path, dtype="<f4").reshape(-1, n_features)


def time_calls(predict, X, rows, rule):
    """Time predict(X[off:off + rows]) by the rule; returns trials, warm-up, p50, p99 (ms) and call 0's output."""
    times, trials, call = [], 0, 0
    while call <= trials:
        off = offset(rule.seed, call, rows, len(X))
        Xc = X[off:off + rows]
        t0 = time.perf_counter()
        out = predict(Xc)
        ms = (time.perf_counter() - t0) * 1e3
        if call == 0:
            first, warmup, trials = out, ms, trials_for(ms, rule)
        else:
            times.append(ms)
        call += 1
    return {"trials": trials, "warmup_ms": warmup, "p50_ms": pct(times, 0.5), "p99_ms": pct(times, 0.99),
            "out": first}


def sweep(predict, X, batches, rule):
    """Yield (rows, time_calls result) for each batch, after one untimed priming call."""
    predict(X[:1])
    for rows in batches:
        yield rows, time_calls(predict, X, rows, rule)
