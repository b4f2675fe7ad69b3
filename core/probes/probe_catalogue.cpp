// The probe catalogue: every op probe the torch module runs (core/torch/probe_ops.cpp), with its tolerance.
#include "core/probes/probe_catalogue.h"

#include <algorithm>
#include <map>

namespace stackscope {

const std::vector<ErrorModelSpec>& errorModels()
{
    // The torch module computes these bounds (core/torch/probe_checks.cpp, probe_ops.cpp) from the constants in
    // core/probes/error_model.h; u is the unit roundoff of the format (fp32 2^-24, fp16 2^-11, bf16 2^-8).
    static const std::vector<ErrorModelSpec> m {
        {"exact", "bit-exact", "copies and fills must reproduce their source"},
        {"dot", "|err| <= u_out (|r| + g) + g, g = (gamma_n(u_acc) + 2 u_in) sum|a||b|",
         "a dot product of depth n in any order (Higham, Accuracy and Stability of Numerical Algorithms, eq. 3.5), "
         "accumulated in float32 on GPUs (TF32 inputs where PyTorch allows it: convolutions by default) and CPUs"},
        {"dot16", "as dot, with u_out the 16-bit format's; where the CPU path accumulates in 16 bits (PyTorch < 2.1 "
                  "without oneDNN bfloat16) gamma_n is Higham & Mary's probabilistic bound with lambda = 8",
         "PyTorch's reference CPU gemm accumulated 16-bit products in 16 bits before "
         "https://github.com/pytorch/pytorch/pull/96074; GPUs accumulate in float32 (reduced-precision split-K off)"},
        {"elementwise", "|err| <= 16 u (sum of the terms' magnitudes)",
         "sin/exp within 2 ulp on SLEEF, CUDA and ROCm math libraries, one rounding per + - *"},
        {"sum", "|err| <= gamma_n(u) sum|x|; max exact", "a sum of n terms in any order (Higham, eq. 4.4)"},
        {"norm", "mean within gamma_{n+1} mean|x|, variance within 4 gamma_n (1 + mu^2/var), rsqrt 4u",
         "Chan, Golub & LeVeque 1983 (https://doi.org/10.1080/00031305.1983.10483115) for two-pass and Welford variance"},
        {"softmax", "relative |err| <= u (|x_i - m| + max|x_j - m|) + gamma_n(u) + 12u",
         "the subtraction's rounding grows through exp; a sum of n positive terms; one division"},
        {"attention", "S = q k^T as dot (stored in the dtype); P within expm1(|dS_i| + max|dS_j|) plus the softmax model "
                      "in fp32 and P's rounding to the dtype; out = P v as dot with P's error through |v|",
         "a perturbation dS of the scores scales each probability by exp(dS_i - sum_j P_j dS_j); fused kernels "
         "(flash, memory-efficient, cuDNN, AOTriton) keep S in float32 and round P to the dtype before P v"},
        {"stat", "mean and std of 2^20 samples within 10 standard errors", "randn; chance of a false alarm ~1e-23"},
        {"none", "not compared", "the probe reports facts (names, sizes, bandwidth)"},
    };
    return m;
}

const ErrorModelSpec* findErrorModel(const std::string& key)
{
    const auto& m = errorModels();
    auto it = std::find_if(m.begin(), m.end(), [&](const ErrorModelSpec& d) { return d.key == key; });
    return it == m.end() ? nullptr : &*it;
}

const std::vector<ProbeSpec>& probeCatalogue()
{
    using S = ProbeScope;
    using R = ProbeRuntime;
    // Python-only probes that are slow when healthy get their own limit. torch.compile: the first compile took 28 s
    // on the H100 machine (issue 14) and compiles C++ on a CPU; 300 s is ten times that. Distributed: every rank is a
    // fresh interpreter that imports torch (14.5-21 s each on the 2-core build machine under load, two at once
    // about twice that, tests/bench/RESULTS.md); 180 s is four times two imports at once.
    constexpr int kCompileSeconds = 300, kDistributedSeconds = 180;
    static const std::vector<ProbeSpec> c {
        {"device_info", "device and properties", "libtorch sees the device, a first op runs, name, memory, compute capability", "none", S::AnyDevice},
        {"alloc_zeros", "zeros", "a zero-filled 4 MiB tensor reads back as zeros", "exact", S::AnyDevice},
        {"alloc_empty_1gib", "empty 1 GiB", "1 GiB is allocated, filled and summed (on the CPU 64 MiB of host memory)", "exact", S::AnyDevice},
        {"randn", "randn", "the random generator's mean and standard deviation", "stat", S::AnyDevice},
        {"elementwise", "elementwise", "a*b + sin(a) - exp(b/4) on 512x512", "elementwise", S::AnyDevice},
        {"reduction", "reduction", "sum, mean and max over 1024x1024", "sum", S::AnyDevice},
        {"matmul_fp32", "matmul fp32", "512x512 matmul in float32 (BLAS)", "dot", S::AnyDevice},
        {"matmul_fp16", "matmul fp16", "512x512 matmul in float16 (BLAS, tensor cores)", "dot16", S::AnyDevice},
        {"matmul_bf16", "matmul bf16", "512x512 matmul in bfloat16 (BLAS, tensor cores)", "dot16", S::AnyDevice},
        {"linear_fp32", "linear fp32 fwd+bwd", "linear with bias forward and backward: the addmm path cuBLASLt/hipBLASLt take", "dot", S::AnyDevice},
        {"linear_bf16", "linear bf16 fwd+bwd", "the same in bfloat16, where hipBLASLt fails on unsupported GPUs", "dot16", S::AnyDevice},
        {"conv2d", "conv2d", "3x3 convolution with bias, 8x16x32x32 (cuDNN/MIOpen)", "dot", S::AnyDevice},
        {"batch_norm", "batch_norm", "training-mode batch norm and its running statistics", "norm", S::AnyDevice},
        {"layer_norm", "layer_norm", "layer norm over 512 features", "norm", S::AnyDevice},
        {"softmax", "softmax", "softmax over 1000 classes", "softmax", S::AnyDevice},
        {"autocast_bf16_mlp", "autocast bf16 MLP", "a two-layer MLP forward under autocast(bfloat16)", "dot16", S::AnyDevice},
        {"copy_h2d", "copy host to device", "256 MiB from pinned host memory, bandwidth and equality (on the CPU 16 MiB host to host, equality only)", "exact", S::AnyDevice},
        {"copy_d2h", "copy device to host", "256 MiB to host memory, bandwidth and equality (on the CPU 16 MiB host to host, equality only)", "exact", S::AnyDevice},
        {"peer_copy", "peer copy", "64 MiB from this GPU to the next one", "exact", S::MultiGpu},
        {"all_reduce", "all-reduce", "c10d all_reduce (sum) over one rank per visible GPU with NCCL/RCCL (NCCL_DEBUG=INFO lines kept), two Gloo ranks on the CPU", "sum", S::AnyDevice, R::Any, kDistributedSeconds},
        {"broadcast", "broadcast", "c10d broadcast from rank 0 over the same ranks, bit-exact on every rank", "exact", S::AnyDevice, R::LibtorchOnly, kDistributedSeconds},
        {"barrier", "barrier", "c10d barrier over the same ranks: every rank gets through", "none", S::AnyDevice, R::LibtorchOnly, kDistributedSeconds},
        {"stackscope_kernel", "StackScope VPOC kernel", "one launch of StackScope's own VPOC kernel (CUDA or HIP module) on synthetic trades, equal to the CPU's profiles", "exact", S::GpuOnly, R::LibtorchOnly},
        {"memory_stats", "memory allocated/reserved", "the caching allocator's allocated and reserved bytes while 64 MiB are held", "none", S::AnyDevice},
        {"torch_compile_fn", "torch.compile function", "torch.compile (inductor) of a*b + sin(a) - exp(b/4): first call (the compile) and second call timed", "elementwise", S::AnyDevice, R::PythonOnly, kCompileSeconds},
        {"torch_compile_mlp", "torch.compile MLP step", "a compiled two-layer MLP's forward and backward with an SGD step, first (compile) and second step timed", "dot", S::AnyDevice, R::PythonOnly, kCompileSeconds},
        {"sdpa", "scaled_dot_product_attention", "attention under each backend (math, flash, memory-efficient, cuDNN; AOTriton on ROCm) and PyTorch's default pick, each against a float64 reference", "attention", S::AnyDevice, R::PythonOnly},
        {"data_parallel", "nn.DataParallel", "forward and backward of a linear layer over every visible GPU", "dot", S::GpuOnly, R::PythonOnly},
        {"dist_gloo", "torch.distributed gloo", "init_process_group, all_reduce, broadcast, barrier over one process per GPU (two on the CPU)", "sum", S::AnyDevice, R::PythonOnly, kDistributedSeconds},
        {"dist_nccl", "torch.distributed nccl", "the same over NCCL (RCCL on ROCm), one process per GPU, NCCL_DEBUG=INFO captured", "sum", S::GpuOnly, R::PythonOnly, kDistributedSeconds},
        {"fsdp_step", "FSDP step", "one FullyShardedDataParallel forward, backward and optimizer step over every GPU", "dot", S::MultiGpu, R::PythonOnly, kDistributedSeconds},
        {"user_checks", "the seed user's checks", "tensor creation, matmul, conv2d, batchnorm, memory allocated/reserved, as a user's first script does them", "dot", S::AnyDevice, R::PythonOnly},
    };
    return c;
}

const ProbeSpec* findProbe(const std::string& id)
{
    const auto& c = probeCatalogue();
    auto it = std::find_if(c.begin(), c.end(), [&](const ProbeSpec& p) { return p.id == id; });
    return it == c.end() ? nullptr : &*it;
}

std::vector<std::string> probesForDevice(const std::string& device, const std::vector<std::string>& wanted, bool python)
{
    std::vector<std::string> out;
    for (const auto& p : probeCatalogue()) {
        if (p.runtime == (python ? ProbeRuntime::LibtorchOnly : ProbeRuntime::PythonOnly))
            continue;
        if (device == "cpu" && (p.scope == ProbeScope::MultiGpu || p.scope == ProbeScope::GpuOnly))
            continue;
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), p.id) == wanted.end())
            continue;
        out.push_back(p.id);
    }
    return out;
}

