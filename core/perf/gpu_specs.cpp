#include "core/perf/gpu_specs.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace stackscope::perf {

namespace {

constexpr const char* kH100Sheet = "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet";
constexpr const char* kH200Page = "https://www.nvidia.com/en-us/data-center/h200/";
constexpr const char* kA100Sheet =
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
constexpr const char* kMi300xPage = "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html";
constexpr const char* kCvs = "https://github.com/ROCm/cvs/blob/main/input/config_file/health/mi300_health_config.json";

const std::vector<GpuSpec>& table()
{
    // fp64 and fp32 are the matrix (tensor-core) peaks a GEMM can use: FP64 Tensor Core on A100/H100/H200, FP32 matrix
    // on MI300X; NVIDIA's fp32 GEMM runs on the CUDA cores (TF32 off). Most specific first: "h100 nvl" and "h100 pcie" before "h100".
    static const std::vector<GpuSpec> t {
        {"h200", "NVIDIA H200 SXM 141GB", 4800, 67, 67, 494.5, 989.5, 989.5, kH200Page, 2333, 37.5, "H200 (id 2335)"},
        {"h100 nvl", "NVIDIA H100 NVL", 3900, 60, 60, 417.5, 835.5, 835.5, kH100Sheet, 2043, 25.575, "H100NVL (id 2321)"},
        {"h100 pcie", "NVIDIA H100 PCIe", 2000, 51, 51, 378, 756, 756, kH100Sheet, 1230, 15.375, "P1010 (id 2331)"},
        {"h100", "NVIDIA H100 SXM5 80GB", 3350, 67, 67, 494.5, 989.5, 989.5, kH100Sheet, 1905, 29.25, "H100 80GB HBM3 (id 2330)"},
        {"a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", 2039, 19.5, 19.5, 156, 312, 312, kA100Sheet, 1173, 6.975,
         "A100-SXM4-80GB (id 20b2)"},
        {"a100-pcie", "NVIDIA A100 PCIe 40GB", 1555, 19.5, 19.5, 156, 312, 312, kA100Sheet, 969.75, 5.963, "A100 PCIe (id 20f1)"},
        {"a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", 1555, 19.5, 19.5, 156, 312, 312, kA100Sheet},
        {"a100 80gb pcie", "NVIDIA A100 PCIe 80GB", 1935, 19.5, 19.5, 156, 312, 312, kA100Sheet},
        {"mi300x", "AMD Instinct MI300X", 5300, 163.4, 163.4, 653.7, 1307.4, 1307.4, kMi300xPage, std::nullopt, std::nullopt,
         "", 3885, kCvs},
    };
    return t;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

std::optional<GpuSpec> findGpuSpec(const std::string& driverName)
{
    const auto name = lower(driverName);
    for (const auto& s : table())
        if (name.find(s.match) != std::string::npos)
            return s;
    return std::nullopt;
}

double peakTflops(const GpuSpec& s, const std::string& dtype)
{
    if (dtype == "fp64")
        return s.fp64;
    if (dtype == "fp32")
        return s.fp32;
    if (dtype == "tf32")
        return s.tf32;
    if (dtype == "bf16")
        return s.bf16;
    if (dtype == "fp16")
        return s.fp16;
    return 0;
}

} // namespace stackscope::perf
