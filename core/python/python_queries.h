// The short Python scripts discovery runs in each interpreter (`python -c`); each prints one JSON object.
#pragma once

namespace stackscope::pyquery {

// Finds torch without importing it (importlib's find_spec) and says where it is; torch/version.py is then read
// as text by StackScope (parseTorchVersionPy), never executed. Also whether amdsmi/pynvml are installed. Any
// Python 3; on Python 2 it prints an "error".
inline constexpr const char* kQuick = R"PY(
import sys, os, json
r = {"python_version": "%d.%d.%d" % tuple(sys.version_info[:3]), "executable": sys.executable, "prefix": sys.prefix}
try:
    import importlib.util as iu
    s = iu.find_spec("torch")
    r["has_torch"] = False
    if s is not None and s.submodule_search_locations:
        r["torch_dir"] = list(s.submodule_search_locations)[0]
        r["has_torch"] = True
    for m in ("amdsmi", "pynvml"):
        r[m + "_installed"] = iu.find_spec(m) is not None
except Exception as e:
    r["error"] = "%s: %s" % (type(e).__name__, e)
sys.stdout.write(json.dumps(r) + "\n")
)PY";

// Imports torch: arch list, devices with gcnArchName, the preferred BLAS backend (PyTorch >= 2.3), oneDNN, and
// what `import amdsmi` / `import pynvml` say.
inline constexpr const char* kDetails = R"PY(
import sys, json
r = {}
def why(e):
    return "%s: %s" % (type(e).__name__, e)
try:
    import torch
    r["torch_version"] = torch.__version__
    r["hip_version"] = getattr(torch.version, "hip", None)
    r["cuda_version"] = torch.version.cuda
    r["build"] = "rocm" if r["hip_version"] else ("cuda" if r["cuda_version"] else "cpu")
    try:
        r["arch_list"] = list(torch.cuda.get_arch_list())
    except Exception as e:
        r["arch_list_error"] = why(e)
    devices = []
    try:
        n = torch.cuda.device_count() if r["build"] != "cpu" and torch.cuda.is_available() else 0
        for i in range(n):
            p = torch.cuda.get_device_properties(i)
            devices.append({"index": i, "name": p.name, "gcnArchName": getattr(p, "gcnArchName", None),
                            "total_memory": p.total_memory, "capability": "%d.%d" % (p.major, p.minor)})
    except Exception as e:
        r["devices_error"] = why(e)
    r["devices"] = devices
    f = getattr(torch.backends.cuda, "preferred_blas_library", None)
    try:
        r["blas_backend"] = str(f()) if f is not None else None
    except Exception as e:
        r["blas_backend"] = None
        r["blas_backend_error"] = why(e)
    r["mkldnn_enabled"] = bool(torch.backends.mkldnn.enabled)
except BaseException as e:
    r["import_error"] = why(e)
for m in ("amdsmi", "pynvml"):
    try:
        __import__(m)
        r[m] = "ok"
    except BaseException as e:
        r[m] = why(e)
sys.stdout.write(json.dumps(r) + "\n")
)PY";

} // namespace stackscope::pyquery