bool runsApartOnCpu(const std::string& id)
{
    return gpuWorkerGroup(id) == GpuWorkerGroup::Compile;
}

bool startsRankProcesses(const std::string& id)
{
    return id == "dist_gloo" || id == "dist_nccl" || id == "fsdp_step";
}

GpuWorkerGroup gpuWorkerGroup(const std::string& id)
{
    using G = GpuWorkerGroup;
    static const std::map<std::string, G> groups {
        {"alloc_empty_1gib", G::Alone}, {"copy_h2d", G::Alone}, {"copy_d2h", G::Alone}, {"peer_copy", G::Alone},
        {"torch_compile_fn", G::Compile}, {"torch_compile_mlp", G::Compile},
        {"all_reduce", G::Distributed}, {"broadcast", G::Distributed}, {"barrier", G::Distributed},
        {"dist_gloo", G::Distributed}, {"dist_nccl", G::Distributed}, {"fsdp_step", G::Distributed},
    };
    auto it = groups.find(id);
    return it == groups.end() ? G::Shared : it->second;
}

std::chrono::milliseconds probeTimeout(const std::string& id, std::chrono::milliseconds timeout)
{
    const auto* p = findProbe(id);
    return p ? std::max(timeout, std::chrono::milliseconds(p->minTimeoutSeconds * 1000LL)) : timeout;
}

} // namespace stackscope
