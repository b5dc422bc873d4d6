#!/usr/bin/env python3
"""Packs ex2_table_probe.cu's capture into core/data/cuda_ex2_sm90.tar.xz (core/cuda_ex2_table.hpp).

    perf/upstream_gpu/pack_ex2_table.py <dir with ex2_pos.bin and ex2_neg.bin> core/data/cuda_ex2_sm90.tar.xz

ex2_pos.bin holds, for k in [0, 2^23), the sm_90 ex2.approx.ftz.f32 of k / 2^23 as its bits minus
those of 2^(k / 2^23) correctly rounded (-1, 0 or +1); packed four entries to a byte, entry k in
bits 2 (k mod 4) of byte k / 4, as delta + 1. Prints the FNV-1a hash of the packed bytes and the
bit mask of ex2_neg.bin's first 256 entries (-1 where set, else 0), written into
core/cuda_ex2_table.hpp (kEx2TableFnv1a) and core/cuda_math.hpp (detail::ex2_approx).
"""
import io
import sys
import tarfile

import numpy as np


def main():
    src, out = sys.argv[1], sys.argv[2]
    pos = np.fromfile(f"{src}/ex2_pos.bin", dtype=np.int8)
    neg = np.fromfile(f"{src}/ex2_neg.bin", dtype=np.int8)[:256]
    assert len(pos) == 1 << 23 and set(np.unique(pos)) <= {-1, 0, 1} and set(np.unique(neg)) <= {-1, 0}
    codes = (pos + 1).astype(np.uint8)
    packed = np.zeros(len(pos) // 4, dtype=np.uint8)
    for k in range(4):
        packed |= codes[k::4] << (2 * k)
    data = packed.tobytes()
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & ((1 << 64) - 1)
    words = [0] * 8
    for k in np.nonzero(neg == -1)[0]:
        words[k >> 5] |= 1 << (int(k) & 31)
    print(f"fnv1a64 0x{h:016x}")
    print("negative mask", ", ".join(f"0x{w:08X}u" for w in words))
    info = tarfile.TarInfo("cuda_ex2_sm90.bin")
    info.size, info.mtime, info.mode = len(data), 0, 0o644
    with tarfile.open(out, "w:xz", preset=9) as tar:
        tar.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    main()
