// The families and single names behind isStackEnvironmentVariable (stack_environment.h). Each family is documented
// by its owner: CUDA (docs.nvidia.com/cuda/cuda-c-programming-guide, "CUDA Environment Variables"), NCCL
// (docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html), HIP/ROCr/HSA (rocm.docs.amd.com, "ROCm environment
// variables"), PyTorch (pytorch.org/docs/stable/torch_environment_variables.html), OpenMP (OMP_*), the dynamic loader
// (ld.so(8): LD_PRELOAD, LD_LIBRARY_PATH) and torchrun's rendezvous variables.
#include "core/snapshot/stack_environment.h"

#include <array>

namespace stackscope {

bool isStackEnvironmentVariable(std::string_view name)
{
    // Never a credential, whatever its family (NVIDIA_API_KEY, a TRITON_..._TOKEN): a snapshot goes into reports.
    for (std::string_view secret : {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "_KEY", "CREDENTIAL"}) {
        if (name.find(secret) != std::string_view::npos)
            return false;
    }
    static constexpr std::array<std::string_view, 20> kFamilies {
        "CUDA_", "NVIDIA_", "NCCL_", "RCCL_", "CUBLAS", "CUDNN_", "HIP_", "HIPBLAS", "ROCBLAS_", "ROCR_", "ROCM_", "HSA_",
        "AMD_", "MIOPEN_", "GPU_", "TORCH_", "PYTORCH_", "OMP_", "TORCHINDUCTOR_", "TRITON_"};
    static constexpr std::array<std::string_view, 14> kNames {
        "LD_PRELOAD", "LD_LIBRARY_PATH", "GLIBC_TUNABLES", "ROCM_PATH", "ROCM_HOME", "CUDA_HOME", "DISABLE_ADDMM_CUDA_LT",
        "DISABLE_ADDMM_HIP_LT", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"};
    for (auto f : kFamilies) {
        if (name.size() > f.size() && name.substr(0, f.size()) == f)
            return true;
    }
    for (auto n : kNames) {
        if (name == n)
            return true;
    }
    return false;
}

} // namespace stackscope
