#!/usr/bin/env python3
"""The table of perf/kokkos_versions_gpu.sh: per shape, the first fit and the median of the later
fits of kboost built against Kokkos 4.x (k4) and 3.4.01 (k3), 4.x / 3.4.01 for both, and whether
every fit of both builds wrote the same model bytes (the FNV hash of the model JSON); and each
build's new-process fit (empty CUDA compute cache) with the code its binary carries (cubin and
PTX architectures listed by cuobjdump: a build without an sm_90 cubin is JIT-compiled on Hopper).

Usage: python3 perf/kokkos_versions_summary.py <out dir>   (Markdown on standard output)
"""
import csv
import os
import statistics
import sys

SHAPES = ["d8_1m", "d6_10m", "lossguide", "softprob"]


def rows_of(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


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


def main():
    out = sys.argv[1]
    print("| shape | 4.x first fit s | 3.4.01 first fit s | 4.x / 3.4.01 | 4.x later s | 3.4.01 later s "
          "| 4.x / 3.4.01 | same model bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for s in SHAPES:
        k4, k3 = rows_of(os.path.join(out, f"{s}_k4.csv")), rows_of(os.path.join(out, f"{s}_k3.csv"))
        if not k4 and not k3:
            continue
        (a1, al), (b1, bl) = fits(k4), fits(k3)
        hashes = {r["model_fnv"] for r in k4 + k3}
        same = "yes" if len(hashes) == 1 and k4 and k3 else "NO"
        print(f"| {s} | {cell(a1)} | {cell(b1)} | {ratio(a1, b1)} | {cell(al)} | {cell(bl)} | {ratio(al, bl)} | {same} |")
    print()
    print("| build | new-process fit s (1M x 28, 500 rounds, depth 8, empty CUDA cache) | code in the binary |")
    print("|---|---|---|")
    for t, name in (("k4", "Kokkos 4.x"), ("k3", "Kokkos 3.4.01")):
        first, _ = fits(rows_of(os.path.join(out, f"first_{t}.csv")))
        print(f"| {name} | {cell(first)} | {code_of(os.path.join(out, f'code_{t}.txt'))} |")


if __name__ == "__main__":
    main()
