// GPU marketing names -> architecture (gfx target or sm_XY), for facts stated in pasted logs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

struct GpuNameEntry {
    const char* name;   // as marketed, "RX 7900 XTX", "Radeon 780M", "RTX 4090"
    const char* arch;   // "gfx1100", "sm_89"
    const char* vendor; // "amd" | "nvidia"
    bool integrated;    // APU / SoC graphics
    const char* source; // public page that lists the name with its architecture
};

// Every entry, for tests and documentation.
const std::vector<GpuNameEntry>& gpuNameTable();

// The longest table name contained in `text` (case and spaces ignored, so "5700XT" finds "RX 5700 XT"),
// or nullopt. Linear in the text for each entry (the table is fixed, about 90 names).
std::optional<GpuNameEntry> findGpuName(std::string_view text);

// AMD PCI device ids (vendor 1002) as logs print them ("kfd kfd: added device 1002:1636", `lspci -nn`
// "[1002:744c]"): chip, gfx target and whether it is APU graphics. Sources: the PCI ID repository
// (https://pci-ids.ucw.cz/read/PC/1002) for the chip, LLVM's processor list for its target.
struct AmdPciDevice {
    unsigned deviceId;
    const char* chip;
    const char* arch;
    bool integrated;
};
const std::vector<AmdPciDevice>& amdPciDeviceTable();
std::optional<AmdPciDevice> findAmdPciDevice(unsigned deviceId);

// Architectures of integrated (APU) graphics, from the same table plus the LLVM processor list.
bool isIntegratedArch(const std::string& arch);

} // namespace stackscope
