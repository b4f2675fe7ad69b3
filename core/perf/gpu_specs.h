// What a GPU model should reach: datasheet peaks and the references NVIDIA's DCGM judges against, per SKU, with the
// public page each number comes from. Matched on the name the driver reports.
#pragma once

#include <optional>
#include <string>

namespace stackscope::perf {

struct GpuSpec {
    const char* match; // lower-case text the driver's name contains ("h100 80gb hbm3"); the first row that matches wins
    const char* title; // "NVIDIA H100 SXM5 80GB"
    double memoryPeakGBs = 0; // datasheet memory bandwidth
    // Dense peak TFLOP/s per dtype from the datasheet (0: not listed). The datasheets list tensor-core figures with
    // sparsity; these are half of those, as the datasheets' footnotes say.
    double fp64 = 0, fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0;
    const char* specSource = "";
    // DCGM's pass thresholds (diag-skus.yaml.in: "dcgmproftester ... measures X, multiply by .75"): the memory test's
    // minimum_bandwidth and the fp32 stress test's target_stress; its reference is the threshold / 0.75.
    std::optional<double> dcgmMemoryMinGBs;
    std::optional<double> dcgmFp32MinTflops;
    const char* dcgmEntry = ""; // "H100 80GB HBM3 (id 2330)"
    // A measured memory reference from the vendor's own acceptance suite where DCGM has none (AMD CVS).
    std::optional<double> vendorTriadGBs;
    const char* vendorTriadSource = "";
};

// nullopt for a GPU the table does not list (its figures get no expected value: unknown, not "ok").
std::optional<GpuSpec> findGpuSpec(const std::string& driverName);

// The peak for a dtype id ("fp32", "tf32", "bf16", "fp16", "fp64"); 0 where not listed.
double peakTflops(const GpuSpec& s, const std::string& dtype);

inline constexpr const char* kDcgmSkus = "https://github.com/NVIDIA/DCGM/blob/master/nvvs/diag-skus.yaml.in";
// DCGM's rule: a minimum is 0.75 of a reference measured on a healthy part of the same SKU.
inline constexpr double kDcgmFraction = 0.75;

} // namespace stackscope::perf
