// The STACKSCOPE_* environment variables the programs read: each one named and read here only, and documented in
// docs/environment.md (tst_architecture checks both).
#pragma once

#include <string>

namespace stackscope {

enum class EnvVar {
    ModuleDir, // STACKSCOPE_MODULE_DIR: a folder searched first for the modules (libstackscope_torch.so, ...)
    DataDir, // STACKSCOPE_DATA_DIR: the data folder (rules, Python worker) instead of the installed one
    Cli, // STACKSCOPE_CLI: the stackscope-cli program children are started as
    PythonWorker, // STACKSCOPE_PYTHON_WORKER: the Python probe worker script
    CacheDir, // STACKSCOPE_CACHE_DIR: the cache folder (compiled kernels of the probes)
    TorchModule, // STACKSCOPE_TORCH_MODULE: the libtorch module, the only place looked at
    VpocGpuModule, // STACKSCOPE_VPOC_GPU_MODULE: the VPOC GPU module, the only place looked at
    DuckdbLibrary, // STACKSCOPE_DUCKDB_LIBRARY: libduckdb.so for bench vpoc-e2e's baseline
    NvmlLibrary, // STACKSCOPE_NVML_LIBRARY: libnvidia-ml, tried first
    RocmSmiLibrary, // STACKSCOPE_ROCM_SMI_LIBRARY: librocm_smi64, tried first
    HipLibrary, // STACKSCOPE_HIP_LIBRARY: libamdhip64, tried first
    CudartLibrary, // STACKSCOPE_CUDART_LIBRARY: libcudart, tried first
    CudaDriverLibrary, // STACKSCOPE_CUDA_DRIVER_LIBRARY: libcuda, tried first
    PythonEnvs, // STACKSCOPE_PYTHON_ENVS: "off" stops the Probes page looking for Python environments
    DocDir, // STACKSCOPE_DOC_DIR: the folder of README.md for Help > Documentation
    ProbeDisableOnednn, // STACKSCOPE_PROBE_DISABLE_ONEDNN: "1" turns oneDNN off in the libtorch probe worker
    TestInject, // STACKSCOPE_TEST_INJECT: tests only, KIND:PROBE gives `probe` an injected fault
    LauncherPid, // STACKSCOPE_LAUNCHER_PID: set by `train` for its ranks (a rank ends with its launcher)
    RankStatus, // STACKSCOPE_RANK_STATUS: set by `train` for its ranks (the status file a rank writes)
};

// "STACKSCOPE_MODULE_DIR" and so on.
const char* envVarName(EnvVar var);

// The variable's value in this process; empty when it is unset or set empty (both mean "not given").
std::string envValue(EnvVar var);

} // namespace stackscope
