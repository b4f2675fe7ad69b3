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
// A file StackScope installs under <datadir>/stackscope (the build tree mirrors it): $STACKSCOPE_DATA_DIR/relative,
// then <program>/../share/stackscope/relative. Empty when neither exists.
std::string dataFile(const std::string& relative);
// The Python probe worker (resources/python/stackscope_probe_worker.py): $STACKSCOPE_PYTHON_WORKER, else dataFile().
std::string pythonWorkerScript();
// Path of a sibling program (stackscope-cli beside stackscope), or the bare name for PATH lookup.
std::string siblingProgram(const std::string& name);
// The program core starts for its own child processes: $STACKSCOPE_CLI, else the stackscope-cli beside this program.
std::string cliProgram();
// Its internal entry points, named here only (the CLI registers them under these names; core starts them).
inline constexpr const char* kProbeWorkerEntry = "probe-worker";
inline constexpr const char* kTrainRankEntry = "train-rank";
// StackScope's cache (answers it keeps between runs, e.g. the Python worker's): $STACKSCOPE_CACHE_DIR, else
// $XDG_CACHE_HOME/stackscope, else $HOME/.cache/stackscope; the Python worker computes the same. Not created here.
std::string cacheDirectory();

} // namespace stackscope
