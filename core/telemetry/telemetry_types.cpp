// Names, units and merge rules of the telemetry value types.
#include "core/telemetry/telemetry_types.h"

#include <chrono>

namespace stackscope::telemetry {

TimeMs nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

const char* quantityKey(Quantity q)
{
    switch (q) {
    case Quantity::VramUsed: return "vram_used";
    case Quantity::VramTotal: return "vram_total";
    case Quantity::Utilisation: return "utilisation";
    case Quantity::Temperature: return "temperature";
    case Quantity::Power: return "power";
    case Quantity::SmClock: return "sm_clock";
    case Quantity::MemoryClock: return "memory_clock";
    case Quantity::TorchAllocated: return "torch_allocated";
    case Quantity::TorchReserved: return "torch_reserved";
    case Quantity::TorchPeak: return "torch_peak";
    }
    return "?";
}

const char* quantityUnit(Quantity q)
{
    switch (q) {
    case Quantity::VramUsed:
    case Quantity::VramTotal:
    case Quantity::TorchAllocated:
    case Quantity::TorchReserved:
    case Quantity::TorchPeak: return "B";
    case Quantity::Utilisation: return "%";
    case Quantity::Temperature: return "C";
    case Quantity::Power: return "W";
    case Quantity::SmClock:
    case Quantity::MemoryClock: return "MHz";
    }
    return "";
}

const char* quantityLabel(Quantity q)
{
    switch (q) {
    case Quantity::VramUsed: return "VRAM used";
    case Quantity::VramTotal: return "VRAM total";
    case Quantity::Utilisation: return "Utilisation";
    case Quantity::Temperature: return "Temperature";
    case Quantity::Power: return "Power";
    case Quantity::SmClock: return "SM clock";
    case Quantity::MemoryClock: return "Memory clock";
    case Quantity::TorchAllocated: return "torch allocated";
    case Quantity::TorchReserved: return "torch reserved";
    case Quantity::TorchPeak: return "torch peak";
    }
    return "?";
}

const char* missingReasonKey(MissingReason r)
{
    switch (r) {
    case MissingReason::Present: return "present";
    case MissingReason::NotSupported: return "not_supported";
    case MissingReason::LibraryNotLoaded: return "library_not_loaded";
    case MissingReason::Permission: return "permission";
    case MissingReason::NotReported: return "not_reported";
    case MissingReason::Failed: return "failed";
    }
    return "?";
}

const char* eventKindKey(EventKind k)
{
    switch (k) {
    case EventKind::RunStarted: return "run_started";
    case EventKind::RunStopped: return "run_stopped";
    case EventKind::EpochEnd: return "epoch_end";
    case EventKind::ProbeFailure: return "probe_failure";
    case EventKind::VariantChange: return "variant_change";
    }
    return "?";
}

Reading Reading::of(double v, std::string source)
{
    Reading r;
    r.value = v;
    r.source = std::move(source);
    r.reason = MissingReason::Present;
    return r;
}

Reading Reading::missing(MissingReason reason, std::string source, std::string detail)
{
    Reading r;
    r.source = std::move(source);
    r.reason = reason;
    r.detail = std::move(detail);
    return r;
}

void GpuReadings::offer(Quantity q, Reading r)
{
    Reading& cur = at(q);
    if (cur.present())
        return;
    // A default-constructed slot has no source: nobody has spoken about it yet.
    if (r.present() || cur.source.empty())
        cur = std::move(r);
}

std::string gpuId(const GpuReadings& g)
{
    return g.vendor + ":" + std::to_string(g.index);
}

} // namespace stackscope::telemetry
