// The trainer's whole step for small MLPs written once for the CPU and the GPU: the step is a sequence of phases,
// each a set of independent items (one output value of one batch row, one parameter's gradient, ...) that a GPU
// thread block runs in parallel with a barrier between phases, and the CPU runs in a loop. It works on the same
// flat buffers as the libtorch path. The model is trainer_model.h's (Linear -> LayerNorm -> SiLU per hidden layer,
// then Linear to one output, MSE loss); the math is PyTorch's (LayerNorm eps 1e-5 with the biased variance;
// clip_grad_norm_ with 1e-6; Adam with bias corrections), so the kernel and the libtorch path train the same model.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define STACKSCOPE_HD __host__ __device__ inline
#else
#define STACKSCOPE_HD inline
#endif

namespace stackscope::trainer::fused {

constexpr int kMaxLayers = 8;
constexpr float kLayerNormEps = 1e-5f;

// Sizes and offsets. Parameters are laid out as model->parameters() lists them: per hidden layer Linear weight
// [w x in], Linear bias [w], LayerNorm weight [w], LayerNorm bias [w]; then the output Linear weight [1 x in] and
// bias [1]. Scratch is structure-of-arrays: value `slot` of batch row r is at scratch[slot * batch + r], so the
// threads of a phase (consecutive rows) touch consecutive addresses.
struct Shape {
    int inputs = 0;
    int layers = 0;
    int width[kMaxLayers] = {};
    int batch = 0;
    int64_t weight[kMaxLayers] = {}, bias[kMaxLayers] = {}, gamma[kMaxLayers] = {}, beta[kMaxLayers] = {};
    int64_t outWeight = 0, outBias = 0, parameters = 0;
    // Slots per layer from slot[l]: h (LayerNorm's output), n (normalised), a (SiLU), dh, dz (w each), then rstd.
    int slot[kMaxLayers] = {};
    int xSlot = 0;   // the batch's input features, gathered once per step (inputs slots)
    int outSlot = 0; // d loss / d output of the row
    int errSlot = 0; // the row's squared error
    int slotCount = 0;

