// The fused step on the CPU: the reference the GPU kernel's math is tested against, and the mismatch measure.
#include "core/torch/fused_mlp.h"

#include <algorithm>
#include <cmath>

namespace stackscope::trainer::fused {

int64_t macsPerRow(const Shape& s)
{
    int64_t macs = s.width[s.layers - 1];
    for (int l = 0; l < s.layers; ++l)
        macs += 2 * static_cast<int64_t>(s.width[l]) * s.in(l);
    return macs;
}

namespace {

// The phases of fused::step run one item after the other.
struct SerialPar {
    template <class F> void each(int64_t n, F f)
    {
        for (int64_t i = 0; i < n; ++i)
            f(i);
    }
    template <class F> void grid(int items, int rows, F f)
    {
        for (int j = 0; j < items; ++j)
            for (int r = 0; r < rows; ++r)
                f(j, r);
    }
    template <class F> float sum(int64_t n, F f)
    {
        float total = 0;
        for (int64_t i = 0; i < n; ++i)
            total += f(i);
        return total;
    }
    template <class F> void rows(int64_t n, F f)
    {
        for (int64_t r = 0; r < n; ++r)
            f(r, OneLane {});
    }
    template <class F> float rowsSum(int64_t n, F f)
    {
        float total = 0;
        for (int64_t r = 0; r < n; ++r)
            total += f(r, OneLane {});
        return total;
    }
    template <class F> void single(F f) { f(); }
    template <class D, class T, class Fin> float rowSums(int64_t n, int rows, D decode, T term, Fin finish)
    {
        float total = 0;
        for (int64_t i = 0; i < n; ++i) {
            const auto d = decode(i);
            float v = 0;
            for (int r = 0; r < rows; ++r)
                v += term(d, r);
            total += finish(i, v);
        }
        return total;
    }
};

} // namespace

void stepOnCpu(const Shape& s, const Buffers& b, const Hyper& hp, int64_t first, bool gradientsOnly)
{
    SerialPar par;
    step(s, b, hp, first, gradientsOnly, par);
}

double relativeMismatch(const float* a, const float* b, int64_t n)
{
    double worst = 0, scale = 0;
    for (int64_t i = 0; i < n; ++i) {
        worst = std::max(worst, std::abs(static_cast<double>(a[i]) - b[i]));
        scale = std::max(scale, std::abs(static_cast<double>(b[i])));
    }
    return scale > 0 ? worst / scale : worst;
}

#ifndef STACKSCOPE_FUSED_MLP_GPU
bool haveGpuKernel()
{
    return false;
}

std::string launchSteps(const Shape&, const Buffers&, const Hyper&, int64_t, int, bool, void*)
{
    // STACKSCOPE_FUSED_MLP_GPU needs a CUDA libtorch and nvcc at build time (STACKSCOPE_CUDA on).
    return "this StackScope build has no GPU kernel for the fused step (built without nvcc, with -DSTACKSCOPE_CUDA=OFF "
           "or against a libtorch without CUDA)";
}
#endif

} // namespace stackscope::trainer::fused
