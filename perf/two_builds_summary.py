#!/usr/bin/env python3
"""The table of perf/two_builds_gpu.sh: per shape, the first fit and the median of the later fits of
two builds of kboost (tags a and b, named in names.txt), a / b for both, and whether every fit of
both builds wrote the same model bytes (the FNV hash of the model JSON); and each build's
new-process fit (empty CUDA compute cache) with the code its binary carries (cubin and PTX
architectures listed by cuobjdump: a build without an sm_90 cubin is JIT-compiled on Hopper).

Usage: python3 perf/two_builds_summary.py <out dir>   (Markdown on standard output)
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_suite_summary import rows_of as read_rows  # noqa: E402

SHAPES = ["d8_1m", "d6_10m", "lossguide", "softprob"]


def rows_of(path):
    return read_rows(path) if os.path.exists(path) else []


def fits(rows):
    first = [float(r["wall_s"]) for r in rows if r["mode"] == "tuned_first"]
    later = [float(r["wall_s"]) for r in rows if r["mode"] == "tuned"]
    return (first[0] if first else None), (statistics.median(later) if later else None)


def cell(v):
    return f"{v:.2f}" if v is not None else "–"


def ratio(a, b):
    return f"**{a / b:.2f}**" if a is not None and b else "–"


def code_of(path):
    """The distinct architectures of cubins (ELF) and PTX in a cuobjdump listing."""
    if not os.path.exists(path):
        return "no listing"
    elf, ptx = set(), set()
    with open(path, errors="replace") as f:
        for line in f:
            for word in line.replace(".", " ").split():
                if word.startswith("sm_") and "ELF" in line:
                    elf.add(word)
                if word.startswith("sm_") and "PTX" in line:
                    ptx.add(word.replace("sm_", "compute_"))
    return ", ".join(sorted(elf) + sorted(ptx)) or "none listed"


def names_of(out):
    path = os.path.join(out, "names.txt")
    names = open(path).read().splitlines() if os.path.exists(path) else []
    return (names + ["a", "b"][len(names):])[:2]


def main():
    out = sys.argv[1]
    na, nb = names_of(out)
    print(f"| shape | {na} first fit s | {nb} first fit s | a / b | {na} later s | {nb} later s "
          "| a / b | same model bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for s in SHAPES:
        a, b = rows_of(os.path.join(out, f"{s}_a.csv")), rows_of(os.path.join(out, f"{s}_b.csv"))
        if not a and not b:
            continue
        (a1, al), (b1, bl) = fits(a), fits(b)
        hashes = {r["model_fnv"] for r in a + b}
        same = "yes" if len(hashes) == 1 and a and b else "NO"
        print(f"| {s} | {cell(a1)} | {cell(b1)} | {ratio(a1, b1)} | {cell(al)} | {cell(bl)} | {ratio(al, bl)} | {same} |")
    print()
    print("| build | new-process fit s (1M x 28, 500 rounds, depth 8, empty CUDA cache) | code in the binary |")
    print("|---|---|---|")
    for t, name in (("a", na), ("b", nb)):
        first, _ = fits(rows_of(os.path.join(out, f"first_{t}.csv")))
        print(f"| {name} | {cell(first)} | {code_of(os.path.join(out, f'code_{t}.txt'))} |")


if __name__ == "__main__":
    main()
