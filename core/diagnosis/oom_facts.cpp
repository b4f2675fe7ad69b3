// See oom_facts.h. The message's wording is PyTorch's c10/cuda/CUDACachingAllocator.cpp (the same text on ROCm with
// "HIP"): "Tried to allocate X (GPU n; T total capacity; ...; F free; ...)" before 2.1, "Tried to allocate X. GPU n has
// a total capacity of T of which F is free. Process p has M memory in use. ..." since.
#include "core/diagnosis/oom_facts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <regex>

namespace stackscope {

namespace {

// Sizes as PyTorch prints them (format_size): "0 bytes", "512.00 KiB", "20.00 MiB", "3.42 GiB".
const char* const kSize = R"((\d+(?:\.\d+)? (?:bytes|KiB|MiB|GiB|TiB)))";

std::string group(const std::smatch& m, std::size_t i)
{
    return m.size() > i && m[i].matched ? m[i].str() : std::string();
}

std::string formatBytes(std::uint64_t b)
{
    const double gib = static_cast<double>(b) / (1024.0 * 1024.0 * 1024.0);
    if (gib >= 1.0)
        return fmt::format("{:.2f} GiB", gib);
    return fmt::format("{:.2f} MiB", static_cast<double>(b) / (1024.0 * 1024.0));
}

} // namespace

std::optional<OomMessage> parseOomMessage(std::string_view text)
{
    const auto at = text.find("out of memory. Tried to allocate ");
    if (at == std::string_view::npos)
        return std::nullopt;
    // A bounded window: the message is one line of a few hundred bytes, so the regexes never run on a long line.
    const std::string s(text.substr(at, 1024));
    OomMessage m;
    std::smatch r;
    if (std::regex_search(s, r, std::regex(std::string("Tried to allocate ") + kSize)))
        m.requested = group(r, 1);
    if (std::regex_search(s, r, std::regex(R"(\(GPU (\d+); )" + std::string(kSize) + " total capacity")))
        m.gpu = std::stoi(group(r, 1)), m.total = group(r, 2);
    else if (std::regex_search(s, r, std::regex(R"(GPU (\d+) has a total capacity of )" + std::string(kSize))))
        m.gpu = std::stoi(group(r, 1)), m.total = group(r, 2);
    if (std::regex_search(s, r, std::regex(std::string("; ") + kSize + " free")))
        m.free = group(r, 1);
    else if (std::regex_search(s, r, std::regex(std::string(" of which ") + kSize + " is free")))
        m.free = group(r, 1);
    const std::regex holder(std::string(R"(Process (\d+) has )") + kSize + " memory in use");
    std::vector<std::string> held;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), holder); it != std::sregex_iterator(); ++it)
        held.push_back(fmt::format("process {} holds {}", group(*it, 1), group(*it, 2)));
    m.heldByProcesses = fmt::format("{}", fmt::join(held, "; "));
    return m;
}

std::string describeOom(const std::optional<OomMessage>& message, const Snapshot* snapshot)
{
    std::vector<std::string> parts;
    if (message && !message->requested.empty()) {
        std::string s = "The job asked for " + message->requested;
        if (message->gpu)
            s += fmt::format(" on GPU {}", *message->gpu);
        if (!message->total.empty())
            s += fmt::format(" ({} total, {} free)", message->total, message->free.empty() ? "? " : message->free);
        parts.push_back(s + ".");
        if (!message->heldByProcesses.empty())
            parts.push_back("The message says: " + message->heldByProcesses + ".");
    }
    if (snapshot) {
        for (const auto& g : snapshot->gpus) {
            if (message && message->gpu && g.index != *message->gpu)
                continue;
            if (!g.processesKnown) {
                parts.push_back(fmt::format("Who holds GPU {}'s memory is unknown here (the driver was not asked or "
                                            "refused); {} lists the processes.", g.index,
                                            g.vendor == "amd" ? "`rocm-smi --showpids`" : "`nvidia-smi`"));
                continue;
            }
            std::vector<std::string> holders;
            for (const auto& p : g.processes)
                holders.push_back(fmt::format("process {} ({}{}) {}", p.pid, p.command.value_or("?"),
                                              p.user ? ", user " + *p.user : "",
                                              p.usedBytes ? "holds " + formatBytes(*p.usedBytes) : "holds an unknown amount"));
            const std::string used = g.vramUsedBytes && g.vramTotalBytes
                ? fmt::format(" ({} of {} in use)", formatBytes(*g.vramUsedBytes), formatBytes(*g.vramTotalBytes))
                : "";
            parts.push_back(holders.empty() ? fmt::format("Now, no process holds memory on GPU {}{}.", g.index, used)
                                            : fmt::format("Now, on GPU {}{}: {}.", g.index, used, fmt::join(holders, "; ")));
        }
    }
    return fmt::format("{}", fmt::join(parts, " "));
}

} // namespace stackscope
