// PCIe link shortfalls of a snapshot's GPUs (see pcie_links.h).
#include "core/snapshot/pcie_links.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace stackscope {

std::optional<double> pcieSpeedGts(const std::string& text)
{
    const auto unit = text.find("GT/s");
    if (unit == std::string::npos || unit == 0)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || v <= 0.0 || v > 1000.0)
        return std::nullopt;
    return v;
}

std::string describeLink(const PcieLink& l)
{
    auto width = [](const std::optional<int>& w) { return w ? fmt::format("x{}", *w) : std::string("x?"); };
    return fmt::format("{} {} (max {} {})", l.currentSpeed.value_or("?"), width(l.currentWidth), l.maxSpeed.value_or("?"),
                       width(l.maxWidth));
}

namespace {

std::string gpuLabel(const GpuInfo& g)
{
    return fmt::format("gpus[{}] {}", g.index, g.name);
}

} // namespace

std::vector<std::string> narrowPcieLinks(const Snapshot& s)
{
    std::vector<std::string> out;
    for (const auto& g : s.gpus) {
        for (std::size_t i = 0; i < g.pcieLinks.size(); ++i) {
            const auto& l = g.pcieLinks[i];
            if (!l.currentWidth || !l.maxWidth || *l.currentWidth <= 0 || *l.currentWidth >= *l.maxWidth)
                continue;
            std::string why;
            if (i + 1 < g.pcieLinks.size() && g.pcieLinks[i + 1].maxWidth && *g.pcieLinks[i + 1].maxWidth <= *l.currentWidth)
                why = fmt::format(": the port above ({}) has only x{}", g.pcieLinks[i + 1].device, *g.pcieLinks[i + 1].maxWidth);
            out.push_back(fmt::format("{}: {} runs {}{}", gpuLabel(g), l.device, describeLink(l), why));
        }
    }
    return out;
}

std::vector<std::string> slowPcieLinks(const Snapshot& s)
{
    std::vector<std::string> out;
    for (const auto& g : s.gpus) {
        for (std::size_t i = 0; i < g.pcieLinks.size(); ++i) {
            const auto& l = g.pcieLinks[i];
            // Both ends must be known: without the port above, a card faster than its board looks slow.
            if (i + 1 >= g.pcieLinks.size() || !g.pcieLinks[i + 1].maxSpeed || !l.currentSpeed || !l.maxSpeed)
                continue;
            const auto now = pcieSpeedGts(*l.currentSpeed);
            const auto own = pcieSpeedGts(*l.maxSpeed);
            const auto above = pcieSpeedGts(*g.pcieLinks[i + 1].maxSpeed);
            if (now && own && above && *now < std::min(*own, *above))
                out.push_back(fmt::format("{}: {} runs {}", gpuLabel(g), l.device, describeLink(l)));
        }
    }
    return out;
}

} // namespace stackscope
