// Builds a snapshot of a machine: file facts, run-time library facts, merged GPUs, findings.
#pragma once

#include "core/inspect/runtime_sources.h"
#include "core/snapshot/snapshot.h"

#include <memory>
#include <string>
#include <vector>

namespace stackscope {

struct InspectOptions {
    // "/" for this machine; another folder replays a recorded machine (runtime facts are then null).
    std::string root = "/";
};

// With `sources` empty and a live root, the default run-time sources are used.
Snapshot inspectMachine(const InspectOptions& options, std::vector<std::unique_ptr<RuntimeSource>> sources = {});

// Merges GPU entries that share a PCI bus (the first entry keeps its place; sources are joined).
std::vector<GpuInfo> mergeGpus(const std::vector<GpuInfo>& found);

// Current time as ISO-8601 UTC ("2026-11-21T16:23:33Z").
std::string nowIsoUtc();

} // namespace stackscope
