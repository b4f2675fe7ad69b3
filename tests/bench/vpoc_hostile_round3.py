#!/usr/bin/env python3
"""Writes the VPOC inputs of issue 36 (hostile input, round three) into a folder, for tests/bench/RESULTS.md.

  developing_wide.csv   1.6 MB: one bar spanning 100 .. 262243 (1,048,572 levels of 0.25, within one session's
                        2^20), then 50,000 one-level bars one second apart in the same session (row 10)
  developing_rows.csv   the same 50,000 bars without the wide one (the cost of --developing on real widths)
  developing_4000.csv   the wide bar then 4,000 bars: within the --developing budget, to time the old per-row cost
  profiles_wide.csv     2 KB: 60 daily sessions of one bar each spanning the same range (row 9)

tests/vpoc/tst_vpoc_bounds.cpp builds the same shapes, smaller. Usage: vpoc_hostile_round3.py DIR
"""
import os
import sys

START = 1710163800  # 2024-03-11 13:30 UTC, inside that day's globex session
HEADER = "timestamp,open,high,low,close,volume\n"
WIDE = "{},100,262243,100,100,4000000000\n"


def narrow(f, count: int) -> None:
    for i in range(count):
        f.write(f"{START + 60 + i},5000,5001,5000,5000,{1 + i % 7}\n")


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, wide, rows in (("developing_wide.csv", True, 50_000), ("developing_rows.csv", False, 50_000),
                             ("developing_4000.csv", True, 4_000)):
        with open(os.path.join(out, name), "w") as f:
            f.write(HEADER)
            if wide:
                f.write(WIDE.format(START))
            narrow(f, rows)
    with open(os.path.join(out, "profiles_wide.csv"), "w") as f:
        f.write(HEADER)
        for day in range(60):
            f.write(WIDE.format(START + day * 86400))


if __name__ == "__main__":
    main()
