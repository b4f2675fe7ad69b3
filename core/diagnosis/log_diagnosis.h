// Diagnosing a pasted log on its own: the facts the text states become a partial snapshot that the
// rules use, so a report is explained without the reporter's machine.
#pragma once

#include "core/diagnosis/diagnosis.h"

#include <string>
#include <vector>

namespace stackscope {

struct LogDiagnosis {
    Snapshot facts;                     // what the text states (GPUs, torch, ROCm, env, host extras ...); partial
    std::vector<std::string> factLines; // the same facts in words, with where they came from
    std::vector<Finding> findings;
};

// The text is read like `diagnose --log` reads a file (log_reader.h bounds); `useFacts` false diagnoses the
// text alone, as StackScope did before facts were extracted (bench diagnose --no-facts).
LogDiagnosis diagnoseLogText(const std::string& text, const std::string& origin,
                             const DiagnosisRules& rules = DiagnosisRules::builtIn(), bool useFacts = true);

} // namespace stackscope
