// The bandwidth and compute suite's figures (`bench bandwidth`, the probes' copies, the System page's topology):
// what was measured, what the hardware should reach, and the verdict, as plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::perf {

enum class Test {
    H2dPinned, D2hPinned, H2dPageable, D2hPageable, HostMemcpy, D2d, PeerCe, PeerKernel, PeerBidirCe, Triad, Gemm,
    AllReduce, AllGather, ReduceScatter,
};

// The id used in JSON and on the command line ("h2d_pinned"), a title for people, and the figure's unit.
struct TestInfo {
    Test test;
    const char* id;
    const char* title;
    const char* unit; // "GB/s" | "TFLOP/s"
};
const std::vector<TestInfo>& testCatalogue();
const TestInfo& info(Test t);
std::optional<Test> testFromId(const std::string& id);
bool isCollective(Test t);
bool isPeer(Test t);

enum class Verdict { AsExpected, Degraded, Broken, Unknown };
const char* verdictId(Verdict v);   // "as_expected" | "degraded" | "broken" | "unknown"
const char* verdictText(Verdict v); // "as expected" ...
std::optional<Verdict> verdictFromId(const std::string& id);

// What a figure should reach, and from what.
struct Expected {
    double value = 0;                 // achievable, in the figure's unit
    std::string basis;                // the arithmetic, readable: "PCIe 32 GT/s x16: 63.0 GB/s x 256/280 = 57.6 GB/s"
    std::vector<std::string> sources; // public URLs behind it
};

// One point of a size sweep.
struct SizePoint {
    std::uint64_t bytes = 0;
    double value = 0; // median over the trials
};

struct Figure {
    Test test = Test::H2dPinned;
    int gpu = -1;      // the GPU measured (source of a peer copy; -1 for the host memcpy)
    int peer = -1;     // the destination GPU of a peer test
    int ranks = 0;     // a collective's world size (its GPUs are 0..ranks-1)
    std::string dtype; // a GEMM's dtype ("bf16")
    std::uint64_t bytes = 0; // the size the figure is judged at (the sweep's largest)
    double value = 0;        // median at `bytes`, in the unit
    double low = 0, high = 0; // the trials' range at `bytes`
    int trials = 0;
    std::vector<SizePoint> sweep;
    std::optional<std::string> error; // the measurement failed: what happened
    std::optional<std::string> skipped; // not run: why (pre-flight, one GPU, this build)
    double startSeconds = 0, endSeconds = 0; // CLOCK_MONOTONIC span (clock-event reasons are matched to it)
    std::vector<std::string> clockEventReasons; // NVML's reasons seen while it ran (GEMM)
    // The judgement (perf/verdict.h).
    std::optional<Expected> expected;
    std::optional<double> ratio;
    Verdict verdict = Verdict::Unknown;
    std::string rule;
};

// "GPU 0 -> GPU 1", "GPU 0", "GPUs 0-3", "host".
std::string figureWhere(const Figure& f);
// "h2d_pinned GPU 0", unique within a run.
std::string figureKey(const Figure& f);
// "1 GiB", "64 MiB", "4 KiB".
std::string sizeText(std::uint64_t bytes);

} // namespace stackscope::perf
