// The GPU name table (see gpu_names.h). AMD names and targets: AMD's GPU specification table and LLVM's
// AMDGPU processor list; NVIDIA names and compute capabilities: NVIDIA's CUDA GPU list.
#include "core/diagnosis/gpu_names.h"

#include <algorithm>
#include <cctype>

namespace stackscope {

namespace {

constexpr const char* kAmdSpecs = "https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html";
constexpr const char* kLlvm = "https://llvm.org/docs/AMDGPUUsage.html#processors";
constexpr const char* kNvidia = "https://developer.nvidia.com/cuda-gpus";

std::string squash(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c != ' ' && c != '-' && c != '_')
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
}

// The word "AMD" (not "amd64", "amdgpu", "x86_amd"): people write "AMD 6700XT" as often as "Radeon 6700XT".
bool saysAmd(std::string_view text)
{
    for (std::size_t pos = 0; pos + 3 <= text.size(); ++pos) {
        if (std::tolower(static_cast<unsigned char>(text[pos])) != 'a'
            || std::tolower(static_cast<unsigned char>(text[pos + 1])) != 'm'
            || std::tolower(static_cast<unsigned char>(text[pos + 2])) != 'd')
            continue;
        const bool startOk = pos == 0 || !(std::isalnum(static_cast<unsigned char>(text[pos - 1])) || text[pos - 1] == '_');
        const bool endOk = pos + 3 == text.size() || !(std::isalnum(static_cast<unsigned char>(text[pos + 3])) || text[pos + 3] == '_');
        if (startOk && endOk)
            return true;
    }
    return false;
}

} // namespace

