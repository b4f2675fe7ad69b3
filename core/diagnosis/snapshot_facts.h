// The facts of a snapshot that the rules' snapshot triggers and applicability read (versions parsed once, GPU archs,
// environment), and the two questions diagnose() asks of them.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/snapshot/finding.h"
#include "core/snapshot/host_extras.h"
#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stackscope {

// Facts of a snapshot that triggers and applicability ask about.
struct SnapshotFacts {
    explicit SnapshotFacts(const Snapshot& s);

    const std::string* env(const std::string& name) const
    {
        auto it = snapshot.env.find(name);
        return it == snapshot.env.end() ? nullptr : &it->second;
    }

    // The arch token of the GPU with this index (a probe's device), if the snapshot knows it.
    std::optional<std::string> archOfDevice(const std::string& device) const;

    const Snapshot& snapshot;
    const HostExtras& host;
    int amdGpus = 0;
    std::vector<std::string> archs;
    std::vector<std::pair<std::string, std::vector<int>>> rocmVersions;
    std::optional<std::vector<int>> torchVersion;
};

// The facts that make the trigger hold, in words; nullopt when a condition does not hold or is unknown.
std::optional<std::vector<std::string>> evaluateTrigger(const SnapshotTrigger& t, const SnapshotFacts& f);

// Whether the rule's applicability holds for these facts (out.applies: true, false or unknown) and why
// (out.applicability); no facts: unknown.
void applyApplicability(const DiagnosisRule& rule, const SnapshotFacts* f, Finding& out);

} // namespace stackscope
