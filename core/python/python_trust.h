// Whether discovery may start an interpreter it found: starting one runs its environment's code (site.py, .pth
// files, sitecustomize), so only environments the user chose or that nobody else could have planted are started.
#pragma once

#include <string>

namespace stackscope {

struct StartPolicy {
    std::string cwd;        // the current folder: an environment inside it may come with a repository just cloned
    std::string home;       // the current folder may be home (or above it): the user's own environments live there
    std::string virtualEnv; // $VIRTUAL_ENV and $CONDA_PREFIX: activated by the user, so chosen
    std::string condaPrefix;
};

// Empty when `interpreter` (found as `source`, "added" meaning the user named it) may be started; otherwise why not,
// in one sentence: the interpreter, its bin/ or its environment's folder is owned by somebody other than the user
// or root, or is writable by everyone, or the environment lies inside the current folder.
std::string whyNotStarted(const std::string& interpreter, const std::string& source, const StartPolicy& policy);

// The one command that looks inside an environment discovery did not start.
std::string probeCommandFor(const std::string& interpreter);

} // namespace stackscope