const std::vector<GpuNameEntry>& gpuNameTable()
{
    static const std::vector<GpuNameEntry> table {
        // AMD Instinct
        {"MI355X", "gfx950", "amd", false, kAmdSpecs}, {"MI350X", "gfx950", "amd", false, kAmdSpecs},
        {"MI325X", "gfx942", "amd", false, kAmdSpecs}, {"MI300X", "gfx942", "amd", false, kAmdSpecs},
        {"MI300A", "gfx942", "amd", false, kAmdSpecs}, {"MI250X", "gfx90a", "amd", false, kAmdSpecs},
        {"MI250", "gfx90a", "amd", false, kAmdSpecs}, {"MI210", "gfx90a", "amd", false, kAmdSpecs},
        {"MI100", "gfx908", "amd", false, kAmdSpecs}, {"MI60", "gfx906", "amd", false, kAmdSpecs},
        {"MI50", "gfx906", "amd", false, kAmdSpecs}, {"MI25", "gfx900", "amd", false, kAmdSpecs},
        // AMD Radeon discrete
        {"AI PRO R9700", "gfx1201", "amd", false, kAmdSpecs}, {"RX 9070 XT", "gfx1201", "amd", false, kAmdSpecs},
        {"RX 9070", "gfx1201", "amd", false, kAmdSpecs}, {"RX 9060 XT", "gfx1200", "amd", false, kAmdSpecs},
        {"RX 7900 XTX", "gfx1100", "amd", false, kAmdSpecs}, {"RX 7900 XT", "gfx1100", "amd", false, kAmdSpecs},
        {"RX 7900 GRE", "gfx1100", "amd", false, kAmdSpecs}, {"PRO W7900", "gfx1100", "amd", false, kAmdSpecs},
        {"PRO W7800", "gfx1100", "amd", false, kAmdSpecs}, {"RX 7800 XT", "gfx1101", "amd", false, kAmdSpecs},
        {"RX 7700 XT", "gfx1101", "amd", false, kAmdSpecs}, {"PRO W7700", "gfx1101", "amd", false, kAmdSpecs},
        {"RX 7600 XT", "gfx1102", "amd", false, kAmdSpecs}, {"RX 7600", "gfx1102", "amd", false, kAmdSpecs},
        {"RX 7700S", "gfx1102", "amd", false, kLlvm}, {"PRO W7600", "gfx1102", "amd", false, kAmdSpecs},
        {"RX 6950 XT", "gfx1030", "amd", false, kAmdSpecs}, {"RX 6900 XT", "gfx1030", "amd", false, kAmdSpecs},
        {"RX 6800 XT", "gfx1030", "amd", false, kAmdSpecs}, {"RX 6800", "gfx1030", "amd", false, kAmdSpecs},
        {"PRO W6800", "gfx1030", "amd", false, kAmdSpecs}, {"PRO V620", "gfx1030", "amd", false, kAmdSpecs},
        {"RX 6800M", "gfx1031", "amd", false, kLlvm}, {"RX 6750 XT", "gfx1031", "amd", false, kLlvm},
        {"RX 6700 XT", "gfx1031", "amd", false, kLlvm}, {"RX 6700", "gfx1031", "amd", false, kLlvm},
        {"RX 6700S", "gfx1032", "amd", false, kLlvm}, {"RX 6650 XT", "gfx1032", "amd", false, kLlvm},
        {"RX 6600 XT", "gfx1032", "amd", false, kLlvm}, {"RX 6600M", "gfx1032", "amd", false, kLlvm},
        {"RX 6600", "gfx1032", "amd", false, kLlvm}, {"PRO W6600", "gfx1032", "amd", false, kLlvm},
        {"RX 6500 XT", "gfx1034", "amd", false, kLlvm}, {"RX 6400", "gfx1034", "amd", false, kLlvm},
        {"RX 5700 XT", "gfx1010", "amd", false, kLlvm}, {"RX 5700", "gfx1010", "amd", false, kLlvm},
        {"RX 5600 XT", "gfx1010", "amd", false, kLlvm}, {"RX 5600", "gfx1010", "amd", false, kLlvm},
        {"RX 5500 XT", "gfx1012", "amd", false, kLlvm}, {"Radeon VII", "gfx906", "amd", false, kAmdSpecs},
        {"Vega 20", "gfx906", "amd", false, kLlvm}, {"Vega 64", "gfx900", "amd", false, kLlvm},
        {"Vega 56", "gfx900", "amd", false, kLlvm}, {"RX 590", "gfx803", "amd", false, kLlvm},
        {"RX 580", "gfx803", "amd", false, kLlvm}, {"RX 570", "gfx803", "amd", false, kLlvm},
        {"RX 480", "gfx803", "amd", false, kLlvm}, {"RX 470", "gfx803", "amd", false, kLlvm},
        // AMD integrated (APU) graphics
        {"Radeon 8060S", "gfx1151", "amd", true, kLlvm}, {"Radeon 8050S", "gfx1151", "amd", true, kLlvm},
        {"Radeon 890M", "gfx1150", "amd", true, kLlvm}, {"Radeon 880M", "gfx1150", "amd", true, kLlvm},
        {"Radeon 860M", "gfx1152", "amd", true, kLlvm}, {"Radeon 840M", "gfx1152", "amd", true, kLlvm},
        {"Radeon 780M", "gfx1103", "amd", true, kLlvm}, {"Radeon 760M", "gfx1103", "amd", true, kLlvm},
        {"Radeon 740M", "gfx1103", "amd", true, kLlvm}, {"Radeon 680M", "gfx1035", "amd", true, kLlvm},
        {"Radeon 660M", "gfx1035", "amd", true, kLlvm}, {"Radeon 610M", "gfx1037", "amd", true, kLlvm},
        {"with Radeon Vega Graphics", "gfx902", "amd", true, kLlvm},
        // NVIDIA
        {"RTX 5090", "sm_120", "nvidia", false, kNvidia}, {"RTX 5080", "sm_120", "nvidia", false, kNvidia},
        {"B200", "sm_100", "nvidia", false, kNvidia}, {"H200", "sm_90", "nvidia", false, kNvidia},
        {"H100", "sm_90", "nvidia", false, kNvidia}, {"RTX 4090", "sm_89", "nvidia", false, kNvidia},
        {"RTX 4080", "sm_89", "nvidia", false, kNvidia}, {"RTX 4070", "sm_89", "nvidia", false, kNvidia},
        {"RTX 4060", "sm_89", "nvidia", false, kNvidia}, {"L40S", "sm_89", "nvidia", false, kNvidia},
        {"L4", "sm_89", "nvidia", false, kNvidia}, {"A100", "sm_80", "nvidia", false, kNvidia},
        {"RTX 3090", "sm_86", "nvidia", false, kNvidia}, {"RTX 3080", "sm_86", "nvidia", false, kNvidia},
        {"RTX 3070", "sm_86", "nvidia", false, kNvidia}, {"RTX 3060", "sm_86", "nvidia", false, kNvidia},
        {"RTX 3050", "sm_86", "nvidia", false, kNvidia}, {"A10", "sm_86", "nvidia", false, kNvidia},
        {"RTX 2080", "sm_75", "nvidia", false, kNvidia}, {"RTX 2070", "sm_75", "nvidia", false, kNvidia},
        {"RTX 2060", "sm_75", "nvidia", false, kNvidia}, {"GTX 1650", "sm_75", "nvidia", false, kNvidia},
        {"Tesla T4", "sm_75", "nvidia", false, kNvidia}, {"V100", "sm_70", "nvidia", false, kNvidia},
        {"GTX 1080", "sm_61", "nvidia", false, kNvidia}, {"GTX 1070", "sm_61", "nvidia", false, kNvidia},
        {"Tesla P40", "sm_61", "nvidia", false, kNvidia},
    };
    return table;
}

