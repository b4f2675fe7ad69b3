// Where telemetry comes from: one small interface per library, each with a stub-friendly shape.
//
// Not here on purpose: the HIP/CUDA runtime's memory info (hipMemGetInfo / cudaMemGetInfo). Both
// create (or retain) the device's primary context in the calling process, which costs hundreds of
// MB of VRAM per GPU and would make the monitor change what it measures; NVML and rocm_smi report
// the same device-wide VRAM without a context, and the process's own share comes from the libtorch
// caching-allocator feed below.
#pragma once

#include "core/telemetry/telemetry_types.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stackscope::telemetry {

class TelemetrySource {
public:
    virtual ~TelemetrySource() = default;
    virtual std::string name() const = 0;
    // Whether the library loaded and initialised, or why not (asked once per sample).
    virtual SourceStatus status() const = 0;
    // Adds what it reads to the GPUs it knows (findOrAddGpu), offering a Reading per quantity: a
    // value, or the reason it has none. Runs on the sampler thread only.
    virtual void read(std::vector<GpuReadings>& gpus, TimeMs now) = 0;
};

GpuReadings& findOrAddGpu(std::vector<GpuReadings>& gpus, const std::string& vendor, int index);

// NVML (libnvidia-ml.so.1, or $STACKSCOPE_NVML_LIBRARY): VRAM used/total, utilisation, temperature,
// power, SM and memory clocks.
std::unique_ptr<TelemetrySource> makeNvmlTelemetrySource();
// rocm_smi (librocm_smi64, or $STACKSCOPE_ROCM_SMI_LIBRARY): VRAM used/total, busy percent, edge
// (else junction) temperature, average (else current socket) power.
std::unique_ptr<TelemetrySource> makeRocmSmiTelemetrySource();

// The libtorch caching allocator's figures, pushed by the training code of this process (which
// calls c10::cuda::CUDACachingAllocator::getDeviceStats after each step); the sampler reads the
// latest. Thread-safe. `device` is libtorch's device index: with CUDA_VISIBLE_DEVICES or
// HIP_VISIBLE_DEVICES set it may differ from the vendor library's index, so the caller passes the
// vendor index when it knows it.
class TorchAllocatorFeed {
public:
    struct Figures {
        double allocatedBytes = 0;
        double reservedBytes = 0;
        double peakBytes = 0;
        TimeMs timeMs = 0;
    };
    // Figures older than this are reported as missing: the training run has stopped.
    static constexpr TimeMs kStaleAfterMs = 10000;

    void push(const std::string& vendor, int device, double allocatedBytes, double reservedBytes, double peakBytes,
              TimeMs timeMs = nowMs());
    std::map<std::pair<std::string, int>, Figures> latest() const;

private:
    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, int>, Figures> m_latest;
};

// Offers torch_allocated/reserved/peak for every GPU: the pushed figures, or "not reported" with why.
// A null feed (stackscope-cli monitor) explains that only the training process can see its allocator.
std::unique_ptr<TelemetrySource> makeTorchAllocatorSource(std::shared_ptr<TorchAllocatorFeed> feed);

// Deterministic waveforms for `gpuCount` GPUs (vendor "synthetic"), for the benchmark and demos.
std::unique_ptr<TelemetrySource> makeSyntheticSource(int gpuCount);

// NVML, rocm_smi, then the torch feed (first source to give a value wins).
std::vector<std::unique_ptr<TelemetrySource>> defaultTelemetrySources(std::shared_ptr<TorchAllocatorFeed> feed = {});

} // namespace stackscope::telemetry
