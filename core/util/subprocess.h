// Runs a program to completion with a time limit and captures what it printed (no shell involved).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace stackscope {

// How long a reader keeps reading a child's pipes after the child exited or was killed. What a program wrote before
// it exited is already in the pipe, so this only covers the reads; a grandchild that left the group (setsid) and
// holds the pipes cannot keep the reader waiting longer than this.
inline constexpr std::chrono::milliseconds kEofGrace {500};

struct ProcessResult {
    bool started = false;
    std::string startError;  // why it could not start (empty when it started)
    bool timedOut = false;   // killed (with its process group) at the time limit
    int exitCode = -1;       // when it exited
    int signal = 0;          // when a signal ended it
    std::string out, err;    // each kept up to the cap
    double seconds = 0.0;
};

// argv[0] is the program (a path, or a name looked up on PATH). The child gets its own process group, stdin
// /dev/null and the parent's environment with `extraEnv` ("NAME=VALUE") added. Output beyond `capBytes` per
// stream is dropped (the child keeps running: a chatty program is not an error).
ProcessResult runProcess(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::vector<std::string>& extraEnv = {}, std::size_t capBytes = 4u << 20);

// This process's environment with `extra` ("NAME=VALUE") added or replacing, as spawnInOwnGroup takes it.
std::vector<std::string> mergedEnvironment(const std::vector<std::string>& extra);

// Starts argv (a path, or a name looked up on PATH) with stdin `inFd` (-1: /dev/null), stdout/stderr on the given
// descriptors, exactly `env` as its environment, its own process group (a hang is killed with all it started),
// default signal handling and an empty signal mask whatever the parent (a GUI) set. Returns the pid, or -1 with the
// errno in rc.
pid_t spawnInOwnGroup(const std::vector<std::string>& argv, const std::vector<std::string>& env, int outFd, int errFd,
                      int& rc, int inFd = -1);

// "SIGSEGV", "SIGABRT", ... or "signal N": how a child's end is named in messages.
std::string signalName(int signal);

} // namespace stackscope
