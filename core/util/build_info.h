// StackScope's version and this build's options, for --version and reports.
#pragma once

#include <string>

namespace stackscope {

std::string stackscopeVersion();
// "0.1.0 (GUI on, HIP on [gfx1030], CUDA on, libtorch 1.13.1)"
std::string buildDescription();

} // namespace stackscope
