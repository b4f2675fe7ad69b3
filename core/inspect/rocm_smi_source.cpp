// AMD GPU names, VRAM and PCI addresses through rocm_smi_lib opened at run time.
#include "core/runtime/captured_stderr.h"
#include "core/runtime/vendor_abi.h"
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
        const RocmSmiApi smi(lib);
        if (!smi.hasCore()) {
            status.error = "the library lacks rsmi_init/rsmi_num_monitor_devices; reinstall rocm-smi-lib";
            s.libraries.push_back(std::move(status));
            return;
        }
        // Without AMD GPUs rsmi_init prints its own lines to the terminal; they go into the library's error instead.
        const auto [rc, said] = callCapturingStderr([&smi] { return smi.init(0); });
        if (rc != 0) {
            // RSMI_STATUS_INIT_ERROR and friends: usually no amdgpu driver loaded or no permission.
            status.error = fmt::format("rsmi_init failed with status {}; is the amdgpu driver loaded and "
                                       "/sys/class/drm readable?", rc);
            if (const std::string line = capturedAsOneLine(said); !line.empty())
                *status.error += " rocm_smi printed: \"" + line + "\"";
            s.libraries.push_back(std::move(status));
            return;
        }
        printToStderr(said); // a warning from a working library is the user's to see
        std::uint32_t count = 0;
        smi.numDevices(&count);
        for (std::uint32_t i = 0; i < count; ++i) {
            GpuInfo g;
            g.index = static_cast<int>(i);
            g.vendor = "amd";
            g.source = "rocm_smi";
            char buf[256] = {};
            if (smi.name && smi.name(i, buf, sizeof buf) == 0)
                g.name = buf;
            std::uint64_t v = 0;
            if (smi.memTotal && smi.memTotal(i, kRsmiMemTypeVram, &v) == 0)
                g.vramTotalBytes = v;
            if (smi.memUsed && smi.memUsed(i, kRsmiMemTypeVram, &v) == 0)
                g.vramUsedBytes = v;
            std::uint64_t bdf = 0;
            if (smi.pciId && smi.pciId(i, &bdf) == 0) {
                g.pciBus = fmt::format("{:04x}:{:02x}:{:02x}.{:x}", (bdf >> 32) & 0xffff, (bdf >> 8) & 0xff,
                                       (bdf >> 3) & 0x1f, bdf & 0x7);
            }
            s.gpus.push_back(std::move(g));
        }
        char drv[128] = {};
        if (smi.versionString && smi.versionString(kRsmiSwCompDriver, drv, sizeof drv) == 0 && *drv &&
            !s.rocm.amdgpuDriverVersion)
            s.rocm.amdgpuDriverVersion = std::string(drv);
        if (smi.shutdown)
            smi.shutdown();
        s.libraries.push_back(std::move(status));
    }
};

} // namespace

std::unique_ptr<RuntimeSource> makeRocmSmiSource()
{
    return std::make_unique<RocmSmiSource>();
}

} // namespace stackscope
