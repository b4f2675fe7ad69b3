// See snapshot_facts.h.
#include "core/diagnosis/snapshot_facts.h"

#include "core/diagnosis/cuda_driver_matrix.h"
#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/visibility_facts.h"
#include "core/snapshot/pcie_links.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace stackscope {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool equalsIgnoringCase(const std::string& a, const std::string& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// Versions compared on the components both state, a missing component counting as 0 ("6.0" vs "6.0.1" differ).
bool versionsDiffer(const std::vector<int>& a, const std::vector<int>& b)
{
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n && i < 3; ++i) {
        if ((i < a.size() ? a[i] : 0) != (i < b.size() ? b[i] : 0))
            return true;
    }
    return false;
}

// The PCIe link conditions: links below what they can do (core/snapshot/pcie_links.h); appends them as facts.
bool evaluatePcieLinks(const SnapshotTrigger& t, const Snapshot& s, std::vector<std::string>& facts)
{
    for (const auto& [wanted, links] : {std::pair {t.pcieLinkNarrow, t.pcieLinkNarrow ? narrowPcieLinks(s) : std::vector<std::string> {}},
                                        std::pair {t.pcieLinkSlow, t.pcieLinkSlow ? slowPcieLinks(s) : std::vector<std::string> {}}}) {
        if (!wanted)
            continue;
        if (links.empty() == *wanted)
            return false;
        facts.insert(facts.end(), links.begin(), links.end());
    }
    return true;
}

// The host, dkms and version-pair conditions of a trigger; appends the facts that held.
bool evaluateHostFacts(const SnapshotTrigger& t, const SnapshotFacts& f, std::vector<std::string>& facts)
{
    const auto& host = f.host;
    if (t.wsl) {
        if (host.wsl.value_or(false) != *t.wsl)
            return false;
        facts.push_back(*t.wsl ? "running under WSL" : "not WSL");
    }
    if (t.secureBoot) {
        if (!host.secureBoot || *host.secureBoot != *t.secureBoot)
            return false;
        facts.push_back(fmt::format("Secure Boot {}", *t.secureBoot ? "enabled" : "disabled"));
    }
    if (!t.kernelCmdlineLacks.empty()) {
        if (!host.kernelCmdline || host.kernelCmdline->find(t.kernelCmdlineLacks) != std::string::npos)
            return false;
        facts.push_back(fmt::format("kernel command line lacks {}: {}", t.kernelCmdlineLacks, *host.kernelCmdline));
    }
    if (t.dkmsAmdgpu) {
        const bool has = std::any_of(f.host.dkms.begin(), f.host.dkms.end(),
                                     [](const DkmsModule& d) { return d.name == "amdgpu"; });
        if (has != *t.dkmsAmdgpu)
            return false;
        facts.push_back(has ? "amdgpu DKMS module present" : "no amdgpu DKMS module");
    }
    if (t.amdgpuLoaded) {
        const bool loaded = f.snapshot.rocm.amdgpuDriverVersion.has_value();
        if (loaded != *t.amdgpuLoaded)
            return false;
        facts.push_back(loaded ? "amdgpu module loaded" : "amdgpu module not loaded");
    }
    if (!evaluatePcieLinks(t, f.snapshot, facts))
        return false;
    // Lines a pasted log states (log_facts.h): the condition holds when the text shows one, and the line is the fact.
    for (const auto& [wanted, line, what] : {std::tuple {t.containerWithoutGpus, &host.containerRunWithoutGpus, "container started without a GPU"},
                                             std::tuple {t.torchFoundNoGpu, &host.torchFoundNoGpu, "PyTorch found no GPU"}}) {
        if (!wanted)
            continue;
        if (line->has_value() != *wanted)
            return false;
        if (*line)
            facts.push_back(fmt::format("{}: {}", what, **line));
    }
    // Conditions computed from the whole snapshot: each says its fact in words when it holds.
    for (const auto& [wanted, fact] : {std::pair {t.gpusHiddenByEnv, &gpusHiddenByEnvironment},
                                       std::pair {t.cudaDriverOlderThanTorch, &cudaDriverOlderThanTorch},
                                       std::pair {t.torchForAbsentVendor, &torchForAbsentVendor}}) {
        if (!wanted)
            continue;
        const auto said = fact(f.snapshot);
        if (said.has_value() != *wanted)
            return false;
        if (said)
            facts.push_back(*said);
    }
    if (t.torchRocmDiffers) {
        const auto& torch = f.snapshot.torch;
        const auto built = torch.backend == std::optional<std::string>("rocm") && torch.builtWith ? parseVersion(*torch.builtWith)
                                                                                                  : std::nullopt;
        // Installed ROCm releases only: a HIP runtime version is numbered apart from ROCm's in older releases.
        std::vector<std::pair<std::string, std::vector<int>>> installed;
        for (const auto& i : f.snapshot.rocm.installs)
            if (i.version)
                if (auto v = parseVersion(*i.version))
                    installed.push_back({*i.version, *v});
        if (!built || installed.empty())
            return false;
        const auto it = std::find_if(installed.begin(), installed.end(),
                                     [&](const auto& v) { return versionsDiffer(*built, v.second); });
        if ((it != installed.end()) != *t.torchRocmDiffers)
            return false;
        facts.push_back(it != installed.end()
                            ? fmt::format("torch built for ROCm {}, ROCm {} installed", *torch.builtWith, it->first)
                            : fmt::format("torch built for ROCm {} like the installed ROCm", *torch.builtWith));
    }
    return true;
}

