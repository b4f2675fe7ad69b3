// The probes' rounding-error model: unit roundoffs, the bounds each comparison uses, and where they come from.
// Header-only and dependency-free: the catalogue (core) documents it and the torch module computes with it,
// so both read the same numbers. docs/probe-error-model.md explains the model and its measured margins.
#pragma once

#include <cmath>
#include <limits>

namespace stackscope::errormodel {

// Unit roundoff u = 2^-p of a format with p significand bits, round to nearest (Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., table 2.1): |fl(x) - x| <= u |x|.
inline constexpr double kUnitFp64 = 0x1p-53;
inline constexpr double kUnitFp32 = 0x1p-24;
inline constexpr double kUnitTf32 = 0x1p-11; // 10 explicit mantissa bits, as cuBLAS/cuDNN round fp32 inputs
inline constexpr double kUnitFp16 = 0x1p-11;
inline constexpr double kUnitBf16 = 0x1p-8;

// Deterministic bound of n accumulated roundings, gamma_n = n u / (1 - n u) (Higham, lemma 3.1). A sum of
// products of depth n computed in any order with unit roundoff u is off by at most gamma_n * sum |a_i b_i|
// (Higham, eq. 3.5). Infinite when n u >= 1: no deterministic bound exists then.
inline double gamma(double n, double u)
{
    const double nu = n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

// Probabilistic bound for the same sum when the roundings are independent and mean-zero (Higham & Mary,
// "A New Approach to Probabilistic Rounding Error Analysis", SIAM J. Sci. Comput. 41(5), 2019, theorem 2.4):
// gamma~_n(lambda) = exp(lambda sqrt(n) u + n u^2 / (1 - u)) - 1 holds with probability at least
// 1 - 2n exp(-lambda^2 (1 - u)^2 / 2). With lambda = kLambda and n <= 4096 the chance that a healthy element
// exceeds it is below 1e-11, so a 512x512 result (262,144 elements) is called wrong by chance less than once in
// 300,000 runs. Used only where a path accumulates in a 16-bit format, where gamma_n is infinite.
inline constexpr double kLambda = 8.0;
inline double gammaProbabilistic(double n, double u, double lambda = kLambda)
{
    return std::expm1(lambda * std::sqrt(n) * u + n * u * u / (1.0 - u));
}

// How a dot-product op (matmul, linear, convolution) accumulates on one path.
struct DotPath {
    double uOut = kUnitFp32;   // rounding of the stored result
    double uAcc = kUnitFp32;   // rounding of each accumulation step
    double uIn = 0.0;          // rounding the path applies to its inputs (TF32: 2^-11; none: 0)
    bool storageAccumulation = false; // accumulates in the 16-bit storage format: the probabilistic bound
};

// Bound on |computed - exact| for one element of a dot product of depth n whose exact value is r and whose
// sum of |a_i||b_i| (plus |bias|) is s: the accumulation term g, then the output's rounding of (|r| + g).
// Input rounding by the path (TF32) adds (2 uIn + uIn^2) s: each product of two rounded inputs.
inline double dotBound(double r, double s, double n, const DotPath& p)
{
    const double acc = p.storageAccumulation ? gammaProbabilistic(n, p.uAcc) : gamma(n, p.uAcc);
    const double g = (acc + 2.0 * p.uIn + p.uIn * p.uIn) * s;
    return p.uOut * (std::fabs(r) + g) + g;
}

// Elementwise functions: sin, exp and friends are within 2 ulp on the libraries PyTorch uses (SLEEF u10
// variants on the CPU: 1.0 ulp; CUDA's sinf/expf: 2 ulp, CUDA C Programming Guide, "Mathematical Functions";
// ROCm's device libraries: same or better), and 1 ulp <= 2u relative. So each function value is within 4u of
// its magnitude, each + - * adds one rounding, and the bound is kElementwiseUnits * u * (sum of the terms'
// magnitudes), which leaves a factor of two over 4u + 3 roundings for the three-term probe.
inline constexpr double kElementwiseUnits = 16.0;

// Statistical checks (randn): a sample mean of n standard normals has standard error 1/sqrt(n) and the sample
// standard deviation 1/sqrt(2n); a healthy generator is within kSigmas of them except with probability ~1e-23.
inline constexpr double kSigmas = 10.0;

} // namespace stackscope::errormodel
