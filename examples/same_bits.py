#!/usr/bin/env python3
"""Checks that two prediction CSVs hold the same float32 bits, row by row.

usage: same_bits.py <got.csv> <reference.csv> <what>
Lines starting with a letter or '#' (headers) are skipped; cells are parsed as decimal text with at
least 9 significant digits, which round-trips float32 exactly. Exit 1 naming `what` on a difference.
"""
import struct
import sys


def load(path):
    rows = []
    for line in open(path):
        line = line.strip()
        if not line or line[0].isalpha() or line[0] == "#":
            continue
        rows.append([struct.pack("<f", float(c)) for c in line.split(",")])
    return rows


def main(argv):
    got, want, what = load(argv[1]), load(argv[2]), argv[3]
    if len(got) != len(want):
        sys.exit(f"[examples] {what}: {len(got)} rows, the reference {len(want)}")
    bad = sum(a != b for a, b in zip(got, want))
    if bad:
        sys.exit(f"[examples] {what}: {bad} of {len(got)} rows differ from the reference")
    print(f"[examples] {what}: {len(got)} rows bit-identical to kboost predict")


if __name__ == "__main__":
    main(sys.argv)