// Returns the facts that made the trigger hold, or nullopt when some condition does not hold.

void check(std::optional<bool> holds, std::string why, std::vector<std::optional<bool>>& results,
           std::vector<std::string>& notes)
{
    results.push_back(holds);
    notes.push_back(std::move(why));
}

} // namespace

SnapshotFacts::SnapshotFacts(const Snapshot& s)
    : snapshot(s)
    , host(s.hostExtras)
{
    for (const auto& g : s.gpus) {
        if (g.vendor == "amd")
            ++amdGpus;
        if (g.arch && !g.arch->empty())
            archs.push_back(archToken(*g.arch));
    }
    for (const auto& i : s.rocm.installs) {
        if (i.version)
            if (auto v = parseVersion(*i.version))
                rocmVersions.push_back({*i.version, *v});
    }
    if (rocmVersions.empty() && s.rocm.hipRuntimeVersion)
        if (auto v = parseVersion(*s.rocm.hipRuntimeVersion))
            rocmVersions.push_back({*s.rocm.hipRuntimeVersion, *v});
    if (s.torch.version)
        torchVersion = parseVersion(*s.torch.version);
    }

std::optional<std::string> SnapshotFacts::archOfDevice(const std::string& device) const
{
    for (const auto& g : snapshot.gpus) {
        if (std::to_string(g.index) == device && g.arch)
            return archToken(*g.arch);
    }
    return std::nullopt;
    }

std::optional<std::vector<std::string>> evaluateTrigger(const SnapshotTrigger& t, const SnapshotFacts& f)
{
    std::vector<std::string> facts;
    if (t.amdGpusMin) {
        if (f.amdGpus < *t.amdGpusMin)
            return std::nullopt;
        facts.push_back(fmt::format("{} AMD GPUs", f.amdGpus));
    }
    if (t.gpusMin) {
        if (static_cast<int>(f.snapshot.gpus.size()) < *t.gpusMin)
            return std::nullopt;
        facts.push_back(fmt::format("{} GPU{} shown", f.snapshot.gpus.size(), f.snapshot.gpus.size() == 1 ? "" : "s"));
    }
    if (!t.gpuArchAny.empty()) {
        std::vector<std::string> hit;
        for (const auto& g : f.snapshot.gpus) {
            if (g.arch && contains(t.gpuArchAny, archToken(*g.arch)))
                hit.push_back(fmt::format("gpus[{}] {} is {}", g.index, g.name, archToken(*g.arch)));
        }
        if (hit.empty())
            return std::nullopt;
        facts.insert(facts.end(), hit.begin(), hit.end());
    }
    if (!t.envUnset.empty() && !f.snapshot.envKnown)
        return std::nullopt; // a recording without its environment: "not set" is not known
    for (const auto& name : t.envUnset) {
        if (f.env(name))
            return std::nullopt;
    }
    if (!t.envUnset.empty())
        facts.push_back(fmt::format("{} not set", fmt::join(t.envUnset, ", ")));
    for (const auto& [name, value] : t.envEquals) {
        const auto* v = f.env(name);
        if (!v || *v != value)
            return std::nullopt;
        facts.push_back(fmt::format("{}={}", name, value));
    }
    for (const auto& [name, part] : t.envContains) {
        const auto* v = f.env(name);
        if (!v || v->find(part) == std::string::npos)
            return std::nullopt;
        facts.push_back(fmt::format("{}={}", name, *v));
    }
    if (t.rocmVersion) {
        const auto it = std::find_if(f.rocmVersions.begin(), f.rocmVersions.end(),
                                     [&](const auto& v) { return t.rocmVersion->contains(v.second); });
        if (it == f.rocmVersions.end())
            return std::nullopt;
        facts.push_back(fmt::format("ROCm {} ({})", it->first, t.rocmVersion->text()));
    }
    if (t.torchVersion) {
        if (!f.torchVersion || !t.torchVersion->contains(*f.torchVersion))
            return std::nullopt;
        facts.push_back(fmt::format("torch {} ({})", *f.snapshot.torch.version, t.torchVersion->text()));
    }
    if (t.torchBackend) {
        if (f.snapshot.torch.backend != t.torchBackend)
            return std::nullopt;
        facts.push_back(fmt::format("torch backend {}", *t.torchBackend));
    }
    if (t.torchBlasBackend) {
        if (!f.snapshot.torch.blasBackend || !equalsIgnoringCase(*f.snapshot.torch.blasBackend, *t.torchBlasBackend))
            return std::nullopt;
        facts.push_back(fmt::format("torch BLAS backend {}", *f.snapshot.torch.blasBackend));
    }
    if (t.kfdReadWrite) {
        const auto& kfd = f.snapshot.access.kfd;
        if (!kfd.exists || !kfd.readWrite || *kfd.readWrite != *t.kfdReadWrite)
            return std::nullopt;
        facts.push_back(fmt::format("{} read-write: {} (mode {}, group {}; user {} in {})", kfd.path,
                                    *kfd.readWrite ? "yes" : "no", kfd.mode.value_or("?"), kfd.group.value_or("?"),
                                    f.snapshot.access.user.value_or("?"), fmt::join(f.snapshot.access.userGroups, ",")));
    }
    if (!evaluateHostFacts(t, f, facts))
        return std::nullopt;
    return facts;
}

