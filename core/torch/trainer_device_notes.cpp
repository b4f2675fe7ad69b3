// See trainer_device_notes.h.
#include "core/torch/trainer_device_notes.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <cstdio>
#include <cstdlib>

namespace stackscope::trainer {

// A libtorch built without GPU support is the only case for "rebuild".
std::string whyNoGpu()
{
    const std::string config = at::show_config();
    const bool gpuBuild = config.find("USE_CUDA=ON") != std::string::npos || config.find("USE_CUDA=1") != std::string::npos
        || config.find("USE_ROCM=ON") != std::string::npos || config.find("USE_ROCM=1") != std::string::npos;
    if (!gpuBuild)
        return std::string("this libtorch (") + TORCH_VERSION + ") is built for the CPU only; build StackScope against a "
               "CUDA or ROCm PyTorch (README: Point it at your ROCm or CUDA PyTorch)";
    for (const char* name : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"}) {
        if (const char* v = std::getenv(name))
            return std::string(name) + "='" + v + "' is set and hides the GPUs from this process; unset it or name "
                   "GPUs that exist (`nvidia-smi -L` or `rocm-smi` lists them)";
    }
    return std::string("this libtorch (") + TORCH_VERSION + ") has GPU support but finds no GPU: check that the driver "
           "is loaded (`nvidia-smi`, or `rocminfo` on AMD) and, in a container, that the GPUs were passed in "
           "(--gpus all, or --device /dev/kfd --device /dev/dri)";
}

nlohmann::json deviceAdviceNote(int processes, double ranks, double one, int gpu)
{
    char text[600];
    if (one > ranks)
        std::snprintf(text, sizeof text,
                      "%d processes run %.0f steps/s; one GPU with the fused step kernel ran %.0f steps/s (GPU %d, "
                      "measured in this run): %.1fx faster. This model is too small to gain from several GPUs: train "
                      "it with --device gpu:%d (--device auto picks one GPU)",
                      processes, ranks, one, gpu, one / ranks, gpu);
    else
        std::snprintf(text, sizeof text,
                      "%d processes run %.0f steps/s; one GPU with the fused step kernel ran %.0f steps/s (GPU %d, "
                      "measured in this run): several GPUs are %.1fx faster here",
                      processes, ranks, one, gpu, ranks / one);
    // The figures as fields beside the sentence (core/training reads them into DeviceAdvice): the Training page offers
    // the suggested device, model_metadata.json records them.
    nlohmann::json e = {{"event", "note"},          {"kind", one > ranks ? "fewer_gpus_faster" : "several_gpus_faster"},
                        {"message", text},          {"processes", processes},
                        {"ranks_steps_per_s", ranks}, {"one_gpu_steps_per_s", one},
                        {"gpu", gpu}};
    if (one > ranks)
        e["suggested_device"] = "gpu:" + std::to_string(gpu);
    return e;
}

nlohmann::json oneGpuNotComparedNote(int processes, double ranks, const std::string& why)
{
    char head[200];
    std::snprintf(head, sizeof head, "%d processes run %.0f steps/s; whether one GPU would train this model faster is "
                  "unknown; one GPU was not timed against them: ", processes, ranks);
    return {{"event", "note"},
            {"kind", "one_gpu_not_compared"},
            {"message", head + why},
            {"processes", processes},
            {"ranks_steps_per_s", ranks}};
}

} // namespace stackscope::trainer
