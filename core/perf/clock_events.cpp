#include "core/perf/clock_events.h"

#include "core/runtime/vendor_abi.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>

namespace stackscope::perf {

namespace {

double monotonicSeconds()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

} // namespace

struct ClockEventSampler::Nvml {
    DynamicLibrary lib;
    vendor::NvmlApi api;
    std::vector<vendor::NvmlDevice> devices;
};

ClockEventSampler::ClockEventSampler(int periodMs)
    : m_nvml(std::make_unique<Nvml>())
    , m_periodMs(periodMs)
{
    m_nvml->lib = DynamicLibrary::open(vendor::nvmlCandidates());
    if (!m_nvml->lib.isLoaded())
        return;
    m_nvml->api = vendor::NvmlApi(m_nvml->lib);
    if (!m_nvml->api.hasCore() || !m_nvml->api.clockEventReasons || m_nvml->api.init() != vendor::kNvmlSuccess)
        return;
    unsigned n = 0;
    m_nvml->api.count(&n);
    for (unsigned i = 0; i < n; ++i) {
        vendor::NvmlDevice d = nullptr;
        m_nvml->api.handle(i, &d);
        m_nvml->devices.push_back(d);
    }
    m_available = true;
}

ClockEventSampler::~ClockEventSampler()
{
    stop();
    if (m_available && m_nvml->api.shutdown)
        m_nvml->api.shutdown();
}

void ClockEventSampler::start()
{
    if (!m_available || m_thread.joinable())
        return;
    m_stop = false;
    m_thread = std::thread([this] {
        while (!m_stop) {
            for (std::size_t i = 0; i < m_nvml->devices.size(); ++i) {
                unsigned long long bits = 0;
                if (!m_nvml->devices[i] || m_nvml->api.clockEventReasons(m_nvml->devices[i], &bits) != vendor::kNvmlSuccess)
                    continue;
                std::lock_guard<std::mutex> lock(m_mutex);
                // gpu_idle left out: an idle GPU between figures is no finding.
                m_samples.push_back({monotonicSeconds(), static_cast<int>(i), vendor::nvmlClockEventNames(bits & ~vendor::kNvmlClockEventGpuIdle)});
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(m_periodMs));
        }
    });
}

std::vector<ClockEventSample> ClockEventSampler::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_samples;
}

void attachClockEvents(std::vector<Figure>& run, const std::vector<ClockEventSample>& samples)
{
    for (auto& f : run) {
        if (f.test != Test::Gemm || f.endSeconds <= f.startSeconds)
            continue;
        std::set<std::string> seen(f.clockEventReasons.begin(), f.clockEventReasons.end());
        for (const auto& s : samples)
            if (s.gpu == f.gpu && s.seconds >= f.startSeconds && s.seconds <= f.endSeconds)
                seen.insert(s.reasons.begin(), s.reasons.end());
        f.clockEventReasons.assign(seen.begin(), seen.end());
    }
}

} // namespace stackscope::perf
