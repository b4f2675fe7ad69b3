#!/usr/bin/env python3
# A stand-in probe worker for tst_probe_runner's GPU-turn test: speaks the probe protocol (core/probes/probe_protocol.h)
# without torch (its version from $FAKE_WORKER_PROTOCOL), each probe a 0.4 s sleep, and appends what it did with the time to $FAKE_WORKER_LOG:
# "hello T PROBES ARGS bytecode:PYTHONDONTWRITEBYTECODE:PYTHONPYCACHEPREFIX", "go T ..." (after stdin said go,
# with --wait-go), "end T ...".
import json
import os
import sys
import time

args = sys.argv[1:]
probes = [args[i + 1] for i, a in enumerate(args) if a == "--probe"]


def log(what):
    with open(os.environ["FAKE_WORKER_LOG"], "a") as f:
        f.write("%s %.6f %s %s bytecode:%s:%s\n" % (what, time.time(), ",".join(probes), " ".join(args),
                                                    os.environ.get("PYTHONDONTWRITEBYTECODE", "-"),
                                                    os.environ.get("PYTHONPYCACHEPREFIX", "-")))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# $FAKE_WORKER_SLOW_COPIES: the copy worker (GPU Alone) starts up 0.6 s slower, as a Python worker importing torch
# does beside a libtorch one, so that it says hello after the shared worker.
if os.environ.get("FAKE_WORKER_SLOW_COPIES") and any(p.startswith("copy") for p in probes):
    time.sleep(0.6)
send({"type": "hello", "protocol": int(os.environ["FAKE_WORKER_PROTOCOL"]), "pid": os.getpid()})
log("hello")
if "--wait-go" in args:
    if sys.stdin.readline().strip() != "go":
        log("no-go")
        sys.exit(0)
    log("go")
for p in probes:
    send({"type": "start", "probe": p})
    time.sleep(0.4)
    send({"type": "result", "probe": p, "outcome": "ok", "message": "fake", "seconds": 0.4})
log("end")
send({"type": "done"})
