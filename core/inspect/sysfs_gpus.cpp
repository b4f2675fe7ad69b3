// GPUs from sysfs (drm cards, KFD topology) and NVIDIA's /proc/driver/nvidia files.
#include "core/inspect/file_facts.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <algorithm>
#include <sstream>

namespace stackscope {

std::string gfxNameFromTargetVersion(unsigned long version)
{
    const unsigned long major = version / 10000;
    const unsigned long minor = (version / 100) % 100;
    const unsigned long step = version % 100;
    return fmt::format("gfx{}{}{:x}", major, minor, step);
}

std::string normalizePciBus(const std::string& bus)
{
    unsigned domain = 0, b = 0, d = 0, f = 0;
    if (std::sscanf(bus.c_str(), "%x:%x:%x.%x", &domain, &b, &d, &f) == 4)
        return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain & 0xffff, b, d, f);
    if (std::sscanf(bus.c_str(), "%x:%x.%x", &b, &d, &f) == 3)
        return fmt::format("0000:{:02x}:{:02x}.{:x}", b, d, f);
    return bus;
}

namespace {

std::optional<unsigned long> readNumber(const SystemRoot& root, const std::string& path, int base = 0)
{
    auto line = root.readLine(path);
    if (!line || line->empty())
        return std::nullopt;
    try {
        return std::stoul(*line, nullptr, base);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// "key value" lines of a KFD properties file.
std::map<std::string, unsigned long long> readProperties(const SystemRoot& root, const std::string& path)
{
    std::map<std::string, unsigned long long> props;
    auto text = root.readText(path);
    if (!text)
        return props;
    std::istringstream in(*text);
    std::string key;
    unsigned long long value = 0;
    while (in >> key >> value)
        props[key] = value;
    return props;
}

// Device name from pci.ids ("Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]").
std::optional<std::string> pciDeviceName(const SystemRoot& root, unsigned vendor, unsigned device)
{
    for (const char* p : {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids"}) {
        auto text = root.readText(p, 8u << 20);
        if (!text)
            continue;
        const auto vendorKey = fmt::format("{:04x}  ", vendor);
        const auto deviceKey = fmt::format("\t{:04x}  ", device);
        std::istringstream in(*text);
        std::string line;
        bool inVendor = false;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (line[0] != '\t') {
                if (inVendor)
                    return std::nullopt;
                inVendor = line.rfind(vendorKey, 0) == 0;
            } else if (inVendor && line.rfind(deviceKey, 0) == 0) {
                return trim(line.substr(deviceKey.size()));
            }
        }
        return std::nullopt;
    }
    return std::nullopt;
}

struct KfdNode {
    std::string pciBus;
    std::string gfx;
    unsigned vendorId = 0; // 0: not in the properties
    unsigned deviceId = 0;
};

std::vector<KfdNode> readKfdNodes(const SystemRoot& root)
{
    std::vector<KfdNode> nodes;
    const std::string base = "/sys/class/kfd/kfd/topology/nodes";
    for (const auto& n : root.list(base)) {
        auto props = readProperties(root, base + "/" + n + "/properties");
        const auto gfx = props.find("gfx_target_version");
        if (gfx == props.end() || gfx->second == 0)
            continue; // a CPU node
        const unsigned long long loc = props["location_id"];
        const unsigned long long domain = props["domain"];
        KfdNode node;
        node.pciBus = fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain & 0xffff, (loc >> 8) & 0xff, (loc >> 3) & 0x1f, loc & 0x7);
        node.gfx = gfxNameFromTargetVersion(static_cast<unsigned long>(gfx->second));
        node.vendorId = static_cast<unsigned>(props["vendor_id"]);
        node.deviceId = static_cast<unsigned>(props["device_id"]);
        nodes.push_back(node);
    }
    return nodes;
}

// A KFD node with a non-zero gfx_target_version is a GPU (HIP enumerates exactly those), even where
// /sys/class/drm has no card for it (a container, a recorded root without drm): list it, with what
// only drm would say (VRAM, product name) left unknown.
void addKfdOnlyGpus(const SystemRoot& root, const std::vector<KfdNode>& kfd, std::vector<GpuInfo>& gpus)
{
    for (const auto& node : kfd) {
        const bool listed = std::any_of(gpus.begin(), gpus.end(), [&](const GpuInfo& g) { return g.pciBus && *g.pciBus == node.pciBus; });
        if (listed)
            continue;
        GpuInfo g;
        g.vendor = node.vendorId == 0x10de ? "nvidia" : "amd"; // KFD is AMD's driver; its nodes name the vendor
        g.arch = node.gfx;
        g.pciBus = node.pciBus;
        g.source = "kfd";
        if (auto name = node.vendorId ? pciDeviceName(root, node.vendorId, node.deviceId) : std::nullopt)
            g.name = *name;
        else {
            g.name = fmt::format("AMD GPU {} (name unknown: no /sys/class/drm entry)", node.gfx);
            g.nameKnown = false;
        }
        gpus.push_back(std::move(g));
    }
}

} // namespace

std::vector<GpuInfo> readSysfsGpus(const SystemRoot& root)
{
    const auto kfd = readKfdNodes(root);
    std::vector<GpuInfo> gpus;
    for (const auto& card : root.list("/sys/class/drm")) {
        if (card.rfind("card", 0) != 0 || card.find('-') != std::string::npos)
            continue; // connectors such as card0-DP-1
        const std::string dev = "/sys/class/drm/" + card + "/device";
        const auto vendor = readNumber(root, dev + "/vendor", 16);
        const auto device = readNumber(root, dev + "/device", 16);
        const auto cls = readNumber(root, dev + "/class", 16);
        if (!vendor || (cls && (*cls >> 16) != 0x03))
            continue; // not a display controller
        GpuInfo g;
        g.vendor = *vendor == 0x1002 ? "amd" : *vendor == 0x10de ? "nvidia" : "other";
        if (auto uevent = root.readText(dev + "/uevent")) {
            std::istringstream in(*uevent);
            std::string line;
            while (std::getline(in, line)) {
                if (line.rfind("PCI_SLOT_NAME=", 0) == 0)
                    g.pciBus = normalizePciBus(trim(line.substr(14)));
            }
        }
        if (auto product = root.readLine(dev + "/product_name"); product && !product->empty())
            g.name = *product;
        else if (auto name = pciDeviceName(root, static_cast<unsigned>(*vendor), static_cast<unsigned>(device.value_or(0))))
            g.name = *name;
        else
            g.name = fmt::format("PCI device {:04x}:{:04x}", *vendor, device.value_or(0));
        if (auto total = readNumber(root, dev + "/mem_info_vram_total"))
            g.vramTotalBytes = *total;
        if (auto used = readNumber(root, dev + "/mem_info_vram_used"))
            g.vramUsedBytes = *used;
        g.source = "sysfs";
        if (g.vendor == "amd")
            g.firmware = readAmdgpuFirmware(root, dev);
        g.pcieLinks = readPcieLinks(root, dev, g.pciBus.value_or(""));
        for (const auto& node : kfd) {
            if (g.pciBus && node.pciBus == *g.pciBus) {
                g.arch = node.gfx;
                g.source = "sysfs+kfd";
            }
        }
        gpus.push_back(std::move(g));
    }
    addKfdOnlyGpus(root, kfd, gpus);
    return gpus;
}

std::optional<std::string> readNvidiaDriverVersion(const SystemRoot& root)
{
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." or "...Open Kernel Module for x86_64  580..."
    auto line = root.readLine("/proc/driver/nvidia/version");
    if (!line)
        return std::nullopt;
    std::istringstream in(*line);
    std::string word;
    while (in >> word) {
        if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) && word.find('.') != std::string::npos)
            return word;
    }
    return std::nullopt;
}

std::vector<GpuInfo> readNvidiaProcGpus(const SystemRoot& root)
{
    std::vector<GpuInfo> gpus;
    const auto driver = readNvidiaDriverVersion(root);
    for (const auto& bus : root.list("/proc/driver/nvidia/gpus")) {
        GpuInfo g;
        g.vendor = "nvidia";
        g.pciBus = normalizePciBus(bus);
        g.driverVersion = driver;
        g.source = "procfs";
        g.pcieLinks = readPcieLinks(root, "/sys/bus/pci/devices/" + *g.pciBus, *g.pciBus);
        if (auto text = root.readText("/proc/driver/nvidia/gpus/" + bus + "/information")) {
            const auto fields = nvidiaInformationFields(*text);
            g.firmware = readNvidiaFirmware(fields);
            if (const auto model = fields.find("Model"); model != fields.end())
                g.name = model->second;
        }
        if (g.name.empty())
            g.name = "NVIDIA GPU";
        gpus.push_back(std::move(g));
    }
    return gpus;
}

} // namespace stackscope
