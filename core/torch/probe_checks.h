// How a probe's result is checked: element-wise bounds from the error model (core/probes/error_model.h), the
// accumulation path of a device and dtype, fault injection for tests. Inside the torch module only.
#pragma once

#include "core/probes/error_model.h"

#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace stackscope::probe {

// A probe that found something a person must act on but that is not a libtorch exception.
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ProbeContext {
    torch::Device device = torch::kCPU;
    bool isCpu = true;
    std::string inject; // "wrong": every element off by 1 + 2x its bound; "perturb": one element off by 1 %
    nlohmann::json details = nlohmann::json::object();
    // The compared element with the largest error / bound ratio over the whole probe.
    double worstRatio = -1.0;
    double worstError = 0.0;
    double worstBound = 0.0;
    std::string worstWhat;
    std::string wrongWhat; // first comparison that failed
    std::string note;      // for the message of an ok probe (bandwidth, sizes)
    std::vector<std::string> models; // the error model of each comparison, for the details
};

// |out - ref| <= bound element by element (bound broadcast to ref's shape, float64). Keeps the worst ratio.
void check(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref,
           const torch::Tensor& bound, const std::string& model);
// Bit-exact (copies, fills).
void checkExact(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref);

// The accumulation path a dot product of `dtype` takes on the probe's device (see the .cpp for the sources).
errormodel::DotPath dotPath(const ProbeContext& ctx, torch::ScalarType dtype, bool convolution = false);
// Element-wise bound of a dot product: ref the exact result, absSum = sum |a||b| (+ |bias|), depth n.
torch::Tensor dotBound(const torch::Tensor& ref, const torch::Tensor& absSum, double depth, const errormodel::DotPath& p);
void checkDot(ProbeContext& ctx, const std::string& what, const torch::Tensor& out, const torch::Tensor& ref,
              const torch::Tensor& absSum, double depth, const errormodel::DotPath& p);
std::string describe(const errormodel::DotPath& p, double depth);

// Applies the test-only environment knobs of a probe child (STACKSCOPE_PROBE_DISABLE_ONEDNN).
void applyProbeEnvironment();

} // namespace stackscope::probe
