// Which PCIe links on a GPU's path run below what they can (fewer lanes, lower speed), from the snapshot's
// gpus[].pcie_links; used by the diagnosis triggers pcie_link_narrow / pcie_link_slow and by inspect's text.
#pragma once

#include "core/snapshot/snapshot.h"

#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// "16.0 GT/s PCIe", "8 GT/s" -> 16.0, 8.0; nullopt for "Unknown" or anything else.
std::optional<double> pcieSpeedGts(const std::string& text);

// "16.0 GT/s PCIe x8 (max 32.0 GT/s PCIe x16)"
std::string describeLink(const PcieLink& l);

// One line per link that trained to fewer lanes than its device supports: "gpus[0] NAME: 0000:01:00.0 ...".
// Lanes cut bandwidth by 2-16x and do not change with load, so each is worth a warning, including a slot wired
// for fewer lanes than the card (the port above reports that smaller maximum: said in the line).
std::vector<std::string> narrowPcieLinks(const Snapshot& s);

// One line per link running slower than both its ends support (the device's maximum and that of the next device
// listed above it; a link with no device listed above is not judged): a board one generation older than the
// card is the port's own maximum and is not listed.
// GPUs lower the link speed when idle (amdgpu's pp_dpm_pcie, NVIDIA's P-states), so this is a hint to re-check
// under load, not a fault on its own.
std::vector<std::string> slowPcieLinks(const Snapshot& s);

} // namespace stackscope
