#!/usr/bin/env python3
"""Scores a text-only expert's answers (roundN.tsv) and StackScope (a `bench diagnose --json` of the same folders) on
the same threads, by the same rule: an id is right when it is the thread's label (or its later-labels.tsv label); for a
healthy or OTHER thread, no claim (HEALTHY, OTHER, UNKNOWN) is right.

    stackscope-cli bench diagnose --json --corpus tests/fixtures/reports-heldout49 ... > /tmp/r10.json
    python3 tests/bench/expert-baseline/score.py tests/bench/expert-baseline/round10.tsv /tmp/r10.json [--list]
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures")


def main(answers_path, bench_path, listing):
    bench = json.load(open(bench_path))
    scored = {c["corpus"].rstrip("/").split("/")[-1] + "/" + r["name"]: r for c in bench["corpora"] for r in c["per_report"]}
    totals = {}
    for line in open(answers_path):
        if line.startswith("#") or not line.strip():
            continue
        thread, answer, confidence = line.rstrip("\n").split("\t")[:3]
        label = json.load(open(os.path.join(ROOT, thread, "expected.json")))["expected_rule"]
        r = scored[thread]
        later = r.get("later_rule")
        no_claim = answer in ("HEALTHY", "OTHER", "UNKNOWN")
        if label in (None, "OTHER"):
            expert = no_claim or (later not in (None, "OTHER") and answer == later)
        else:
            expert = answer in (label, later)
        ours = r["top1_later"]
        kind = "healthy" if label is None else "OTHER" if label == "OTHER" else "cause"
        for key in ("all", kind):
            t = totals.setdefault(key, [0, 0, 0])
            t[0] += 1
            t[1] += expert
            t[2] += ours
        if listing and expert != ours:
            print(f"{'expert only' if expert else 'ours only  '}  {thread}  label {label}  expert {answer} ({confidence})  ours {r['ranked'][:2]}")
    for key in ("all", "cause", "OTHER", "healthy"):
        n, e, s = totals.get(key, [0, 0, 0])
        if n:
            print(f"{key:8s} {n:4d} threads  expert {e} = {100 * e / n:.1f} %  StackScope {s} = {100 * s / n:.1f} %")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) != 2:
        sys.exit("usage: score.py roundN.tsv bench.json [--list]  (bench.json: stackscope-cli bench diagnose --json over the round's folders)")
    main(args[0], args[1], "--list" in sys.argv)
