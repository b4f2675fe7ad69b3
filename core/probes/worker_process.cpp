// A probe worker process: spawn, non-blocking reads, kill, reap, the go signal, stderr per probe.
#include "core/probes/worker_process.h"

#include "core/probes/probe_protocol.h"
#include "core/util/program_paths.h"
#include "core/util/sigpipe_block.h"
#include "core/util/subprocess.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace stackscope::worker {

std::vector<std::string> workerEnvironment(const std::map<std::string, std::optional<std::string>>& changes)
{
    std::map<std::string, std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (const auto& [k, v] : changes) {
        if (v)
            env[k] = *v;
        else
            env.erase(k);
    }
    // PYTHONDONTWRITEBYTECODE (set in many container images) with a torch installed without bytecode (uv's default)
    // makes every interpreter compile torch's Python sources again: 7.7 s of CPU per `import torch` on the H200
    // machine (cProfile: builtins.compile; tests/bench/RESULTS.md), paid by each worker, each rank it starts and each
    // inductor compile process. Workers keep bytecode in StackScope's cache instead, unless the user chose a
    // PYTHONPYCACHEPREFIX; bytecode is the same program, so no result changes.
    if (auto it = env.find("PYTHONDONTWRITEBYTECODE"); it != env.end() && !it->second.empty() &&
        !env.count("PYTHONPYCACHEPREFIX")) {
        env.erase(it);
        env["PYTHONPYCACHEPREFIX"] = cacheDirectory() + "/pycache";
    }
    std::vector<std::string> out;
    for (const auto& [k, v] : env)
        out.push_back(k + "=" + v);
    return out;
}

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// Throws std::runtime_error saying what to do when the worker cannot be started. withStdin: the worker's stdin is
// a pipe whose write end is returned in `in` (for --wait-go), else /dev/null.
ChildProcess spawnWorker(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& env, bool withStdin)
{
    int pipes[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}}; // stdout, stderr, stdin
    auto closeAll = [&] {
        for (auto& p : pipes)
            for (int& fd : p)
                closeFd(fd);
    };
    for (int i = 0; i < (withStdin ? 3 : 2); ++i) {
        if (::pipe2(pipes[i], O_CLOEXEC) != 0) {
            const int e = errno;
            closeAll();
            throw std::runtime_error(fmt::format("cannot create a pipe for the probe worker: {}", std::strerror(e)));
        }
    }
    std::vector<std::string> argv {program};
    argv.insert(argv.end(), args.begin(), args.end());
    int rc = 0;
    const pid_t pid = spawnInOwnGroup(argv, env, pipes[0][1], pipes[1][1], rc, pipes[2][0]);
    closeFd(pipes[0][1]);
    closeFd(pipes[1][1]);
    closeFd(pipes[2][0]);
    if (rc != 0) {
        closeAll();
        throw std::runtime_error(fmt::format("cannot start the probe worker {}: {}; build stackscope-cli next to this "
                                             "program or reinstall StackScope", program, std::strerror(rc)));
    }
    return {pid, pipes[0][0], pipes[1][0], pipes[2][1]};
}

void killGroup(pid_t pid)
{
    if (pid > 0) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
}

// Reads what is available on fd into buf; false at end of file.
bool drain(int fd, std::string& buf)
{
    char chunk[8192];
    for (std::size_t got = 0; got < kMaxLineBytes;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0) {
            buf.append(chunk, static_cast<size_t>(n));
            got += static_cast<std::size_t>(n);
            if (n < static_cast<ssize_t>(sizeof chunk))
                return true;
            continue;
        }
        if (n == 0)
            return false;
        if (errno == EINTR)
            continue;
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    return true;
}

bool exitedNow(ChildProcess& child)
{
    if (!child.exited && child.pid > 0 && ::waitpid(child.pid, &child.status, WNOHANG) == child.pid)
        child.exited = true;
    return child.exited;
}

// Waits up to timeoutMs for output on the child's open pipes and appends what arrived to `out` and
// `err`, closing a side at end of file. False when poll itself fails.
bool pollPipes(const ChildProcess& child, bool& outOpen, bool& errOpen, int timeoutMs, std::string& out, std::string& err)
{
    pollfd fds[2];
    int n = 0;
    if (outOpen)
        fds[n++] = {child.out, POLLIN, 0};
    if (errOpen)
        fds[n++] = {child.err, POLLIN, 0};
    if (::poll(fds, static_cast<nfds_t>(n), timeoutMs) < 0)
        return errno == EINTR;
    for (int i = 0; i < n; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        if (fds[i].fd == child.out)
            outOpen = drain(child.out, out);
        else
            errOpen = drain(child.err, err);
    }
    return true;
}

// Closes the child's pipes and waits for it; returns its wait status.
int reap(ChildProcess& child)
{
    closeFd(child.out);
    closeFd(child.err);
    closeFd(child.in);
    if (child.exited)
        return child.status;
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    child.exited = true;
    child.status = status;
    return status;
}

// Lets a worker started with --wait-go run its probes, and closes its stdin. False when the worker is gone.
bool tellToGo(ChildProcess& child)
{
    bool ok;
    {
        SigpipeBlock noSigpipe;
        ok = ::write(child.in, "go\n", 3) == 3;
    }
    closeFd(child.in);
    return ok;
}

void StderrSplitter::append(const std::string& chunk)
{
    m_pending += chunk;
    std::size_t nl, from = 0;
    while ((nl = m_pending.find('\n', from)) != std::string::npos) {
        line(m_pending.substr(from, nl + 1 - from));
        from = nl + 1;
    }
    m_pending.erase(0, from);
    if (m_pending.size() > kMaxLineBytes) { // one endless line: kept as lines of the cap's length
        line(m_pending);
        m_pending.clear();
    }
}

void StderrSplitter::finish()
{
    if (!m_pending.empty())
        line(m_pending);
    m_pending.clear();
}

std::string StderrSplitter::take(const std::string& probe)
{
    std::string out = std::move(m_startup);
    m_startup.clear();
    auto it = m_byProbe.find(probe);
    if (it != m_byProbe.end()) {
        out += it->second;
        m_byProbe.erase(it);
    }
    return out;
}

std::string StderrSplitter::tail(std::size_t max) const
{
    const std::string& s = m_current.empty() ? m_startup : m_byProbe.count(m_current) ? m_byProbe.at(m_current) : m_startup;
    return s.size() <= max ? s : s.substr(s.size() - max);
}

void StderrSplitter::line(const std::string& l)
{
    const std::string marker = kStderrMarker;
    if (l.compare(0, marker.size(), marker) == 0) {
        m_current = l.substr(marker.size());
        while (!m_current.empty() && (m_current.back() == '\n' || m_current.back() == '\r'))
            m_current.pop_back();
        // A probe id is a short name from the plan; a worker that invents thousands is not followed.
        if (m_current.size() > 128 || (m_byProbe.size() >= 1024 && !m_byProbe.count(m_current)))
            m_current.clear();
        return;
    }
    // Kept as text a person can read and JSON can hold: control bytes and bytes that are not UTF-8 escaped.
    std::string& t = target();
    t += escapeMessage(l);
    if (t.size() > kStderrKeepBytes) {
        static const std::string cut = "[... earlier output cut: StackScope keeps the last 256 KiB of each probe]\n";
        t.erase(0, t.size() - kStderrKeepBytes + cut.size());
        t.insert(0, cut);
    }
}

std::string& StderrSplitter::target()
{
    return m_current.empty() ? m_startup : m_byProbe[m_current];
}

} // namespace stackscope::worker
