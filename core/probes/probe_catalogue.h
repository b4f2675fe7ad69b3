// The probe catalogue as data: ids, what each checks, on which devices, and the tolerance per dtype.
#pragma once

#include <string>
#include <vector>

namespace stackscope {

enum class ProbeScope {
    AnyDevice, // every GPU and the CPU
    MultiGpu,  // GPUs only, and only meaningful with two or more (unsupported with why otherwise)
    GpuOnly,   // GPUs only (StackScope's own kernels)
};

struct DtypeTolerance {
    std::string dtype; // "fp32", "fp32/tf32", "fp16", "bf16", "exact"
    double tolerance = 0.0;
    std::string why;
};

struct ProbeSpec {
    std::string id;     // "matmul_fp16": the key in results and in the diagnosis rules
    std::string title;  // "matmul fp16"
    std::string checks; // what a person learns from it
    std::string dtype;  // a key of dtypeTolerances()
    ProbeScope scope = ProbeScope::AnyDevice;
};

// In the order the grid shows them.
const std::vector<ProbeSpec>& probeCatalogue();
const ProbeSpec* findProbe(const std::string& id);
// How results are compared with the float64 CPU reference: max |out - ref| / max(1, max |ref|) <= tolerance.
const std::vector<DtypeTolerance>& dtypeTolerances();
const DtypeTolerance* findTolerance(const std::string& dtype);
// Probe ids that apply to a device ("cpu" or a GPU index), in catalogue order.
std::vector<std::string> probesForDevice(const std::string& device, const std::vector<std::string>& wanted = {});

} // namespace stackscope
