// Facts a pasted log states about the machine it came from (GPUs and their gfx targets, torch and the
// ROCm/CUDA it was built for, installed ROCm, amdgpu driver and dkms lines, environment variables
// shown, kernel command line, WSL), gathered into a partial snapshot the diagnosis rules can use.
#pragma once

#include "core/diagnosis/text_normalizer.h"
#include "core/snapshot/host_extras.h"
#include "core/snapshot/snapshot.h"

#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

struct LogFacts {
    Snapshot snapshot;              // only what the text states (host facts in snapshot.hostExtras); the rest unknown
    std::vector<std::string> lines; // each fact in words with the log line it came from
    bool any() const { return !lines.empty(); }
};

// "(venv) user@host:~$ cmd", ">>> x", "In [3]: x", "$ cmd", "❯ cmd", "root@box:/path# cmd" -> the
// command or expression; other lines unchanged.
std::string stripPrompt(std::string_view line);

// One pass over the lines (each looked at a bounded number of times: linear in the text).
LogFacts extractLogFacts(const NormalizedText& text);

} // namespace stackscope
