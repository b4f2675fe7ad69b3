// One probe worker process as the runner drives it: started in its own process group with pipes, read without
// blocking, killed with its group, reaped; its stderr split per probe by the worker's markers.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace stackscope::worker {

struct ChildProcess {
    pid_t pid = -1;
    int out = -1;
    int err = -1;
    int in = -1; // the write end of the worker's stdin, when it was started with --wait-go
    bool exited = false; // reaped by exitedNow(); `status` is its wait status
    int status = 0;
};

// What a reader keeps of a worker, whatever it prints: a protocol line is at most kMaxLineBytes (the largest real
// message, a result with its error text, is a few KiB), and each probe's stderr its last kStderrKeepBytes.
inline constexpr std::size_t kMaxLineBytes = 1u << 20;
inline constexpr std::size_t kStderrKeepBytes = 256u << 10;

void closeFd(int& fd);
// A worker's environment: this process's, with `changes` set (a value) or removed (nullopt), and Python's bytecode
// kept in StackScope's cache where PYTHONDONTWRITEBYTECODE would make every `import torch` compile torch again.
std::vector<std::string> workerEnvironment(const std::map<std::string, std::optional<std::string>>& changes);
// Throws std::runtime_error saying what to do when the worker cannot be started. withStdin: the worker's stdin is
// a pipe whose write end is returned in `in` (for --wait-go), else /dev/null.
ChildProcess spawnWorker(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& env, bool withStdin = false);
void killGroup(pid_t pid);
// Reads what is available on fd into buf, at most kMaxLineBytes a call (a worker that never stops writing cannot
// keep the reader in here); false at end of file.
bool drain(int fd, std::string& buf);
// True once the child has exited (reaped without blocking; reap() then only closes the pipes).
bool exitedNow(ChildProcess& child);
// Waits up to timeoutMs for output on the child's open pipes and appends what arrived to `out` and `err`, closing a
// side at end of file. False when poll itself fails.
bool pollPipes(const ChildProcess& child, bool& outOpen, bool& errOpen, int timeoutMs, std::string& out, std::string& err);
// Closes the child's pipes and waits for it; returns its wait status.
int reap(ChildProcess& child);
// Lets a worker started with --wait-go run its probes, and closes its stdin. False when the worker is gone.
bool tellToGo(ChildProcess& child);

// Splits a worker's stderr into the text before the first probe and the text of each probe (kStderrMarker lines).
class StderrSplitter {
public:
    void append(const std::string& chunk);
    void finish();
    // Everything printed for `probe` so far (startup text is given to the first probe taken).
    std::string take(const std::string& probe);
    std::string tail(std::size_t max) const;

private:
    void line(const std::string& l);

    std::string& target();

    std::string m_pending, m_startup, m_current;
    std::map<std::string, std::string> m_byProbe;
};

} // namespace stackscope::worker
