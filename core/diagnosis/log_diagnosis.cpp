// Diagnosing a pasted log on its own (see log_diagnosis.h).
#include "core/diagnosis/log_diagnosis.h"

#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/log_reader.h"

#include <sstream>

namespace stackscope {

LogDiagnosis diagnoseLogText(const std::string& text, const std::string& origin, const DiagnosisRules& rules, bool useFacts)
{
    LogDiagnosis out;
    std::istringstream in(text);
    const auto kept = readLogStream(in, LogReadLimits {}, interestingLine);
    DiagnosisInput input;
    if (useFacts) {
        auto facts = extractLogFacts(NormalizedText(kept.text));
        out.facts = std::move(facts.snapshot);
        out.factLines = std::move(facts.lines);
        input.snapshot = &out.facts;
    }
    input.logs.push_back({origin, kept.text});
    out.findings = diagnose(input, rules);
    return out;
}

} // namespace stackscope
