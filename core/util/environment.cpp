// The one place the STACKSCOPE_* variables are read.
#include "core/util/environment.h"

#include <cstdlib>

namespace stackscope {

const char* envVarName(EnvVar var)
{
    switch (var) {
    case EnvVar::ModuleDir:
        return "STACKSCOPE_MODULE_DIR";
    case EnvVar::DataDir:
        return "STACKSCOPE_DATA_DIR";
    case EnvVar::Cli:
        return "STACKSCOPE_CLI";
    case EnvVar::PythonWorker:
        return "STACKSCOPE_PYTHON_WORKER";
    case EnvVar::CacheDir:
        return "STACKSCOPE_CACHE_DIR";
    case EnvVar::TorchModule:
        return "STACKSCOPE_TORCH_MODULE";
    case EnvVar::VpocGpuModule:
        return "STACKSCOPE_VPOC_GPU_MODULE";
    case EnvVar::DuckdbLibrary:
        return "STACKSCOPE_DUCKDB_LIBRARY";
    case EnvVar::NvmlLibrary:
        return "STACKSCOPE_NVML_LIBRARY";
    case EnvVar::RocmSmiLibrary:
        return "STACKSCOPE_ROCM_SMI_LIBRARY";
    case EnvVar::HipLibrary:
        return "STACKSCOPE_HIP_LIBRARY";
    case EnvVar::CudartLibrary:
        return "STACKSCOPE_CUDART_LIBRARY";
    case EnvVar::CudaDriverLibrary:
        return "STACKSCOPE_CUDA_DRIVER_LIBRARY";
    case EnvVar::PythonEnvs:
        return "STACKSCOPE_PYTHON_ENVS";
    case EnvVar::DocDir:
        return "STACKSCOPE_DOC_DIR";
    case EnvVar::ProbeDisableOnednn:
        return "STACKSCOPE_PROBE_DISABLE_ONEDNN";
    case EnvVar::TestInject:
        return "STACKSCOPE_TEST_INJECT";
    case EnvVar::LauncherPid:
        return "STACKSCOPE_LAUNCHER_PID";
    case EnvVar::RankStatus:
        return "STACKSCOPE_RANK_STATUS";
    }
    return "";
}

std::string envValue(EnvVar var)
{
    const char* v = std::getenv(envVarName(var));
    return v ? std::string(v) : std::string();
}

} // namespace stackscope
