// The probe catalogue: every op probe the torch module runs (core/torch/probe_ops.cpp), with its tolerance.
#include "core/probes/probe_catalogue.h"

#include <algorithm>

namespace stackscope {

const std::vector<DtypeTolerance>& dtypeTolerances()
{
    // Kept equal to the constants in core/torch/probe_ops.cpp (tests/probes checks the module's answers).
    static const std::vector<DtypeTolerance> t {
        {"exact", 1e-12, "copies and fills must be bit-exact"},
        {"fp32", 1e-4, "float32 accumulation of a few hundred products"},
        {"fp32/tf32", 5e-3, "cuDNN may run float32 convolutions in TF32 (10-bit mantissa) on Ampere and newer"},
        {"fp16", 5e-3, "half output rounding (2^-11) times the accumulation depth"},
        {"bf16", 3e-2, "bfloat16 output rounding (2^-8), two layers deep under autocast"},
        {"stat", 1e-2, "randn: mean and std of 2^20 samples within ten standard errors"},
        {"none", 0.0, "not compared: the probe reports facts (names, sizes, bandwidth)"},
    };
    return t;
}

const DtypeTolerance* findTolerance(const std::string& dtype)
{
    const auto& t = dtypeTolerances();
    auto it = std::find_if(t.begin(), t.end(), [&](const DtypeTolerance& d) { return d.dtype == dtype; });
    return it == t.end() ? nullptr : &*it;
}

const std::vector<ProbeSpec>& probeCatalogue()
{
    using S = ProbeScope;
    static const std::vector<ProbeSpec> c {
        {"device_info", "device and properties", "libtorch sees the device, a first op runs, name, memory, compute capability", "none", S::AnyDevice},
        {"alloc_zeros", "zeros", "a zero-filled 4 MiB tensor reads back as zeros", "exact", S::AnyDevice},
        {"alloc_empty_1gib", "empty 1 GiB", "1 GiB is allocated, filled and summed", "exact", S::AnyDevice},
        {"randn", "randn", "the random generator's mean and standard deviation", "stat", S::AnyDevice},
        {"elementwise", "elementwise", "a*b + sin(a) - exp(b/4) on 512x512", "fp32", S::AnyDevice},
        {"reduction", "reduction", "sum, mean and max over 1024x1024", "fp32", S::AnyDevice},
        {"matmul_fp32", "matmul fp32", "512x512 matmul in float32 (BLAS)", "fp32", S::AnyDevice},
        {"matmul_fp16", "matmul fp16", "512x512 matmul in float16 (BLAS, tensor cores)", "fp16", S::AnyDevice},
        {"matmul_bf16", "matmul bf16", "512x512 matmul in bfloat16 (BLAS, tensor cores)", "bf16", S::AnyDevice},
        {"linear_fp32", "linear fp32 fwd+bwd", "linear with bias forward and backward: the addmm path cuBLASLt/hipBLASLt take", "fp32", S::AnyDevice},
        {"linear_bf16", "linear bf16 fwd+bwd", "the same in bfloat16, where hipBLASLt fails on unsupported GPUs", "bf16", S::AnyDevice},
        {"conv2d", "conv2d", "3x3 convolution with bias, 8x16x32x32 (cuDNN/MIOpen)", "fp32/tf32", S::AnyDevice},
        {"batch_norm", "batch_norm", "training-mode batch norm and its running statistics", "fp32", S::AnyDevice},
        {"layer_norm", "layer_norm", "layer norm over 512 features", "fp32", S::AnyDevice},
        {"softmax", "softmax", "softmax over 1000 classes", "fp32", S::AnyDevice},
        {"autocast_bf16_mlp", "autocast bf16 MLP", "a two-layer MLP forward under autocast(bfloat16)", "bf16", S::AnyDevice},
        {"copy_h2d", "copy host to device", "256 MiB from pinned host memory, bandwidth and equality", "exact", S::AnyDevice},
        {"copy_d2h", "copy device to host", "256 MiB to host memory, bandwidth and equality", "exact", S::AnyDevice},
        {"peer_copy", "peer copy", "64 MiB from this GPU to the next one", "exact", S::MultiGpu},
        {"all_reduce", "all-reduce", "a sum over all GPUs by peer copies", "fp32", S::MultiGpu},
        {"stackscope_kernel", "StackScope VPOC kernel", "one launch of StackScope's own VPOC kernel (CUDA or HIP module) on synthetic trades, equal to the CPU's profiles", "exact", S::GpuOnly},
        {"memory_stats", "memory allocated/reserved", "the caching allocator's allocated and reserved bytes while 64 MiB are held", "none", S::AnyDevice},
    };
    return c;
}

const ProbeSpec* findProbe(const std::string& id)
{
    const auto& c = probeCatalogue();
    auto it = std::find_if(c.begin(), c.end(), [&](const ProbeSpec& p) { return p.id == id; });
    return it == c.end() ? nullptr : &*it;
}

std::vector<std::string> probesForDevice(const std::string& device, const std::vector<std::string>& wanted)
{
    std::vector<std::string> out;
    for (const auto& p : probeCatalogue()) {
        if (device == "cpu" && (p.scope == ProbeScope::MultiGpu || p.scope == ProbeScope::GpuOnly))
            continue;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), p.id) == wanted.end())
            continue;
        out.push_back(p.id);
    }
    return out;
}

} // namespace stackscope