    STACKSCOPE_HD int in(int l) const { return l == 0 ? inputs : width[l - 1]; }
    STACKSCOPE_HD int h(int l) const { return slot[l]; }
    STACKSCOPE_HD int n(int l) const { return slot[l] + width[l]; }
    STACKSCOPE_HD int a(int l) const { return slot[l] + 2 * width[l]; }
    STACKSCOPE_HD int dh(int l) const { return slot[l] + 3 * width[l]; }
    STACKSCOPE_HD int dz(int l) const { return slot[l] + 4 * width[l]; }
    STACKSCOPE_HD int rstd(int l) const { return slot[l] + 5 * width[l]; }
};

// Fills the offsets; false when the model has no layer, more than kMaxLayers, or an empty size.
inline bool makeShape(Shape& s, int inputs, const int* widths, int layers, int batch)
{
    if (layers < 1 || layers > kMaxLayers || inputs < 1 || batch < 1)
        return false;
    s.inputs = inputs;
    s.layers = layers;
    s.batch = batch;
    int64_t p = 0;
    int slot = inputs;
    s.xSlot = 0;
    for (int l = 0; l < layers; ++l) {
        if (widths[l] < 1)
            return false;
        s.width[l] = widths[l];
        s.weight[l] = p;
        p += static_cast<int64_t>(widths[l]) * s.in(l);
        s.bias[l] = p;
        p += widths[l];
        s.gamma[l] = p;
        p += widths[l];
        s.beta[l] = p;
        p += widths[l];
        s.slot[l] = slot;
        slot += 5 * widths[l] + 1;
    }
    s.outWeight = p;
    p += widths[layers - 1];
    s.outBias = p++;
    s.parameters = p;
    s.outSlot = slot++;
    s.errSlot = slot++;
    s.slotCount = slot;
    return true;
}

// Everything one step reads and writes (device pointers on the GPU, host pointers on the CPU).
struct Buffers {
    float* params;
    float* grads;
    float* expAvg;
    float* expAvgSq;
    float* step;         // [1], the step count as libtorch's path keeps it
    float* lossSum;      // [1], the batch mean losses added up
    const float* x;      // [rows x inputs]
    const float* y;      // [rows]
    const int64_t* perm; // this epoch's permutation; a step's batch is perm[first .. first + batch)
    float* scratch;      // [slots x batch]
};

struct Hyper {
    float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, clip = 1.0f;
};

STACKSCOPE_HD float& at(const Shape& s, const Buffers& b, int slot, int r)
{
    return b.scratch[static_cast<int64_t>(slot) * s.batch + r];
}

STACKSCOPE_HD float sigmoid(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

// Input k of layer l for batch row r: the dataset's feature, or the layer below's activation.
STACKSCOPE_HD float layerInput(const Shape& s, const Buffers& b, int l, int k, int r)
{
    return at(s, b, l == 0 ? s.xSlot + k : s.a(l - 1) + k, r);
}

// Item (k, r): feature k of the step's batch row r, gathered from the dataset.
STACKSCOPE_HD void gatherInput(const Shape& s, const Buffers& b, int k, int r, int64_t first)
{
    at(s, b, s.xSlot + k, r) = b.x[b.perm[first + r] * s.inputs + k];
}

// Forward, item (j, r): z = bias + W row j . input of row r, kept in h.
STACKSCOPE_HD void forwardLinear(const Shape& s, const Buffers& b, int l, int j, int r)
{
    const int n = s.in(l);
    const float* W = b.params + s.weight[l] + static_cast<int64_t>(j) * n;
    float z = b.params[s.bias[l] + j];
    for (int k = 0; k < n; ++k)
        z += W[k] * layerInput(s, b, l, k, r);
    at(s, b, s.h(l) + j, r) = z;
}

// A batch row's item can be shared by `lanes` workers (a group of GPU threads): worker `lane` takes the row's
// elements lane, lane + lanes, ...; `total(v)` returns the sum of v over the group to each of them; `sync()` makes
// the group's writes visible to the group. On the CPU a row has one worker (OneLane).
struct OneLane {
    int lane = 0;
    int lanes = 1;
    float total(float v) const { return v; }
    void sync() const {}
};

// Forward, item r: LayerNorm of row r (mean and 1/sqrt(biased variance + eps)), its affine output, SiLU.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class G> STACKSCOPE_HD void forwardNorm(const Shape& s, const Buffers& b, int l, int r, const G& g)
{
    const int w = s.width[l];
    float mean = 0;
    for (int j = g.lane; j < w; j += g.lanes)
        mean += at(s, b, s.h(l) + j, r);
    mean = g.total(mean) / static_cast<float>(w);
    float var = 0;
    for (int j = g.lane; j < w; j += g.lanes) {
        const float d = at(s, b, s.h(l) + j, r) - mean;
        var += d * d;
    }
    var = g.total(var);
    const float rstd = 1.0f / sqrtf(var / static_cast<float>(w) + kLayerNormEps);
    if (g.lane == 0)
        at(s, b, s.rstd(l), r) = rstd;
    for (int j = g.lane; j < w; j += g.lanes) {
        const float nv = (at(s, b, s.h(l) + j, r) - mean) * rstd;
        const float hv = nv * b.params[s.gamma[l] + j] + b.params[s.beta[l] + j];
        at(s, b, s.n(l) + j, r) = nv;
        at(s, b, s.h(l) + j, r) = hv;
        at(s, b, s.a(l) + j, r) = hv * sigmoid(hv);
    }
}

// Forward, item r: the output, d loss / d output (mean squared error over the batch) and the squared error, which
// every worker of the row returns.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class G>
STACKSCOPE_HD float forwardOutput(const Shape& s, const Buffers& b, int r, int64_t first, const G& g)
{
    const int last = s.layers - 1;
    float dot = 0;
    for (int k = g.lane; k < s.width[last]; k += g.lanes)
        dot += b.params[s.outWeight + k] * at(s, b, s.a(last) + k, r);
    const float out = b.params[s.outBias] + g.total(dot);
    const float err = out - b.y[b.perm[first + r]];
    if (g.lane == 0) {
        at(s, b, s.outSlot, r) = 2.0f * err / static_cast<float>(s.batch);
        at(s, b, s.errSlot, r) = err * err;
    }
    return err * err;
}

// Backward, item r: through SiLU (dh = da silu'(h); da is d loss/d out times the output weights for the last
// layer, else waiting in the dz slot) and LayerNorm (dz = rstd (dn - mean(dn) - n mean(dn n)), dn = dh gamma).
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class G> STACKSCOPE_HD void backwardNorm(const Shape& s, const Buffers& b, int l, int r, const G& g)
{
    const int w = s.width[l];
    const bool last = l == s.layers - 1;
    const float dout = at(s, b, s.outSlot, r);
    float m1 = 0, m2 = 0;
    for (int j = g.lane; j < w; j += g.lanes) {
        const float da = last ? dout * b.params[s.outWeight + j] : at(s, b, s.dz(l) + j, r);
        const float hv = at(s, b, s.h(l) + j, r), sg = sigmoid(hv);
        const float gr = da * sg * (1.0f + hv * (1.0f - sg));
        at(s, b, s.dh(l) + j, r) = gr;
        const float dn = gr * b.params[s.gamma[l] + j];
        m1 += dn;
        m2 += dn * at(s, b, s.n(l) + j, r);
    }
    m1 = g.total(m1) / static_cast<float>(w);
    m2 = g.total(m2) / static_cast<float>(w);
    const float rstd = at(s, b, s.rstd(l), r);
    for (int j = g.lane; j < w; j += g.lanes) {
        const float dn = at(s, b, s.dh(l) + j, r) * b.params[s.gamma[l] + j];
        at(s, b, s.dz(l) + j, r) = rstd * (dn - m1 - at(s, b, s.n(l) + j, r) * m2);
    }
}

// Backward, item (k, r) of layer l > 0: d loss / d activation k of layer l - 1 (into that layer's dz slot).
STACKSCOPE_HD void backwardLinear(const Shape& s, const Buffers& b, int l, int k, int r)
{
    const int n = s.in(l), w = s.width[l];
    const float* W = b.params + s.weight[l] + k;
    float g = 0;
    for (int j = 0; j < w; ++j)
        g += at(s, b, s.dz(l) + j, r) * W[static_cast<int64_t>(j) * n];
    at(s, b, s.dz(l - 1) + k, r) = g;
}

// d loss / d parameter p is the sum over batch rows of one per-row value (slot a) or the product of two (a, b).
struct GradientTerms {
    int a = -1, b = -1;
};

STACKSCOPE_HD GradientTerms gradientTerms(const Shape& s, int64_t p)
{
    GradientTerms t;
    if (p >= s.outWeight) {
        t.a = s.outSlot;
        if (p < s.outBias)
            t.b = s.a(s.layers - 1) + static_cast<int>(p - s.outWeight);
        return t;
    }
    int l = s.layers - 1;
    while (p < s.weight[l])
        --l;
    if (p < s.bias[l]) {
        // 32-bit: a layer's weights are far fewer than 2^31 (kMaxMacsPerRow), and a 64-bit division costs 3x more.
        const int e = static_cast<int>(p - s.weight[l]), n = s.in(l);
        const int j = e / n, k = e - j * n;
        t.a = s.dz(l) + j;
        t.b = l == 0 ? s.xSlot + k : s.a(l - 1) + k;
    } else if (p < s.gamma[l]) {
        t.a = s.dz(l) + static_cast<int>(p - s.bias[l]);
    } else if (p < s.beta[l]) {
        const int j = static_cast<int>(p - s.gamma[l]);
        t.a = s.dh(l) + j;
        t.b = s.n(l) + j;
    } else {
        t.a = s.dh(l) + static_cast<int>(p - s.beta[l]);
    }
    return t;
}

// Row r's term of the gradient.
STACKSCOPE_HD float gradientTerm(const Shape& s, const Buffers& b, const GradientTerms& t, int r)
{
    const float v = at(s, b, t.a, r);
    return t.b >= 0 ? v * at(s, b, t.b, r) : v;
}

// clip_grad_norm_'s factor from the squared norm of all gradients.
STACKSCOPE_HD float clipFactor(const Hyper& hp, float squaredNorm)
{
    if (hp.clip <= 0)
        return 1.0f;
    const float c = hp.clip / (sqrtf(squaredNorm) + 1e-6f);
    return c < 1.0f ? c : 1.0f;
}

// Adam's figures shared by every parameter of a step: the clip factor, the step count after this step and the
// bias corrections (computed once a step, not once a parameter; the same float operations as torch's formula).
struct AdamStep {
    float factor = 1.0f;
    float t = 1.0f;
    float bc1 = 1.0f;     // 1 - beta1^t
    float sqrtBc2 = 1.0f; // sqrt(1 - beta2^t)
};

STACKSCOPE_HD AdamStep adamStep(const Hyper& hp, float factor, float t)
{
    AdamStep a;
    a.factor = factor;
    a.t = t;
    a.bc1 = 1.0f - powf(hp.beta1, t);
    a.sqrtBc2 = sqrtf(1.0f - powf(hp.beta2, t));
    return a;
}

// Item p: Adam on parameter p with the clipped gradient.
STACKSCOPE_HD void adamUpdate(const Hyper& hp, const Buffers& b, int64_t p, const AdamStep& a)
{
    const float g = b.grads[p] * a.factor;
    b.grads[p] = g;
    const float m = hp.beta1 * b.expAvg[p] + (1.0f - hp.beta1) * g;
    const float v = hp.beta2 * b.expAvgSq[p] + (1.0f - hp.beta2) * g * g;
    b.expAvg[p] = m;
    b.expAvgSq[p] = v;
    const float denom = sqrtf(v) / a.sqrtBc2 + hp.eps;
    b.params[p] -= hp.lr / a.bc1 * (m / denom);
}

// One whole step. `par.each(n, f)` runs f(0..n-1) in any order and returns when all are done; `par.grid(items,
// rows, f)` runs f(j, r) for every item j < items of every batch row r < rows likewise (no division per item); `par.sum(n, f)`
// returns the sum of f(0..n-1) to every caller; `par.rows(n, f)` runs f(r, g) for each row r < n, the row shared by
// the workers of a lane group g (OneLane's interface), and `par.rowsSum(n, f)` also returns the sum over rows of
// what f returned (the same value on each worker of a row); `par.single(f)` runs f once, done when it returns;
// `par.rowSums(n, rows, decode, term, finish)` computes for each item i the sum over r < rows of term(decode(i), r),
// hands it to finish(i, sum) and returns the sum of what finish returned.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class Par>
STACKSCOPE_HD void step(const Shape& s, const Buffers& b, const Hyper& hp, int64_t first, bool gradientsOnly, Par& par)
{
    const int B = s.batch;
    par.grid(s.inputs, B, [&](int k, int r) { gatherInput(s, b, k, r, first); });
    const int last = s.layers - 1;
    for (int l = 0; l < last; ++l) {
        par.grid(s.width[l], B, [&](int j, int r) { forwardLinear(s, b, l, j, r); });
        par.rows(B, [&](int64_t r, const auto& g) { forwardNorm(s, b, l, static_cast<int>(r), g); });
    }
    par.grid(s.width[last], B, [&](int j, int r) { forwardLinear(s, b, last, j, r); });
    const float loss = par.rowsSum(B, [&](int64_t r, const auto& g) { // the row's last LayerNorm, then its output
        forwardNorm(s, b, last, static_cast<int>(r), g);
        g.sync(); // the output reads the other workers' activations
        return forwardOutput(s, b, static_cast<int>(r), first, g);
    });
    for (int l = s.layers - 1; l >= 0; --l) {
        par.rows(B, [&](int64_t r, const auto& g) { backwardNorm(s, b, l, static_cast<int>(r), g); });
        if (l > 0)
            par.grid(s.in(l), B, [&](int k, int r) { backwardLinear(s, b, l, k, r); });
    }
    const float squared = par.rowSums(
        s.parameters, B, [&](int64_t p) { return gradientTerms(s, p); },
        [&](const GradientTerms& t, int r) { return gradientTerm(s, b, t, r); },
        [&](int64_t p, float g) {
            b.grads[p] = g;
            return g * g;
        });
    if (gradientsOnly)
        return;
    const AdamStep adam = adamStep(hp, clipFactor(hp, squared), b.step[0] + 1.0f);
    par.each(s.parameters, [&](int64_t p) { adamUpdate(hp, b, p, adam); });
    par.single([&] {
        b.step[0] = adam.t;
        b.lossSum[0] += loss / static_cast<float>(B);
    });
}

} // namespace stackscope::trainer::fused
