// Host facts issue 22's rules use, part of the snapshot (Snapshot::hostExtras, JSON "host_extras"): kernel
// command line, Secure Boot, WSL, amdgpu DKMS builds and recent amdgpu/KFD kernel log lines. Read live or from
// a recorded root (core/inspect/host_extras_reader.h) or stated in a pasted log (core/diagnosis/log_facts.h);
// null/empty means unknown.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// One amdgpu build of `dkms status`: amdgpu/6.14.14-2193512.24.04, 6.14.0-29-generic, x86_64: installed
struct DkmsModule {
    std::string name;    // "amdgpu"
    std::string version; // "6.14.14-2193512.24.04" (live) or "6.14.14" (stated in a log)
    std::string kernel;  // the kernel it is built for; empty when none
    std::string status;  // "installed", "built", "added", "broken (no dkms.conf)"
};

struct HostExtras {
    std::optional<std::string> kernelCmdline;   // /proc/cmdline
    std::optional<bool> secureBoot;             // EFI SecureBoot (false on a legacy-BIOS boot)
    std::optional<bool> wsl;                    // Windows Subsystem for Linux (/dev/dxg, Microsoft kernel)
    std::vector<DkmsModule> dkms;               // amdgpu DKMS builds
    std::vector<std::string> kernelLogGpuLines; // recent amdgpu/KFD kernel log lines, where readable
    std::optional<std::string> kernelLogSource; // where they came from: "/dev/kmsg", "dmesg", "/var/log/kern.log"
    std::optional<std::string> kernelLogNote;   // why no kernel log could be read (null when one was)
    std::vector<std::string> dkmsStatus;        // `dkms status` output lines, when the program ran (live only)
    // Stated in a pasted log only (never read live, not part of the JSON): the log's `docker run` / `podman run`
    // line that passes the container no GPU (no --gpus, --runtime=nvidia, --device), and the log's own check that
    // found no GPU for PyTorch (`torch.cuda.is_available()` printing False, "Found no NVIDIA driver" ...); each the
    // line as written, null when the text shows none.
    std::optional<std::string> containerRunWithoutGpus;
    std::optional<std::string> torchFoundNoGpu;
    // The text's own check that PyTorch initialised the GPU runtime (collect_env's "Is CUDA available: True",
    // torch.cuda.is_available() -> True): the driver accepted the runtime, whatever the version table says.
    std::optional<std::string> torchFoundGpu;
};

} // namespace stackscope
