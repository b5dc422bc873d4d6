#!/usr/bin/env python3
"""Writes a LibSVM file's rows as a dense CSV for the examples: `width` columns (LibSVM indices used
as column ids, as kboost reads them), "nan" where a row has no entry (missing), no label, no header.

usage: libsvm_to_csv.py <in.libsvm> <out.csv> [width=127]
"""
import sys


def main(argv):
    width = int(argv[3]) if len(argv) > 3 else 127
    rows = []
    for line in open(argv[1]):
        cells = ["nan"] * width
        for tok in line.split()[1:]:
            i, v = tok.split(":")
            cells[int(i)] = v
        rows.append(",".join(cells))
    open(argv[2], "w").write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main(sys.argv)
