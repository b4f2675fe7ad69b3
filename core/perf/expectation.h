// What each figure of the suite should reach on this machine, from the snapshot's link state (PCIe speed and width
// of every link up to the root, NVLinks), the per-SKU table (gpu_specs.h) and references measured in the same run.
#pragma once

#include "core/perf/perf_types.h"
#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>
#include <vector>

namespace stackscope::perf {

// The PCIe model: per direction, lanes x rate x line code (8b/10b to 5 GT/s, 128b/130b from 8 GT/s) x the share of
// a 256-byte-payload TLP that is payload (24 bytes of framing, sequence number, 16-byte header and LCRC).
inline constexpr double kTlpPayload = 256, kTlpOverhead = 24;
inline constexpr const char* kPcieModelSource = "https://docs.amd.com/v/u/en-US/wp350";
inline constexpr const char* kPcieRatesSource = "https://pcisig.com/faq?field_category_value%5B%5D=pci_express_3.0";
inline constexpr const char* kNvlinkSource = "https://www.nvidia.com/en-us/data-center/nvlink/";
inline constexpr const char* kNcclTestsBusBw = "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md";

// Per-direction payload bandwidth of `lanes` at `gts`, in GB/s.
double pcieGBs(double gts, int lanes);

// The slowest link on a GPU's path to the root (its maximum speed and width: what the slot can do, also when the
// link idles at a lower speed), or nullopt when the snapshot has no readable link. `narrowNote` says when a link
// trained to fewer lanes than it supports.
struct PciePath {
    double gts = 0;
    int lanes = 0;
    double gbs = 0;
    std::string device;     // the PCI address of the bottleneck
    std::string narrowNote; // "0000:01:00.0 runs x8 of x16"
};
std::optional<PciePath> pciePath(const GpuInfo& g);

// NVLinks that carry traffic from `a` to `b` (direct, or to an NVSwitch), and their per-direction GB/s.
struct NvlinkPath {
    int links = 0;
    double perLinkGBs = 0;
    double gbs = 0;
    std::string generation; // "NVLink 4.0"
};
std::optional<NvlinkPath> nvlinkPath(const Snapshot& s, int a, int b);

// Expected value of `f`, or nullopt with `whyUnknown` set. `run` holds the run's other figures (references
// measured in the same run: the host memcpy for pageable copies, the peer copies for collectives).
std::optional<Expected> expectedFor(const Figure& f, const Snapshot& s, const std::vector<Figure>& run,
                                    std::string& whyUnknown);

// What each link of a snapshot should carry, without a measurement (`inspect --json`): host -> GPU and GPU -> host
// pinned for every GPU and the peer copy of every ordered GPU pair; each a figure marked not measured, with its
// expected value, or in `rule` why there is none.
std::vector<Figure> linkExpectations(const Snapshot& s);

} // namespace stackscope::perf
