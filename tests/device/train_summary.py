#!/usr/bin/env python3
"""One RESULT line for a `stackscope-cli train --json-progress` run (tests/device scripts): steps/s of the finished
event, the steady rate (median of the progress intervals after epoch 1: warm-up, lazy kernel loading and NCCL's
first collectives fall in epoch 1; needs the batch size), the set-up seconds, the execution note and every epoch's
validation loss from model_metadata.json.

Usage: train_summary.py NAME OUTPUT_DIR JSON_LINES RC [--batch N] [--wall SECONDS]"""
import argparse
import json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("out")
    ap.add_argument("lines")
    ap.add_argument("rc")
    ap.add_argument("--batch", type=float)
    ap.add_argument("--wall", default="-")
    a = ap.parse_args()
    events = [json.loads(l) for l in open(a.lines) if l.startswith('{"')]
    fin = [e for e in events if e.get("event") == "finished"]
    try:
        meta = json.load(open(a.out + "/model_metadata.json"))
        val = ["%.9g" % e["val_loss"] for e in meta["epochs"]]
    except (OSError, ValueError, KeyError) as e:
        val = ["no metadata: %s" % e]
    sps = fin[-1]["steps_per_s"] if fin else float("nan")
    steady = float("nan")
    if a.batch:
        rates = sorted(e["samples_per_s"] / a.batch for e in events if e.get("event") == "step" and e.get("epoch", 1) > 1)
        steady = rates[len(rates) // 2] if rates else float("nan")
    last = fin[-1] if fin else {}
    print("RESULT %-24s rc=%s wall=%ss steps/s=%.2f steady=%.2f setup=%s execution=%s val_loss=%s" % (
        a.name, a.rc, a.wall, sps, steady, last.get("setup_seconds", "-"), last.get("execution", "-"), ",".join(val)))


if __name__ == "__main__":
    main()
