// See stated_process_facts.h.
#include "core/diagnosis/stated_process_facts.h"

#include <string>

namespace stackscope {

namespace {

// "2.1.0+rocm5.6" and "2.1.0" are one release; the local part names the build, which `backend` compares.
std::string release(const std::string& version)
{
    return version.substr(0, version.find('+'));
}

bool anotherTorch(const TorchInfo& machine, const TorchInfo& stated)
{
    if (stated.version && machine.version && release(*stated.version) != release(*machine.version))
        return true;
    return stated.backend && machine.backend && *stated.backend != *machine.backend;
}

template <typename T> void take(std::optional<T>& to, const std::optional<T>& from)
{
    if (from)
        to = from;
}

bool statesTorch(const TorchInfo& t)
{
    return t.version || t.backend || t.builtWith || t.archList || t.blasBackend || t.deviceCount;
}

} // namespace

bool statesProcessFacts(const Snapshot& stated)
{
    return statesTorch(stated.torch) || !stated.env.empty() || stated.hostExtras.torchFoundNoGpu
        || stated.hostExtras.torchFoundGpu || stated.hostExtras.containerRunWithoutGpus;
}

Snapshot withStatedProcessFacts(const Snapshot& machine, const Snapshot& stated)
{
    Snapshot out = machine;
    if (anotherTorch(machine.torch, stated.torch)) {
        out.torch = stated.torch;
    } else {
        take(out.torch.version, stated.torch.version);
        take(out.torch.backend, stated.torch.backend);
        take(out.torch.builtWith, stated.torch.builtWith);
        take(out.torch.archList, stated.torch.archList);
        take(out.torch.blasBackend, stated.torch.blasBackend);
        take(out.torch.deviceCount, stated.torch.deviceCount);
    }
    for (const auto& [name, value] : stated.env)
        out.env[name] = value;
    take(out.hostExtras.torchFoundNoGpu, stated.hostExtras.torchFoundNoGpu);
    take(out.hostExtras.torchFoundGpu, stated.hostExtras.torchFoundGpu);
    take(out.hostExtras.containerRunWithoutGpus, stated.hostExtras.containerRunWithoutGpus);
    return out;
}

} // namespace stackscope
