// What the trainer needs from the GPU backend beyond plain libtorch: a side stream, CUDA graphs of the
// training step and the caching allocator's figures. Present in CUDA builds of libtorch; elsewhere
// each answers "not available" and the trainer runs eagerly.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace stackscope::trainer {

// Makes a fresh stream of `device` current for its lifetime (graph capture needs a non-default stream).
class SideStream {
public:
    virtual ~SideStream() = default;
    virtual void synchronize() = 0;
};
std::unique_ptr<SideStream> useSideStream(int device);

class GraphedStep {
public:
    virtual ~GraphedStep() = default;
    virtual void replay() = 0;
};
// Captures `step` (which must only touch tensors that outlive the graph) as a CUDA graph on the current
// stream, or returns null with the reason in `why` (not a CUDA build, capture failed). `threadLocal`: capture in
// cudaStreamCaptureModeThreadLocal, so that other threads (NCCL's watchdog querying the events of collectives
// enqueued before the capture) may go on making their calls; what PyTorch's c10d needs to capture collectives.
std::unique_ptr<GraphedStep> captureStep(int device, const std::function<void()>& step, std::string& why,
                                         bool threadLocal = false);

// The device's current stream as a cudaStream_t (null in builds without CUDA: then nothing may launch on it).
void* currentStream(int device);

struct AllocatorFigures {
    double allocatedBytes = -1; // -1: not known in this build
    double reservedBytes = -1;
};
AllocatorFigures allocatorFigures(int device);

} // namespace stackscope::trainer
