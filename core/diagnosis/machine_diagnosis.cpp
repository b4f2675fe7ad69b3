// The one diagnosis behind every surface (see machine_diagnosis.h).
#include "core/diagnosis/machine_diagnosis.h"

#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/stated_process_facts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <sstream>

namespace stackscope {

const char* verdictStateName(VerdictState s)
{
    switch (s) {
    case VerdictState::Ok:
        return "ok";
    case VerdictState::Problem:
        return "problem";
    case VerdictState::NoGpu:
        return "no_gpu";
    case VerdictState::Unknown:
        return "unknown";
    }
    return "unknown";
}

ReadLogText readLogText(const std::string& text, const std::string& origin)
{
    std::istringstream in(text);
    return { origin, readLogStream(in, LogReadLimits {}, interestingLine) };
}

namespace {

// Evidence lines refer to the kept text; give them the original line numbers.
void remapLines(std::vector<Finding>& findings, const std::vector<ReadLogText>& logs)
{
    for (auto& f : findings) {
        for (auto& e : f.evidence) {
            for (const auto& l : logs) {
                if (e.source == "log" && e.origin == l.origin && e.line && *e.line >= 1
                    && static_cast<std::size_t>(*e.line) <= l.read.lineNumbers.size())
                    e.line = static_cast<int>(l.read.lineNumbers[static_cast<std::size_t>(*e.line) - 1]);
            }
        }
    }
}

// The checks the rules do not already name go after the rules' findings of their severity: the ranked order of the
// rules stays as it is, and a rule that names a check's id (KFD_PERMISSION) speaks for both.
std::vector<Finding> mergeChecks(std::vector<Finding> ranked, const std::vector<Finding>& checks)
{
    for (const auto& check : checks) {
        const bool named
            = std::any_of(ranked.begin(), ranked.end(), [&](const Finding& f) { return f.id == check.id; });
        if (named)
            continue;
        const auto at
            = std::find_if(ranked.begin(), ranked.end(), [&](const Finding& f) { return f.severity < check.severity; });
        ranked.insert(at, check);
    }
    return ranked;
}

bool hasError(const std::vector<Finding>& findings)
{
    return std::any_of(
        findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Error; });
}

} // namespace

std::vector<NotChecked> notCheckedFacts(const Snapshot& s)
{
    std::vector<NotChecked> out;
    std::vector<std::string> unknownNodes;
    if (s.access.kfd.exists && !s.access.kfd.readWrite)
        unknownNodes.push_back(s.access.kfd.path);
    for (const auto& n : s.access.renderNodes) {
        if (n.exists && !n.readWrite)
            unknownNodes.push_back(n.path);
    }
    if (!unknownNodes.empty()) {
        std::vector<std::string> missing;
        const bool noModes = std::none_of(unknownNodes.begin(), unknownNodes.end(), [&](const std::string& p) {
            if (p == s.access.kfd.path)
                return s.access.kfd.mode.has_value();
            return std::any_of(s.access.renderNodes.begin(), s.access.renderNodes.end(),
                [&](const DeviceNode& n) { return n.path == p && n.mode.has_value(); });
        });
        if (noModes)
            missing.push_back(s.root ? "their modes and groups were not recorded (.stackscope/dev-stat)"
                                     : "their modes and groups could not be read");
        if (!s.access.user)
            missing.push_back(s.root ? "the user and their groups were not recorded (.stackscope/id)"
                                     : "the user and their groups could not be read");
        if (missing.empty())
            missing.push_back("their permissions could not be tested");
        // "/dev/kfd and 3 render nodes": the access rows list each one.
        const std::size_t renders = unknownNodes.size() - (unknownNodes.front() == s.access.kfd.path ? 1 : 0);
        const std::string nodes = renders <= 1
            ? fmt::format("{}", fmt::join(unknownNodes, " and "))
            : fmt::format("{}{} render nodes",
                unknownNodes.front() == s.access.kfd.path ? s.access.kfd.path + " and " : "", renders);
        out.push_back({ "GPU_ACCESS_UNKNOWN", fmt::format("whether this user can open {} read-write", nodes),
            fmt::format("{}", fmt::join(missing, "; ")),
            std::string(s.root ? "On that machine: " : "")
                + "`ls -l /dev/kfd /dev/dri/render*; id` (the user needs read-write through the mode or a "
                  "group it is in, usually render and video)" });
    }
    if (!s.envKnown) {
        out.push_back({ "ENVIRONMENT_NOT_RECORDED",
            "which variables steering the GPU stack were set (HSA_OVERRIDE_GFX_VERSION, HIP/ROCR/CUDA_VISIBLE_DEVICES ...)",
            "the recording has no environment (.stackscope/env)",
            "On that machine: `env | grep -E '^(HSA|HIP|ROCR|CUDA|NCCL|PYTORCH)_'`" });
    }
    if (s.root && s.libraries.empty() && !s.gpus.empty()) {
        out.push_back(
            { "RUNTIME_NOT_QUERIED", "whether the GPU runtime (HIP, rocm_smi, NVML) and libtorch load and see the GPUs",
                "a recorded machine's libraries are not loaded here; only its files were read",
                "On that machine: `stackscope-cli inspect` (or open StackScope there)" });
    }
    return out;
}

MachineDiagnosis diagnoseMachine(const MachineDiagnosisInput& in, const DiagnosisRules& rules)
{
    MachineDiagnosis out;
    std::string all;
    for (const auto& l : in.logs)
        all += l.read.text;
    auto stated = extractLogFacts(NormalizedText(all));
    out.logFacts = std::move(stated.lines);
    const Snapshot* snapshot = in.snapshot;
    std::shared_ptr<const Snapshot> withProcess; // the machine, with the user's process as the text states it
    if (!snapshot && !in.logs.empty()) {
        out.statedFacts = std::make_shared<const Snapshot>(std::move(stated.snapshot));
        snapshot = out.statedFacts.get();
    } else if (snapshot && statesProcessFacts(stated.snapshot)) {
        withProcess = std::make_shared<const Snapshot>(withStatedProcessFacts(*snapshot, stated.snapshot));
        snapshot = withProcess.get();
    }

    DiagnosisInput input;
    input.snapshot = snapshot; // host extras (Secure Boot, dkms, WSL, kernel log ...) included
    for (const auto& l : in.logs)
        input.logs.push_back({ l.origin, l.read.text });
    if (snapshot) {
        if (auto kernelLog = snapshotKernelLog(*snapshot))
            input.logs.push_back(std::move(*kernelLog));
    }
    input.probes = in.probes;
    auto ranked = diagnose(input, rules);
    remapLines(ranked, in.logs);
    out.findings = snapshot ? mergeChecks(std::move(ranked), snapshot->findings) : std::move(ranked);

    if (snapshot)
        out.notChecked = notCheckedFacts(*snapshot);
    if (hasError(out.findings))
        out.verdict = VerdictState::Problem;
    else if (snapshot && snapshot->gpus.empty() && !out.statedFacts)
        out.verdict = VerdictState::NoGpu; // (logs that name no GPU say nothing about one: unknown, below)
    else if (out.statedFacts && snapshot->gpus.empty())
        out.verdict = VerdictState::Unknown;
    else if (!snapshot || !out.notChecked.empty())
        out.verdict = VerdictState::Unknown;
    else
        out.verdict = VerdictState::Ok;
    return out;
}

std::vector<Finding> machineFindings(const Snapshot& s, const DiagnosisRules& rules)
{
    MachineDiagnosisInput in;
    in.snapshot = &s;
    return diagnoseMachine(in, rules).findings;
}

} // namespace stackscope
