// Environment variants for the probe grid (from the diagnosis rules' fixes) and the A/B view between them.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/probes/probe_runner.h"
#include "core/snapshot/snapshot.h"

#include <string>
#include <vector>

namespace stackscope {

// "K=V,K2=V2" (a bare "K" or "K=" is not allowed; "-K" unsets K). Throws std::invalid_argument
// with a message that shows the expected form.
ProbeVariant variantFromEnvSpec(const std::string& spec);
// "TORCH_BLAS_PREFER_HIPBLASLT=0", "unset HSA_OVERRIDE_GFX_VERSION", "A=1,B=2".
std::string variantName(const std::map<std::string, std::optional<std::string>>& env);

// Every environment change a rule's fix proposes that applies to the snapshot: the rule's backend
// matches torch's (unknown counts as matching) and the fix's archs, when given, include a GPU's.
// On a CUDA torch the hipBLASLt switches become their cuBLASLt counterparts
// (TORCH_BLAS_PREFER_CUBLASLT=0/1, DISABLE_ADDMM_CUDA_LT=1). Baseline is not included.
std::vector<ProbeVariant> candidateVariants(const Snapshot& snapshot, const DiagnosisRules& rules);

// A cell whose outcome differs between two variants (same probe, same device).
struct CellChange {
    std::string probeId;
    std::string device;
    ProbeResult before = ProbeResult::Ok; // in variant a
    ProbeResult after = ProbeResult::Ok;  // in variant b
    std::string messageAfter;
    double secondsBefore = 0.0;
    double secondsAfter = 0.0;
    std::string environment = "libtorch"; // the PyTorch both ran in (ProbeOutcome::environment)
};
std::vector<CellChange> compareVariants(const std::vector<ProbeRecord>& records, const std::string& a,
                                        const std::string& b);

std::vector<ProbeOutcome> probeOutcomes(const std::vector<ProbeRecord>& records);

nlohmann::json toJson(const ProbeRecord& r);
nlohmann::json toJson(const ProbeVariant& v);
nlohmann::json toJson(const CellChange& c);

} // namespace stackscope
