// What the trainer tells a person about its devices: why no GPU is usable (in the facts at hand, never "rebuild"
// where the build is a GPU one), and whether one GPU would have been faster than the processes of this run.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope::trainer {

// Why libtorch sees no GPU: a CPU-only libtorch, then a visibility variable that hides the GPUs, then the driver or
// the container; each with what to do.
std::string whyNoGpu();

// The note event comparing `processes` ranks (ranksStepsPerS) with one GPU's fused step (oneGpuStepsPerS, GPU `gpu`),
// measured in the same run: the sentence the CLI prints and, as fields, the figures core/training reads into
// DeviceAdvice (kind, processes, ranks_steps_per_s, one_gpu_steps_per_s, gpu, and suggested_device when one GPU is
// faster).
nlohmann::json deviceAdviceNote(int processes, double ranks, double one, int gpu);

// The note when one GPU could not be timed against the ranks on a model the fused step takes (`why`: the kernel is
// not in this build, or it failed or disagreed with autograd here): whether fewer GPUs would be faster is unknown,
// and the note says so (kind "one_gpu_not_compared": no DeviceAdvice is read from it). A model it does not take gets
// no note (trainer_fused.h fusedStepSuitsModel).
nlohmann::json oneGpuNotComparedNote(int processes, double ranks, const std::string& why);

} // namespace stackscope::trainer
