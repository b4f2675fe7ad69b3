// The fused training step on the GPU: one thread block runs whole steps (fused::step's phases with a barrier
// between them) for as many consecutive steps as asked, so a step costs no kernel launch of its own.
#include "core/torch/fused_mlp.h"

#include <cuda_runtime.h>

namespace stackscope::trainer::fused {

namespace {

constexpr int kThreads = 1024;

// A row's lane group on the GPU: `lanes` consecutive threads of one warp (a power of two up to 32).
struct WarpLanes {
    int lane;
    int lanes;
    unsigned mask; // the group's threads in the warp

    __device__ float total(float v) const
    {
        for (int o = lanes >> 1; o > 0; o >>= 1)
            v += __shfl_xor_sync(mask, v, o);
        return v;
    }
    __device__ void sync() const { __syncwarp(mask); }
};

// fused::step's phases for one thread block: items strided over the threads, a barrier after each phase.
struct BlockPar {
    float* partial; // [kThreads / 32]
    float* total;

    template <class F> __device__ void each(int64_t n, F f)
    {
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
            f(i);
        __syncthreads();
    }
    // Item (j, r) of items x rows at index j * rows + r, strided over the block: the thread steps its (j, r) by the
    // block's size instead of dividing each index (a 64-bit division is tens of instructions, more than a small item).
    template <class F> __device__ void grid(int items, int rows, F f)
    {
        const int64_t n = static_cast<int64_t>(items) * rows;
        const int stepJ = static_cast<int>(blockDim.x) / rows, stepR = static_cast<int>(blockDim.x) % rows;
        int j = static_cast<int>(threadIdx.x) / rows, r = static_cast<int>(threadIdx.x) % rows;
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
            f(j, r);
            j += stepJ;
            r += stepR;
            if (r >= rows) {
                r -= rows;
                ++j;
            }
        }
        __syncthreads();
    }
    // The block's total of each thread's v, returned to every thread.
    __device__ float blockTotal(float v)
    {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        if ((threadIdx.x & 31) == 0)
            partial[threadIdx.x >> 5] = v;
        __syncthreads(); // also: every item's writes are visible to the block
        if (threadIdx.x == 0) {
            float s = 0;
            for (int w = 0; w < static_cast<int>(blockDim.x >> 5); ++w)
                s += partial[w];
            *total = s;
        }
        __syncthreads();
        const float out = *total;
        __syncthreads(); // partial and total are free for the next sum
        return out;
    }
    template <class F> __device__ float sum(int64_t n, F f)
    {
        float v = 0;
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
            v += f(i);
        return blockTotal(v);
    }
    // A warp per item, its lanes over the rows (consecutive rows are consecutive addresses).
    template <class D, class T, class Fin> __device__ float rowSums(int64_t n, int rows, D decode, T term, Fin finish)
    {
        const int lane = threadIdx.x & 31;
        float mine = 0;
        for (int64_t i = threadIdx.x >> 5; i < n; i += blockDim.x >> 5) {
            const auto d = decode(i);
            float v = 0;
            for (int r = lane; r < rows; r += 32)
                v += term(d, r);
            for (int o = 16; o > 0; o >>= 1)
                v += __shfl_xor_sync(0xffffffffu, v, o);
            if (lane == 0)
                mine += finish(i, v);
        }
        return blockTotal(mine);
    }
    // Rows over lane groups as wide as the block allows (n rows x lanes <= threads): a LayerNorm row's three
    // passes over its width then run `lanes` times shorter than on one thread.
    template <bool Sum, class F> __device__ float rowGroups(int64_t n, F f)
    {
        int lanes = 1;
        while (lanes < 32 && n * lanes * 2 <= static_cast<int64_t>(blockDim.x))
            lanes <<= 1;
        const int warpLane = threadIdx.x & 31;
        const WarpLanes g {static_cast<int>(threadIdx.x) & (lanes - 1), lanes,
                           lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u) << (warpLane & ~(lanes - 1))};
        float mine = 0;
        for (int64_t r = threadIdx.x / lanes; r < n; r += blockDim.x / lanes) {
            const float v = f(r, g);
            if (g.lane == 0)
                mine += v;
        }
        if (Sum)
            return blockTotal(mine);
        __syncthreads();
        return 0;
    }
    template <class F> __device__ void rows(int64_t n, F f)
    {
        rowGroups<false>(n, [&](int64_t r, const WarpLanes& g) {
            f(r, g);
            return 0.0f;
        });
    }
    template <class F> __device__ float rowsSum(int64_t n, F f) { return rowGroups<true>(n, f); }
    template <class F> __device__ void single(F f)
    {
        if (threadIdx.x == 0)
            f();
        __syncthreads();
    }
};

__global__ void __launch_bounds__(kThreads) fusedSteps(Shape s, Buffers b, Hyper hp, int64_t first, int steps,
                                                       int gradientsOnly)
{
    __shared__ float partial[kThreads / 32];
    __shared__ float total;
    BlockPar par {partial, &total};
    for (int k = 0; k < steps; ++k)
        step(s, b, hp, first + static_cast<int64_t>(k) * s.batch, gradientsOnly != 0, par);
}

} // namespace

bool haveGpuKernel()
{
    return true;
}

std::string launchSteps(const Shape& s, const Buffers& b, const Hyper& hp, int64_t first, int steps,
                        bool gradientsOnly, void* stream)
{
    if (steps <= 0)
        return {};
    fusedSteps<<<1, kThreads, 0, static_cast<cudaStream_t>(stream)>>>(s, b, hp, first, steps, gradientsOnly ? 1 : 0);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? std::string()
                            : std::string("the fused training kernel did not start: ") + cudaGetErrorString(e);
}

} // namespace stackscope::trainer::fused
