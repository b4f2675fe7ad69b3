// Host side of the VPOC GPU path: opens the CUDA or HIP module at run time and feeds it budget-sized chunks.
#pragma once

#include "core/vpoc/volume_profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

class GpuProfiler {
public:
    struct Api;
    ~GpuProfiler();
    GpuProfiler(const GpuProfiler&) = delete;
    GpuProfiler& operator=(const GpuProfiler&) = delete;

    // The documented search order, as for the torch module (torchModuleCandidates): $STACKSCOPE_VPOC_GPU_MODULE,
    // when set, is the only one tried; else the module file names in moduleDirectories(), CUDA first.
    static std::vector<std::string> moduleCandidates();
    // Opens the first module whose device opens and allocates `budgetBytes` once. Returns null and
    // explains every attempt in `why` when there is none.
    static std::unique_ptr<GpuProfiler> open(uint64_t budgetBytes, std::string& why);

    const std::string& vendor() const { return m_vendor; } // "cuda" or "hip"
    const std::string& deviceName() const { return m_device; }
    const std::string& modulePath() const { return m_path; }

    // Same results as computeBatchCpu, bit for bit. Throws std::runtime_error with what to do.
    std::vector<SessionResult> compute(const BatchView& batch, const ProfileOptions& options);

    // Benchmark helpers (see vpoc_gpu_api.h).
    double copyBandwidth(uint64_t bytes);
    double timeResidentMs(int repeats);

private:
    GpuProfiler() = default;
    static std::unique_ptr<GpuProfiler> openModule(const std::string& path, uint64_t budgetBytes,
                                                   std::vector<std::string>& reasons);
    std::unique_ptr<Api> m_api;
    void* m_ctx = nullptr;
    std::string m_vendor;
    std::string m_device;
    std::string m_path;
};

} // namespace stackscope::vpoc