std::optional<GpuNameEntry> findGpuName(std::string_view text)
{
    const std::string hay = squash(text);
    std::optional<GpuNameEntry> best;
    std::size_t bestLen = 0;
    const bool saysRadeon = hay.find("radeon") != std::string::npos || saysAmd(text);
    for (const auto& e : gpuNameTable()) {
        std::string needle = squash(e.name);
        // "Radeon 5700XT", "AMD 6700XT": people drop the RX; accepted only where the text says Radeon or AMD, and for
        // names of 6+ characters.
        if (saysRadeon && needle.rfind("rx", 0) == 0 && needle.size() >= 8 && hay.find(needle) == std::string::npos)
            needle = needle.substr(2);
        if (needle.size() <= bestLen)
            continue;
        // Short names (L4, A10, B200) must stand alone: the character after the match is not a digit/letter.
        for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
            const std::size_t end = pos + needle.size();
            const bool boundary = end >= hay.size() || !std::isalnum(static_cast<unsigned char>(hay[end]))
                || needle.size() > 6;
            const bool startOk = pos == 0 || !std::isalnum(static_cast<unsigned char>(hay[pos - 1])) || needle.size() > 4;
            if (boundary && startOk) {
                best = e;
                bestLen = needle.size();
                break;
            }
        }
    }
    return best;
}

const std::vector<AmdPciDevice>& amdPciDeviceTable()
{
    // Device ids of vendor 1002 as the PCI ID repository names them, with the gfx target LLVM lists for that chip.
    static const std::vector<AmdPciDevice> table {
        // integrated (APU) graphics
        {0x15dd, "Raven Ridge", "gfx902", true}, {0x1636, "Renoir", "gfx90c", true},
        {0x1638, "Cezanne", "gfx90c", true}, {0x164c, "Lucienne", "gfx90c", true},
        {0x1681, "Rembrandt (Radeon 680M)", "gfx1035", true}, {0x164e, "Raphael", "gfx1036", true},
        {0x1506, "Mendocino", "gfx1037", true}, {0x15bf, "Phoenix1", "gfx1103", true},
        {0x15c8, "Phoenix2", "gfx1103", true}, {0x150e, "Strix (Radeon 880M / 890M)", "gfx1150", true},
        {0x1586, "Strix Halo (Radeon 8050S / 8060S)", "gfx1151", true},
        // discrete
        {0x67df, "Ellesmere (RX 470/480/570/580)", "gfx803", false}, {0x687f, "Vega 10 (Vega 56/64)", "gfx900", false},
        {0x66af, "Vega 20 (Radeon VII)", "gfx906", false}, {0x66a1, "Vega 20 (MI50/MI60)", "gfx906", false},
        {0x738c, "Arcturus (MI100)", "gfx908", false}, {0x740c, "Aldebaran (MI250X/MI250)", "gfx90a", false},
        {0x740f, "Aldebaran (MI210)", "gfx90a", false}, {0x74a1, "MI300X", "gfx942", false},
        {0x731f, "Navi 10 (RX 5600/5700)", "gfx1010", false}, {0x7340, "Navi 14 (RX 5500)", "gfx1012", false},
        {0x73bf, "Navi 21 (RX 6800/6900)", "gfx1030", false}, {0x73df, "Navi 22 (RX 6700)", "gfx1031", false},
        {0x73ff, "Navi 23 (RX 6600)", "gfx1032", false}, {0x744c, "Navi 31 (RX 7900)", "gfx1100", false},
        {0x747e, "Navi 32 (RX 7700/7800)", "gfx1101", false}, {0x7480, "Navi 33 (RX 7600)", "gfx1102", false},
        {0x7550, "Navi 48 (RX 9070)", "gfx1201", false},
    };
    return table;
}

std::optional<AmdPciDevice> findAmdPciDevice(unsigned deviceId)
{
    for (const auto& d : amdPciDeviceTable())
        if (d.deviceId == deviceId)
            return d;
    return std::nullopt;
}

bool isIntegratedArch(const std::string& arch)
{
    static const std::vector<std::string> archs {"gfx902", "gfx90c", "gfx1035", "gfx1036", "gfx1037",
                                                 "gfx1103", "gfx1150", "gfx1151", "gfx1152"};
    return std::find(archs.begin(), archs.end(), arch) != archs.end();
}

} // namespace stackscope
