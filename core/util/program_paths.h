// Where the running program and its run-time modules live (build tree and install share a layout).
#pragma once

#include <string>
#include <vector>

namespace stackscope {

// Folder of the running executable (from /proc/self/exe), empty if unknown.
std::string executableDirectory();
// Folders searched for StackScope's run-time modules, in order: $STACKSCOPE_MODULE_DIR, then
// <program>/../lib/stackscope (the build tree mirrors the install layout), then the program's folder.
std::vector<std::string> moduleDirectories();
// Path of a sibling program (stackscope-cli beside stackscope), or the bare name for PATH lookup.
std::string siblingProgram(const std::string& name);

} // namespace stackscope
