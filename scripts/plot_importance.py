#!/usr/bin/env python3
"""Bar chart (PNG) of a `kboost importance` CSV, drawn as upstream xgboost's plot_importance draws
get_score: features sorted by score, largest on top, the value beside each bar.

  kboost importance --model model.json --type gain --out importance.csv
  python3 scripts/plot_importance.py importance.csv --out importance.png [--max-features 20]

Needs matplotlib (`scripts/bootstrap --python`'s .venv has it, or pip install matplotlib). The CSV is `feature,<type>` with one row per feature
that has at least one split; the header's second column names the importance type (axis label).
Errors: a missing file, a header other than `feature,<type>`, a non-numeric score or an empty table
stop the script with the file and line named.
"""
import argparse
import csv
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("plot_importance.py: needs matplotlib, which this Python lacks: run it with the venv that "
             "`scripts/bootstrap --python` makes (.venv/bin/python scripts/plot_importance.py ...), or "
             "`python3 -m pip install matplotlib`")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TYPES = ("weight", "gain", "cover", "total_gain", "total_cover")


def read_scores(path):
    """[(feature, score)] and the importance type from a `kboost importance` CSV."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or len(rows[0]) != 2 or rows[0][0] != "feature" or rows[0][1] not in TYPES:
        sys.exit(f"{path}:1: expected the header 'feature,<{'|'.join(TYPES)}>' of kboost importance")
    scores = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            sys.exit(f"{path}:{line}: expected 2 fields (feature, score), found {len(row)}")
        try:
            scores.append((row[0], float(row[1])))
        except ValueError:
            sys.exit(f"{path}:{line}: field 2 (score): '{row[1]}' is not a number")
    if not scores:
        sys.exit(f"{path}: no feature has a split (every tree is a single leaf): nothing to plot")
    return scores, rows[0][1]


def plot(scores, importance_type, out, max_features, title):
    """Horizontal bars, ascending from the bottom, at most max_features (the largest) of them."""
    scores = sorted(scores, key=lambda s: s[1])
    if max_features:
        scores = scores[-max_features:]
    labels, values = zip(*scores)
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.3 * len(values) + 1)))
    ax.barh(range(len(values)), values, align="center", height=0.6)
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:.6g}", va="center")
    ax.set_yticks(range(len(values)))
    ax.set_yticklabels(labels)
    ax.set_xlim(0, max(values) * 1.15 if max(values) > 0 else 1)
    ax.set_xlabel(f"importance ({importance_type})")
    ax.set_ylabel("features")
    ax.set_title(title)
    ax.grid(True, axis="x", alpha=0.4)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="CSV written by `kboost importance --out`")
    ap.add_argument("--out", required=True, help="PNG file to write")
    ap.add_argument("--max-features", type=int, default=0, help="plot only the N largest (0: all)")
    ap.add_argument("--title", default="Feature importance")
    args = ap.parse_args()
    if args.max_features < 0:
        sys.exit("--max-features must be >= 0")
    scores, importance_type = read_scores(args.csv)
    plot(scores, importance_type, args.out, args.max_features, args.title)
    print(f"{args.out}: {min(len(scores), args.max_features or len(scores))} features ({importance_type})")


if __name__ == "__main__":
    main()
