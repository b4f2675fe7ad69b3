// A GPU's firmware versions and its PCIe links, from sysfs (amdgpu's fw_version folder, the PCI core's
// *_link_* files) and NVIDIA's /proc/driver/nvidia/gpus/*/information.
#include "core/inspect/file_facts.h"

#include <cctype>
#include <sstream>

namespace stackscope {

namespace {

// "0000:03:00.0": a PCI function's name in /sys/devices.
bool isPciAddress(const std::string& name)
{
    if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.')
        return false;
    for (size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u}) {
        if (!std::isxdigit(static_cast<unsigned char>(name[i])))
            return false;
    }
    return true;
}

std::optional<int> readWidth(const SystemRoot& root, const std::string& path)
{
    auto line = root.readLine(path);
    if (!line || line->empty() || line->size() > 3 || !std::isdigit(static_cast<unsigned char>((*line)[0])))
        return std::nullopt;
    return std::stoi(*line);
}

std::optional<PcieLink> readLink(const SystemRoot& root, const std::string& dir, const std::string& device)
{
    PcieLink l;
    l.device = device;
    l.currentSpeed = root.readLine(dir + "/current_link_speed");
    l.maxSpeed = root.readLine(dir + "/max_link_speed");
    l.currentWidth = readWidth(root, dir + "/current_link_width");
    l.maxWidth = readWidth(root, dir + "/max_link_width");
    if (!l.currentSpeed && !l.maxSpeed && !l.currentWidth && !l.maxWidth)
        return std::nullopt;
    return l;
}

} // namespace

std::map<std::string, std::string> readAmdgpuFirmware(const SystemRoot& root, const std::string& devicePath)
{
    // amdgpu_ucode.c: one file per block, "<block>_fw_version", each "0x%08x\n".
    std::map<std::string, std::string> fw;
    const std::string dir = devicePath + "/fw_version";
    const std::string suffix = "_fw_version";
    for (const auto& name : root.list(dir)) {
        if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        if (auto v = root.readLine(dir + "/" + name); v && !v->empty() && v->size() <= 32)
            fw[name.substr(0, name.size() - suffix.size())] = *v;
    }
    return fw;
}

std::vector<PcieLink> readPcieLinks(const SystemRoot& root, const std::string& devicePath, const std::string& address)
{
    // /sys/class/drm/cardN/device -> /sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0:
    // the GPU function, then the card's switch ports and the root port, each with its own link files.
    std::vector<PcieLink> links;
    std::string path = root.canonical(devicePath);
    if (!isPciAddress(path.substr(path.rfind('/') + 1))) {
        // A device folder that is no link into /sys/devices (a recorded root): its own link files only.
        auto own = readLink(root, path, address);
        return own ? std::vector<PcieLink> {*own} : std::vector<PcieLink> {};
    }
    for (int depth = 0; depth < 8 && path.size() > 1; ++depth) {
        const auto slash = path.rfind('/');
        const std::string name = path.substr(slash + 1);
        if (!isPciAddress(name))
            break;
        if (auto l = readLink(root, path, name))
            links.push_back(*l);
        path = path.substr(0, slash);
    }
    return links;
}

std::map<std::string, std::string> nvidiaInformationFields(const std::string& information)
{
    std::map<std::string, std::string> fields;
    std::istringstream in(information);
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon != std::string::npos)
            fields.emplace(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
    }
    return fields;
}

std::map<std::string, std::string> readNvidiaFirmware(const std::map<std::string, std::string>& fields)
{
    // "Video BIOS: \t 96.00.da.00.0c", and on drivers with GSP firmware "GPU Firmware: \t 580.159.04";
    // "??.??.??.??.??" when the driver could not read the VBIOS.
    std::map<std::string, std::string> fw;
    for (const auto& [key, name] : {std::pair<const char*, const char*> {"Video BIOS", "vbios"}, {"GPU Firmware", "gsp"}}) {
        const auto it = fields.find(key);
        if (it == fields.end() || it->second.empty() || it->second.find("??") != std::string::npos ||
            it->second.size() > 64)
            continue;
        fw[name] = it->second;
    }
    return fw;
}

} // namespace stackscope
