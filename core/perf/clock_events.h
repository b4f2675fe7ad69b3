// NVML's clock-event (throttle) reasons sampled while the suite runs, so a GEMM figure says whether the clocks were
// held down (power cap, thermal slowdown) while it was measured.
#pragma once

#include "core/perf/perf_types.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stackscope::perf {

struct ClockEventSample {
    double seconds = 0; // CLOCK_MONOTONIC, as the suite's figures
    int gpu = 0;
    std::vector<std::string> reasons; // nvidia-smi's names ("sw_power_cap"); "gpu_idle" left out
};

// Samples every `periodMs` on its own thread from start() to stop(); does nothing where NVML cannot be opened
// (AMD, no driver): `available()` says which.
class ClockEventSampler {
public:
    explicit ClockEventSampler(int periodMs = 100);
    ~ClockEventSampler();
    ClockEventSampler(const ClockEventSampler&) = delete;
    ClockEventSampler& operator=(const ClockEventSampler&) = delete;
    void start();
    std::vector<ClockEventSample> stop();
    bool available() const { return m_available; }

private:
    struct Nvml;
    std::unique_ptr<Nvml> m_nvml;
    int m_periodMs;
    bool m_available = false;
    std::atomic<bool> m_stop {false};
    // A thread of its own, not a task of the task runner: it samples every m_periodMs from start() until stop(), for
    // as long as the measurements it watches run, beside them.
    std::thread m_thread;
    std::mutex m_mutex;
    std::vector<ClockEventSample> m_samples;
};

// Adds to each GEMM figure the reasons of the samples of its GPU taken while it ran (sorted, once each).
void attachClockEvents(std::vector<Figure>& run, const std::vector<ClockEventSample>& samples);

} // namespace stackscope::perf
