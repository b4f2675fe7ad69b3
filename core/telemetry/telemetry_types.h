// Telemetry value types: quantities, readings that carry their source or the reason they are missing, samples, events.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::telemetry {

// Milliseconds since the Unix epoch (system clock), so that samples, events and the Training page's
// loss points share one axis and CSV rows can be read without a reference point.
using TimeMs = std::int64_t;
TimeMs nowMs();

enum class Quantity {
    VramUsed,       // bytes, whole device (all processes)
    VramTotal,      // bytes
    Utilisation,    // percent busy
    Temperature,    // degrees C (edge on AMD, GPU core on NVIDIA)
    Power,          // watts
    SmClock,        // MHz
    MemoryClock,    // MHz
    TorchAllocated, // bytes held by tensors of this process (libtorch caching allocator)
    TorchReserved,  // bytes the caching allocator reserved from the driver
    TorchPeak,      // peak allocated bytes since the last reset
};
constexpr int kQuantityCount = 10;
constexpr std::array<Quantity, kQuantityCount> kAllQuantities {
    Quantity::VramUsed,  Quantity::VramTotal,   Quantity::Utilisation,    Quantity::Temperature,   Quantity::Power,
    Quantity::SmClock,   Quantity::MemoryClock, Quantity::TorchAllocated, Quantity::TorchReserved, Quantity::TorchPeak};

// Stable identifier used in JSON and CSV ("vram_used", "power" ...).
const char* quantityKey(Quantity q);
// Unit written after values ("B", "%", "C", "W", "MHz").
const char* quantityUnit(Quantity q);
// Human label for charts and tables.
const char* quantityLabel(Quantity q);

// Why a value is missing. `Present` means the reading has a value.
enum class MissingReason {
    Present,
    NotSupported,     // the GPU or driver does not report it (or no StackScope source reads it for this vendor)
    LibraryNotLoaded, // NVML / rocm_smi could not be opened or initialised
    Permission,       // the library refused (root or a group needed)
    NotReported,      // comes from the training code, which has not pushed figures (yet)
    Failed,           // the call failed for another reason (GPU lost, driver error)
};
const char* missingReasonKey(MissingReason r);

// One value: either present (with the source that read it) or missing (with the reason and a detail
// that tells a person what to do).
struct Reading {
    std::optional<double> value;
    std::string source;
    MissingReason reason = MissingReason::NotSupported;
    std::string detail;

    static Reading of(double v, std::string source);
    static Reading missing(MissingReason reason, std::string source, std::string detail);
    bool present() const { return value.has_value(); }
};

struct GpuReadings {
    int index = 0;          // the vendor library's device index
    std::string vendor;     // "nvidia" or "amd" (or "synthetic")
    std::string name;
    std::array<Reading, kQuantityCount> readings {};

    Reading& at(Quantity q) { return readings[static_cast<std::size_t>(q)]; }
    const Reading& at(Quantity q) const { return readings[static_cast<std::size_t>(q)]; }
    // Keeps a present value over a missing one, and the first missing reason over later ones:
    // the first source to speak about a quantity explains its absence best.
    void offer(Quantity q, Reading r);
};

// What a source said about itself this round (loaded library, or why it is not there).
struct SourceStatus {
    std::string source;
    bool available = false;
    MissingReason reason = MissingReason::LibraryNotLoaded;
    std::string detail; // the loaded path when available, else what went wrong and what to do
};

struct TelemetrySample {
    TimeMs timeMs = 0;
    std::vector<GpuReadings> gpus;
    std::vector<SourceStatus> sources;
};

enum class EventKind { RunStarted, RunStopped, EpochEnd, ProbeFailure, VariantChange };
const char* eventKindKey(EventKind k);

struct TimelineEvent {
    TimeMs timeMs = 0;
    EventKind kind = EventKind::RunStarted;
    std::string text;
};

// A series is one quantity of one GPU ("nvidia:0").
struct SeriesKey {
    std::string gpu;
    Quantity quantity = Quantity::VramUsed;
    bool operator<(const SeriesKey& o) const { return gpu != o.gpu ? gpu < o.gpu : quantity < o.quantity; }
    bool operator==(const SeriesKey& o) const { return gpu == o.gpu && quantity == o.quantity; }
};
std::string gpuId(const GpuReadings& g);

} // namespace stackscope::telemetry
