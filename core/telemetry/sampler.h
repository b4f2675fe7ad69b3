// The sampler: runs the sources on its own thread at 1-20 Hz and appends each sample to the store.
#pragma once

#include "core/telemetry/telemetry_sources.h"
#include "core/telemetry/telemetry_store.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace stackscope::telemetry {

class TelemetrySampler {
public:
    static constexpr int kMinIntervalMs = 50;    // 20 Hz
    static constexpr int kMaxIntervalMs = 1000;  // 1 Hz
    static constexpr int kDefaultIntervalMs = 250; // 4 Hz

    TelemetrySampler(std::vector<std::unique_ptr<TelemetrySource>> sources, std::shared_ptr<TelemetryStore> store);
    ~TelemetrySampler();
    TelemetrySampler(const TelemetrySampler&) = delete;
    TelemetrySampler& operator=(const TelemetrySampler&) = delete;

    // Throws std::invalid_argument outside [kMinIntervalMs, kMaxIntervalMs]. Takes effect at the next tick.
    void setIntervalMs(int ms);
    int intervalMs() const { return m_intervalMs.load(); }

    void start();
    // Returns within one source round (the wait between samples is interrupted).
    void stop();
    bool isRunning() const { return m_thread.joinable(); }

    // Runs every source once on the caller's thread and returns the merged sample; the store is not
    // touched. Quantities no source spoke about get "not supported" with the reason. Not to be called
    // while the thread runs (the sources are single-threaded).
    TelemetrySample sampleOnce(TimeMs now = nowMs());

    const std::shared_ptr<TelemetryStore>& store() const { return m_store; }

private:
    void run();

    std::vector<std::unique_ptr<TelemetrySource>> m_sources;
    std::shared_ptr<TelemetryStore> m_store;
    std::atomic<int> m_intervalMs {kDefaultIntervalMs};
    // A thread of its own, not a task of the task runner: it lives from start() to stop(), across every job, sleeping
    // between readings (a task would hold a runner thread for the whole session).
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
};

} // namespace stackscope::telemetry