// One applicability check: true/false when the snapshot knows, nullopt when it does not.

void applyApplicability(const DiagnosisRule& rule, const SnapshotFacts* f, Finding& out)
{
    const auto& a = rule.applicability;
    if (!a.note.empty())
        out.applicability.push_back(a.note);
    const bool constrained = a.torch || a.torchRocm || a.rocm || !a.archs.empty() || a.backend || !a.envSet.empty();
    if (!constrained)
        return;
    if (!f) {
        out.applicability.push_back("no snapshot: whether the rule applies is unknown");
        return;
    }
    const Snapshot& s = f->snapshot;
    std::vector<std::optional<bool>> results;
    std::vector<std::string> notes;
    if (a.backend) {
        if (s.torch.backend)
            check(*s.torch.backend == *a.backend, fmt::format("torch backend is {} (rule: {})", *s.torch.backend, *a.backend), results, notes);
        else
            check(std::nullopt, fmt::format("torch backend unknown (rule: {})", *a.backend), results, notes);
    }
    if (a.torch) {
        if (f->torchVersion)
            check(a.torch->contains(*f->torchVersion), fmt::format("torch {} (rule: {})", *s.torch.version, a.torch->text()), results, notes);
        else
            check(std::nullopt, fmt::format("torch version unknown (rule: {})", a.torch->text()), results, notes);
    }
    if (a.torchRocm) {
        std::optional<std::vector<int>> built;
        if (s.torch.backend == std::optional<std::string>("rocm") && s.torch.builtWith)
            built = parseVersion(*s.torch.builtWith);
        if (built)
            check(a.torchRocm->contains(*built), fmt::format("torch built with ROCm {} (rule: {})", *s.torch.builtWith, a.torchRocm->text()), results, notes);
        else
            check(std::nullopt, fmt::format("ROCm version torch was built with unknown (rule: {})", a.torchRocm->text()), results, notes);
    }
    if (a.rocm) {
        if (!f->rocmVersions.empty()) {
            const bool any = std::any_of(f->rocmVersions.begin(), f->rocmVersions.end(),
                                         [&](const auto& v) { return a.rocm->contains(v.second); });
            check(any, fmt::format("ROCm {} (rule: {})", f->rocmVersions.front().first, a.rocm->text()), results, notes);
        } else {
            check(std::nullopt, fmt::format("ROCm version unknown (rule: {})", a.rocm->text()), results, notes);
        }
    }
    if (!a.archs.empty()) {
        if (!f->archs.empty()) {
            const bool any = std::any_of(f->archs.begin(), f->archs.end(), [&](const auto& x) { return contains(a.archs, x); });
            check(any, fmt::format("GPU archs {} (rule: {})", fmt::join(f->archs, ", "), fmt::join(a.archs, ", ")), results, notes);
        } else {
            check(std::nullopt, fmt::format("GPU archs unknown (rule: {})", fmt::join(a.archs, ", ")), results, notes);
        }
    }
    for (const auto& name : a.envSet) {
        const auto* v = f->env(name);
        check(v != nullptr, v ? fmt::format("{}={}", name, *v) : fmt::format("{} is not set in this snapshot", name), results, notes);
    }
    out.applicability.insert(out.applicability.end(), notes.begin(), notes.end());
    if (std::any_of(results.begin(), results.end(), [](const auto& r) { return r == std::optional<bool>(false); }))
        out.applies = false;
    else if (std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }))
        out.applies = true;
}

} // namespace stackscope
