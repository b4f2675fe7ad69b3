#!/usr/bin/env python3
"""Writes the worst archscan inputs of issue 21 into a folder, for the figures in tests/bench/RESULTS.md.

  distinct_ids.bin  ~20 MB: 364,000 plain offload bundles, each with its own target id (gfx + number)
  ccob_flood.bin    200 MiB of the repeated CCOB magic (every four bytes a candidate that starts no bundle)
  magic_flood.bin   200 MiB of the repeated __CLANG_OFFLOAD_BUNDLE__ magic

Usage: hostile_inputs.py DIR
"""
import os
import struct
import sys


def bundle(target_id: bytes) -> bytes:
    header = 32 + 24 + len(target_id)
    return (b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", 1)
            + struct.pack("<QQQ", header, 0, len(target_id)) + target_id)


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "distinct_ids.bin"), "wb") as f:
        for i in range(364_000):
            f.write(bundle(b"hipv4-amdgcn-amd-amdhsa--gfx%d" % (100000 + i)))
    mib = 1024 * 1024
    with open(os.path.join(out, "ccob_flood.bin"), "wb") as f:
        chunk = b"CCOB" * (mib // 4)
        for _ in range(200):
            f.write(chunk)
    with open(os.path.join(out, "magic_flood.bin"), "wb") as f:
        magic = b"__CLANG_OFFLOAD_BUNDLE__"
        chunk = magic * (mib // len(magic))
        total = 0
        while total < 200 * mib:
            f.write(chunk)
            total += len(chunk)


if __name__ == "__main__":
    main()
