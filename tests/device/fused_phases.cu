// Where a step of the fused training kernel spends its time (issue 18): the kernel's own phases timed with clock64
// by thread 0 after each barrier, on the default model (12 -> 32 -> 16 -> 1) at a given batch, next to the plain
// kernel's microseconds a step. Nsight Compute's source view needs PC sampling, which the GPU machine's VM does not
// allow, so the kernel times itself. Built and run by tests/device/fused_phases.sh with nvcc alone (no torch, no CMake):
//   nvcc -std=c++17 -O3 -arch=sm_90 -I. -DSTACKSCOPE_FUSED_MLP_GPU tests/device/fused_phases.cu -o fused_phases
//   ./fused_phases 256
// It also checks the kernel's gradients of one batch against the CPU reference (fused_mlp_cpu.cpp), as the trainer
// does before it uses the kernel (kGradientTolerance).
#include "core/torch/fused_mlp_cpu.cpp"
#include "core/torch/fused_mlp_kernel.cu"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace stackscope::trainer::fused {
namespace {

constexpr int kMaxPhases = 32;

// BlockPar whose every phase adds its cycles (thread 0's clock between the barriers that close it) to clocks[i].
struct ClockPar : BlockPar {
    long long* clocks; // [kMaxPhases], shared
    int phase = 0;
    long long last = 0;

