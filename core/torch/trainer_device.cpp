// CUDA-build implementations of the trainer's device helpers; other builds (CPU, ROCm) say "not available".
#include "core/torch/trainer_device.h"

#if defined(STACKSCOPE_TORCH_CUDA) && __has_include(<ATen/cuda/CUDAGraph.h>) && \
    __has_include(<c10/cuda/CUDACachingAllocator.h>)
#define STACKSCOPE_HAVE_CUDA_GRAPHS 1
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <torch/version.h>

#include <exception>

namespace stackscope::trainer {

#ifdef STACKSCOPE_HAVE_CUDA_GRAPHS

namespace {

class CudaSideStream : public SideStream {
public:
    explicit CudaSideStream(int device)
        : m_stream(c10::cuda::getStreamFromPool(false, static_cast<c10::DeviceIndex>(device)))
        , m_guard(m_stream)
    {
    }
    void synchronize() override { m_stream.synchronize(); }

private:
    c10::cuda::CUDAStream m_stream;
    c10::cuda::CUDAStreamGuard m_guard;
};

class CudaGraphedStep : public GraphedStep {
public:
    at::cuda::CUDAGraph graph;
    void replay() override { graph.replay(); }
};

} // namespace

std::unique_ptr<SideStream> useSideStream(int device)
{
    return std::make_unique<CudaSideStream>(device);
}

std::unique_ptr<GraphedStep> captureStep(int device, const std::function<void()>& step, std::string& why,
                                         bool threadLocal)
{
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(device));
    auto g = std::make_unique<CudaGraphedStep>();
    bool capturing = false;
    try {
        g->graph.capture_begin({0, 0}, threadLocal ? cudaStreamCaptureModeThreadLocal : cudaStreamCaptureModeGlobal);
        capturing = true;
        step();
        capturing = false;
        g->graph.capture_end();
    } catch (const std::exception& e) {
        if (capturing) { // end the capture the step broke off, so the stream takes eager work again
            try {
                g->graph.capture_end();
            } catch (const std::exception&) { // an invalidated capture: ending it is all that was wanted
            }
            (void)cudaGetLastError();
        }
        why = std::string("CUDA graph capture failed, training eagerly: ") + e.what();
        return nullptr;
    }
    return g;
}

void* currentStream(int device)
{
    return c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(device)).stream();
}

AllocatorFigures allocatorFigures(int device)
{
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(static_cast<c10::DeviceIndex>(device));
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 6)
    const auto all = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
#else
    const auto all = static_cast<size_t>(c10::cuda::CUDACachingAllocator::StatType::AGGREGATE);
#endif
    AllocatorFigures out;
    out.allocatedBytes = static_cast<double>(stats.allocated_bytes[all].current);
    out.reservedBytes = static_cast<double>(stats.reserved_bytes[all].current);
    return out;
}

#else

std::unique_ptr<SideStream> useSideStream(int)
{
    return nullptr;
}

std::unique_ptr<GraphedStep> captureStep(int, const std::function<void()>&, std::string& why, bool)
{
    why = "this libtorch build has no CUDA graphs (CPU or ROCm build): training eagerly";
    return nullptr;
}

void* currentStream(int)
{
    return nullptr;
}

AllocatorFigures allocatorFigures(int)
{
    return {};
}

#endif

} // namespace stackscope::trainer
