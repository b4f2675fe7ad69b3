// AMD GPU names, VRAM and PCI addresses through rocm_smi_lib opened at run time.
#include "core/inspect/vendor_abi.h"
#include "core/inspect/runtime_sources.h"

#include <cstdint>
#include <fmt/format.h>

namespace stackscope {

namespace {

using namespace vendor;

class RocmSmiSource : public RuntimeSource {
public:
    void collect(Snapshot& s) override
    {
        auto lib = DynamicLibrary::open(rocmSmiCandidates());
        auto status = lib.status("rocm_smi");
        if (!lib.isLoaded()) {
            s.libraries.push_back(std::move(status));
            return;
        }
        auto init = lib.symbol<int (*)(std::uint64_t)>("rsmi_init");
        auto shutdown = lib.symbol<int (*)()>("rsmi_shut_down");
        auto numDevices = lib.symbol<int (*)(std::uint32_t*)>("rsmi_num_monitor_devices");
        auto name = lib.symbol<int (*)(std::uint32_t, char*, size_t)>("rsmi_dev_name_get");
        auto memTotal = lib.symbol<int (*)(std::uint32_t, int, std::uint64_t*)>("rsmi_dev_memory_total_get");
        auto memUsed = lib.symbol<int (*)(std::uint32_t, int, std::uint64_t*)>("rsmi_dev_memory_usage_get");
        auto pciId = lib.symbol<int (*)(std::uint32_t, std::uint64_t*)>("rsmi_dev_pci_id_get");
        auto driverStr = lib.symbol<int (*)(int, char*, std::uint32_t)>("rsmi_version_str_get");
        if (!init || !numDevices) {
            status.error = "the library lacks rsmi_init/rsmi_num_monitor_devices; reinstall rocm-smi-lib";
            s.libraries.push_back(std::move(status));
            return;
        }
        if (const int rc = init(0); rc != 0) {
            // RSMI_STATUS_INIT_ERROR and friends: usually no amdgpu driver loaded or no permission.
            status.error = fmt::format("rsmi_init failed with status {}; is the amdgpu driver loaded and "
                                       "/sys/class/drm readable?", rc);
            s.libraries.push_back(std::move(status));
            return;
        }
        std::uint32_t count = 0;
        numDevices(&count);
        for (std::uint32_t i = 0; i < count; ++i) {
            GpuInfo g;
            g.index = static_cast<int>(i);
            g.vendor = "amd";
            g.source = "rocm_smi";
            char buf[256] = {};
            if (name && name(i, buf, sizeof buf) == 0)
                g.name = buf;
            std::uint64_t v = 0;
            if (memTotal && memTotal(i, kRsmiMemTypeVram, &v) == 0)
                g.vramTotalBytes = v;
            if (memUsed && memUsed(i, kRsmiMemTypeVram, &v) == 0)
                g.vramUsedBytes = v;
            std::uint64_t bdf = 0;
            if (pciId && pciId(i, &bdf) == 0) {
                g.pciBus = fmt::format("{:04x}:{:02x}:{:02x}.{:x}", (bdf >> 32) & 0xffff, (bdf >> 8) & 0xff,
                                       (bdf >> 3) & 0x1f, bdf & 0x7);
            }
            s.gpus.push_back(std::move(g));
        }
        char drv[128] = {};
        if (driverStr && driverStr(kRsmiSwCompDriver, drv, sizeof drv) == 0 && *drv && !s.rocm.amdgpuDriverVersion)
            s.rocm.amdgpuDriverVersion = std::string(drv);
        if (shutdown)
            shutdown();
        s.libraries.push_back(std::move(status));
    }
};

} // namespace

std::unique_ptr<RuntimeSource> makeRocmSmiSource()
{
    return std::make_unique<RocmSmiSource>();
}

} // namespace stackscope