    __device__ void mark()
    {
        if (threadIdx.x == 0) {
            const long long now = clock64();
            if (phase < kMaxPhases)
                clocks[phase] += now - last;
            last = now;
        }
        ++phase;
    }
    template <class F> __device__ void each(int64_t n, F f) { BlockPar::each(n, f); mark(); }
    template <class F> __device__ void grid(int items, int rows, F f) { BlockPar::grid(items, rows, f); mark(); }
    template <class F> __device__ void rows(int64_t n, F f) { BlockPar::rows(n, f); mark(); }
    template <class F> __device__ float rowsSum(int64_t n, F f)
    {
        const float v = BlockPar::rowsSum(n, f);
        mark();
        return v;
    }
    template <class D, class T, class Fin> __device__ float rowSums(int64_t n, int rows, D decode, T term, Fin finish)
    {
        const float v = BlockPar::rowSums(n, rows, decode, term, finish);
        mark();
        return v;
    }
    template <class F> __device__ void single(F f) { BlockPar::single(f); mark(); }
};

__global__ void __launch_bounds__(kThreads) clockedSteps(Shape s, Buffers b, Hyper hp, int steps, long long* out,
                                                         int* phases)
{
    __shared__ float partial[kThreads / 32];
    __shared__ float total;
    __shared__ long long clocks[kMaxPhases];
    if (threadIdx.x < kMaxPhases)
        clocks[threadIdx.x] = 0;
    __syncthreads();
    ClockPar par;
    par.partial = partial;
    par.total = &total;
    par.clocks = clocks;
    for (int k = 0; k < steps; ++k) {
        par.phase = 0;
        par.last = clock64();
        step(s, b, hp, static_cast<int64_t>(k) * s.batch, false, par);
    }
    __syncthreads();
    if (threadIdx.x < kMaxPhases)
        out[threadIdx.x] = clocks[threadIdx.x];
    if (threadIdx.x == 0)
        *phases = par.phase;
}

template <class T> T* deviceCopy(const std::vector<T>& v)
{
    T* p = nullptr;
    cudaMalloc(&p, v.size() * sizeof(T));
    cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return p;
}

int run(int batch, int steps)
{
    const int widths[2] = {32, 16};
    Shape s;
    makeShape(s, 12, widths, 2, batch);
    const int64_t rows = static_cast<int64_t>(batch) * steps;
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> params(static_cast<size_t>(s.parameters)), x(static_cast<size_t>(rows * s.inputs)),
        y(static_cast<size_t>(rows));
    for (auto& v : params)
        v = 0.1f * normal(rng);
    for (auto& v : x)
        v = normal(rng);
    for (auto& v : y)
        v = normal(rng);
    std::vector<int64_t> perm(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i)
        perm[static_cast<size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    const std::vector<float> zeros(static_cast<size_t>(s.parameters), 0.0f);
    Buffers b {deviceCopy(params), deviceCopy(zeros), deviceCopy(zeros), deviceCopy(zeros),
               deviceCopy(std::vector<float>(1, 0.0f)), deviceCopy(std::vector<float>(1, 0.0f)), deviceCopy(x),
               deviceCopy(y), deviceCopy(perm),
               deviceCopy(std::vector<float>(static_cast<size_t>(s.slotCount) * batch, 0.0f))};
    const Hyper hp;
    {
        std::vector<float> hostGrads(zeros), hostAvg(zeros), hostAvgSq(zeros), hostStep(1, 0.0f), hostLoss(1, 0.0f),
            hostScratch(static_cast<size_t>(s.slotCount) * batch, 0.0f), hostParams(params);
        const Buffers h {hostParams.data(), hostGrads.data(), hostAvg.data(), hostAvgSq.data(), hostStep.data(),
                         hostLoss.data(), x.data(), y.data(), perm.data(), hostScratch.data()};
        stepOnCpu(s, h, hp, 0, true);
        launchSteps(s, b, hp, 0, 1, true, nullptr);
        std::vector<float> gpuGrads(zeros.size());
        cudaMemcpy(gpuGrads.data(), b.grads, gpuGrads.size() * sizeof(float), cudaMemcpyDeviceToHost);
        const double mismatch = relativeMismatch(gpuGrads.data(), hostGrads.data(), s.parameters);
        std::printf("gradients of one batch vs the CPU reference: %.2e of the largest (allowed %.0e): %s\n", mismatch,
                    kGradientTolerance, mismatch <= kGradientTolerance ? "ok" : "WRONG");
        if (!(mismatch <= kGradientTolerance))
            return 1;
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    launchSteps(s, b, hp, 0, steps, false, nullptr); // warm-up
    cudaEventRecord(e0);
    const std::string err = launchSteps(s, b, hp, 0, steps, false, nullptr);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (!err.empty() || cudaGetLastError() != cudaSuccess) {
        std::printf("kernel failed: %s\n", err.c_str());
        return 1;
    }
    long long* out = nullptr;
    int* phases = nullptr;
    cudaMalloc(&out, kMaxPhases * sizeof(long long));
    cudaMalloc(&phases, sizeof(int));
    clockedSteps<<<1, kThreads>>>(s, b, hp, steps, out, phases);
    std::vector<long long> clocks(kMaxPhases);
    int n = 0;
    cudaMemcpy(clocks.data(), out, kMaxPhases * sizeof(long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(&n, phases, sizeof(int), cudaMemcpyDeviceToHost);
    cudaDeviceProp prop {};
    cudaGetDeviceProperties(&prop, 0);
    int clockKHz = 0;
    cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0);
    long long sum = 0;
    for (int i = 0; i < n && i < kMaxPhases; ++i)
        sum += clocks[static_cast<size_t>(i)];
    std::printf("%s, batch %d, %d steps: %.2f us a step (plain kernel); clocked: %lld cycles a step (%.2f us at %d MHz)\n",
                prop.name, batch, steps, 1000.0 * ms / steps, sum / steps, 1e3 * double(sum) / steps / clockKHz,
                clockKHz / 1000);
    for (int i = 0; i < n && i < kMaxPhases; ++i)
        std::printf("  phase %2d: %8lld cycles a step, %5.1f %%\n", i, clocks[static_cast<size_t>(i)] / steps,
                    100.0 * double(clocks[static_cast<size_t>(i)]) / double(sum));
    return 0;
}

} // namespace
} // namespace stackscope::trainer::fused

int main(int argc, char** argv)
{
    const int batch = argc > 1 ? std::atoi(argv[1]) : 256;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 1000;
    return stackscope::trainer::fused::run(batch, steps);
}
