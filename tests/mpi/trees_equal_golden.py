#!/usr/bin/env python3
"""Exit 1 unless every tree of a kboost model file equals a tests/golden/upstream_gpu case's.

    trees_equal_golden.py <model.json> <case.json>

Compares, node for node, what tests/tst_upstream_gpu.hpp compares: children, split feature,
default direction, split type, and the float32 bits of split condition / leaf value, base weight,
loss_change and sum_hessian (kboost writes each float as text that reads back to its float32).
"""
import json
import struct
import sys

FIELDS = ["left_children", "right_children", "split_indices", "default_left", "split_type"]
FLOATS = ["split_conditions", "base_weights", "loss_changes", "sum_hessian"]


def bits(values):
    return [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in values]


def main():
    model = json.load(open(sys.argv[1]))["learner"]["gradient_booster"]["model"]["trees"]
    golden = json.load(open(sys.argv[2]))["trees"]
    if len(model) != len(golden):
        sys.exit(f"{len(model)} trees, upstream {len(golden)}")
    for k, (got, want) in enumerate(zip(model, golden)):
        for f in FIELDS:
            if [int(v) for v in got[f]] != [int(v) for v in want[f]]:
                sys.exit(f"tree {k}: {f} differs from upstream's")
        for f in FLOATS:
            if bits(got[f]) != want[f]:
                sys.exit(f"tree {k}: {f} bits differ from upstream's")
    print(f"{len(model)} trees equal upstream's")


if __name__ == "__main__":
    main()
