# Drives the probe worker's VecIsaChecks (resources/python/stackscope_probe_worker.py) with a stand-in for inductor's
# cpu_vec_isa module: the same shape (VecISA.check_build, subclasses whose functools-cached __bool__ chain several
# checks, supported_vec_isa_list, x86_isa_checker, pick_vec_isa) with checks that sleep instead of building C++.
# Usage: python3 vec_isa_fake.py WORKER.py CACHE_DIR [CODE_SUFFIX]; prints one JSON line.
import functools
import importlib.util
import json
import os
import sys
import threading
import time

spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)
os.environ["STACKSCOPE_CACHE_DIR"] = sys.argv[2]
suffix = sys.argv[3] if len(sys.argv) > 3 else ""

state = {"calls": 0, "running": 0, "most_at_once": 0}
lock = threading.Lock()


class VecISA(object):
    _arch_flags = ""

    def check_build(self, code):
        with lock:
            state["calls"] += 1
            state["running"] += 1
            state["most_at_once"] = max(state["most_at_once"], state["running"])
        time.sleep(0.3)
        with lock:
            state["running"] -= 1
        return "fails" not in code

    @functools.lru_cache(None)
    def __bool__(self):
        return self.check_build("base" + suffix)


class Avx2(VecISA):
    _arch_flags = "-mavx2"

    def __str__(self):
        return "avx2"

    __hash__ = object.__hash__


class Avx512(VecISA):
    _arch_flags = "-mavx512f"

    def __str__(self):
        return "avx512"

    __hash__ = object.__hash__

    @functools.lru_cache(None)
    def __bool__(self):
        return VecISA.__bool__(self) and (self.check_build("bf16") or True)


class Amx(Avx512):
    _arch_flags = "-mavx512f -mamx-tile"

    def __str__(self):
        return "avx512 amx_tile"

    __hash__ = object.__hash__

    @functools.lru_cache(None)
    def __bool__(self):
        return Avx512.__bool__(self) and self.check_build("amx fails")  # this CPU's compiler lacks AMX


class Neon(VecISA):
    def __str__(self):
        return "asimd"

    __hash__ = object.__hash__


class Module(object):
    pass


mod = Module()
mod.VecISA = VecISA
mod.supported_vec_isa_list = [Amx(), Avx512(), Avx2(), Neon()]
mod.x86_isa_checker = lambda: ["avx2", "avx512", "amx_tile"]


def pick_vec_isa():
    flags = mod.x86_isa_checker()
    valid = [i for i in mod.supported_vec_isa_list if all(f in flags for f in str(i).split()) and i]
    return valid[0] if valid else None


mod.pick_vec_isa = pick_vec_isa
checks = worker.VecIsaChecks(mod)
picked, seconds = checks.pick()
print(json.dumps({"picked": str(picked), "run": checks.run, "cached": checks.cached, "calls": state["calls"],
                  "most_at_once": state["most_at_once"], "first_seconds": checks.first_seconds,
                  "cache": checks.path}))
