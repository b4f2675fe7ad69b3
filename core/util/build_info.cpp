// Version and build options from the generated header.
#include "core/util/build_info.h"

#include "stackscope_version.h"

#include <fmt/format.h>

namespace stackscope {

namespace {
const char* onOff(const char* cmakeBool)
{
    const std::string v = cmakeBool;
    return (v == "ON" || v == "1" || v == "TRUE") ? "on" : "off";
}
} // namespace

std::string stackscopeVersion()
{
    return STACKSCOPE_VERSION;
}

std::string buildDescription()
{
    const std::string torch = std::string(onOff(STACKSCOPE_BUILD_TORCH)) == "on"
        ? fmt::format("libtorch {}", STACKSCOPE_BUILD_TORCH_VERSION) : std::string("libtorch off");
    return fmt::format("{} (GUI {}, HIP {}, CUDA {}, {})", STACKSCOPE_VERSION, onOff(STACKSCOPE_BUILD_GUI),
                       onOff(STACKSCOPE_BUILD_HIP), onOff(STACKSCOPE_BUILD_CUDA), torch);
}

} // namespace stackscope
