// Probe records and findings made up for the Probes page's unit tests.
#pragma once

#include "core/probes/probe_runner.h"
#include "core/snapshot/finding.h"

#include <QMetaType>

#include <optional>
#include <string>
#include <vector>

namespace stackscope::test {

inline ProbeRecord probeRecord(const std::string& probe, const std::string& device, ProbeResult result,
                               const std::string& variant = "baseline", const std::string& environment = "libtorch")
{
    ProbeRecord r;
    r.outcome.probeId = probe;
    r.outcome.device = device;
    r.outcome.variant = variant;
    r.outcome.environment = environment;
    r.outcome.outcome = result;
    r.outcome.message = probe + " message";
    r.seconds = 0.5;
    return r;
}

// A finding with one environment-change fix (HIPBLASLT=0) and, when asked, a diagnostic step (an environment change
// too) before it.
inline Finding findingWithFix(bool diagnosticFirst = false, std::optional<bool> applies = std::nullopt)
{
    Finding f;
    f.id = "HIPBLASLT_UNSUPPORTED";
    f.severity = Severity::Error;
    f.title = "hipBLASLt has no kernels for this GPU";
    if (diagnosticFirst) {
        FixAdvice look; // an environment change that makes the libraries say more, not a fix to verify
        look.text = "run with AMD_LOG_LEVEL=3 and read the log";
        look.env = {{"AMD_LOG_LEVEL", std::string("3")}};
        look.diagnostic = true;
        f.fixes.push_back(look);
    }
    FixAdvice fix;
    fix.text = "turn hipBLASLt off";
    fix.env = {{"TORCH_BLAS_PREFER_HIPBLASLT", std::string("0")}};
    fix.applies = applies;
    f.fixes.push_back(fix);
    return f;
}

} // namespace stackscope::test

Q_DECLARE_METATYPE(stackscope::ProbeRecord)
Q_DECLARE_METATYPE(std::vector<stackscope::ProbeRecord>)
