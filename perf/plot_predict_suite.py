#!/usr/bin/env python3
"""Plots and tables of inference-suite CSVs (perf/predict_suite_cpu.py's predict_cpu.csv, the GPU
suite's CSV: same columns, machine "h200", tools kboost, xgboost_gpu, kboost_device_forest).

Models named softprob* are one family told apart by trees. For each machine in the CSVs, writes to --out-dir:
  latency_<machine>.png     p50 vs batch (log-log), one panel per selected ensemble (--panels), one
                            line per tool;
  throughput_<machine>.png  rows/s at batch 10,000 vs trees of the softprob ensembles, per tool;
and prints (and writes to summary.md) markdown: batch x tool p50 of the 999-tree softprob model with
kboost/peer ratios (< 1: kboost faster), and the batch ranges where kboost beats each peer.

  .perf-venv/main/bin/python perf/plot_predict_suite.py A.csv [B.csv ...] [--out-dir DIR]
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"kboost": "tab:blue", "xgboost": "tab:orange", "tl2cgen": "tab:green", "onedal": "tab:red",
          "xgboost_gpu": "tab:purple", "kboost_device_forest": "tab:cyan", "nvforest": "tab:olive",
          "nvforest_opt": "tab:brown"}
REFERENCE = "kboost"


def tool_order(tool):
    """Known tools in COLORS' order (kboost first), then the others by name."""
    names = list(COLORS)
    return (names.index(tool), "") if tool in names else (len(names), tool)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out-dir", help="default: the first CSV's folder")
    ap.add_argument("--panels", default="softprob:99,softprob:495,softprob:999,deep_lossguide,d8_500",
                    help="MODEL or MODEL:TREES per latency panel")
    return ap.parse_args(argv)


def family(model):
    """"softprob" for the sliced ensembles however a CSV names them ("softprob", "softprob_099")."""
    return "softprob" if model.startswith("softprob") else model


def read(paths):
    """{machine: {(model, trees): {tool: {batch: p50_ms}}}}"""
    data = {}
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                key = (family(r["model"]), int(r["trees"]))
                data.setdefault(r["machine"], {}).setdefault(key, {}).setdefault(r["tool"], {})[int(r["batch"])] = \
                    float(r["p50_ms"])
    return data


def panel_keys(models, panels):
    """The (model, trees) keys of `models` that the --panels spec selects, in its order."""
    keys = []
    for spec in panels.split(","):
        name, _, trees = spec.partition(":")
        keys += sorted(k for k in models if k[0] == name and (not trees or k[1] == int(trees)))
    return keys


def plot_latency(machine, models, panels, out_dir):
    keys = panel_keys(models, panels)
    if not keys:
        return
    cols = min(3, len(keys))
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.8 * rows), squeeze=False)
    for ax in axes.flat[len(keys):]:
        ax.axis("off")
    for ax, key in zip(axes.flat, keys):
        for tool, per_batch in sorted(models[key].items(), key=lambda kv: tool_order(kv[0])):
            b = sorted(per_batch)
            ax.loglog(b, [per_batch[x] for x in b], "o-", ms=3, label=tool, color=COLORS.get(tool))
        ax.set_title("%s, %d trees" % key)
        ax.set_xlabel("batch (rows)")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("p50 latency (ms)")
    axes[0][0].legend()
    fig.suptitle("Prediction latency, %s" % machine)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "latency_%s.png" % machine), dpi=110)
    plt.close(fig)


def plot_throughput(machine, models, out_dir, batch=10_000):
    keys = sorted(k for k in models if k[0] == "softprob")
    tools = sorted({t for k in keys for t, pb in models[k].items() if batch in pb}, key=tool_order)
    if not tools:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for tool in tools:
        pts = [(k[1], batch / models[k][tool][batch] * 1e3) for k in keys if batch in models[k].get(tool, {})]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=tool, color=COLORS.get(tool))
    ax.set_yscale("log")
    ax.set_xlabel("trees (softprob ensembles)")
    ax.set_ylabel("rows / s at batch %d" % batch)
    ax.set_title("Throughput vs trees, %s" % machine)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "throughput_%s.png" % machine), dpi=110)
    plt.close(fig)


def table_999(machine, models):
    """Markdown: batch x tool p50 (ms) of the 999-tree softprob model, kboost/peer ratios."""
    tools = models.get(("softprob", 999))
    if not tools or REFERENCE not in tools:
        return []
    peers = sorted((t for t in tools if t != REFERENCE), key=tool_order)
    head = ["batch", REFERENCE] + peers + ["%s/%s" % (REFERENCE, p) for p in peers]
    lines = ["### %s: softprob, 999 trees, p50 ms" % machine, "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for b in sorted(tools[REFERENCE]):
        k = tools[REFERENCE][b]
        cells = ["{:,}".format(b), "%.4g" % k] + ["%.4g" % tools[p][b] if b in tools[p] else "" for p in peers]
        cells += ["%.2f" % (k / tools[p][b]) if b in tools[p] else "" for p in peers]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def wins(ref, peer):
    """Batch ranges (as text) where ref's p50 is below peer's, over the batches both have."""
    batches = sorted(set(ref) & set(peer))
    runs, start, prev = [], None, None
    for b in batches:
        if ref[b] < peer[b]:
            start = b if start is None else start
        elif start is not None:
            runs.append((start, prev))
            start = None
        prev = b
    if start is not None:
        runs.append((start, prev))
    if not runs:
        return "none"
    if runs == [(batches[0], batches[-1])]:
        return "all"
    return ", ".join("{:,}".format(s) if s == e else "{:,}–{:,}".format(s, e) for s, e in runs)


def table_crossovers(machine, models):
    """Markdown: per ensemble and peer, the batch ranges where kboost is faster (p50)."""
    peers = sorted({t for tools in models.values() for t in tools if t != REFERENCE}, key=tool_order)
    lines = ["### %s: batches where %s's p50 beats each peer" % (machine, REFERENCE), "",
             "| model | trees | " + " | ".join(peers) + " |", "|" + "---|" * (len(peers) + 2)]
    for key in sorted(models):
        tools = models[key]
        if REFERENCE not in tools:
            continue
        cells = [wins(tools[REFERENCE], tools[p]) if p in tools else "" for p in peers]
        lines.append("| %s | %d | " % key + " | ".join(cells) + " |")
    return lines + [""]


def main(argv=None):
    a = parse_args(argv)
    out_dir = a.out_dir or os.path.dirname(os.path.abspath(a.csv[0]))
    os.makedirs(out_dir, exist_ok=True)
    md = []
    for machine, models in sorted(read(a.csv).items()):
        plot_latency(machine, models, a.panels, out_dir)
        plot_throughput(machine, models, out_dir)
        md += table_999(machine, models) + table_crossovers(machine, models)
    text = "\n".join(md)
    print(text)
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
