// runProcess: posix_spawn, poll on both pipes, kill the process group at the deadline.
#include "core/util/subprocess.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace stackscope {

std::vector<std::string> mergedEnvironment(const std::vector<std::string>& extra)
{
    std::map<std::string, std::string> env;
    auto put = [&](const std::string& kv) {
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            env[kv.substr(0, eq)] = kv.substr(eq + 1);
    };
    for (char** e = environ; e && *e; ++e)
        put(*e);
    for (const auto& kv : extra)
        put(kv);
    std::vector<std::string> out;
    for (const auto& [k, v] : env)
        out.push_back(k + "=" + v);
    return out;
}

namespace {

// Appends what is readable on fd to buf (up to cap); false at end of file or on a read error.
bool readSome(int fd, std::string& buf, std::size_t cap)
{
    char chunk[8192];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
        if (buf.size() < cap)
            buf.append(chunk, std::min<std::size_t>(static_cast<std::size_t>(n), cap - buf.size()));
        return true;
    }
    return n < 0 && (errno == EINTR || errno == EAGAIN);
}

} // namespace

pid_t spawnInOwnGroup(const std::vector<std::string>& argv, const std::vector<std::string>& env, int outFd, int errFd,
                      int& rc, int inFd)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (inFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, inFd, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outFd, 1);
    posix_spawn_file_actions_adddup2(&actions, errFd, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> args, envp;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = -1;
    const bool hasSlash = argv[0].find('/') != std::string::npos;
    rc = hasSlash ? ::posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), envp.data())
                  : ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return rc == 0 ? pid : -1;
}


ProcessResult runProcess(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::vector<std::string>& extraEnv, std::size_t capBytes)
{
    using Clock = std::chrono::steady_clock;
    ProcessResult r;
    if (argv.empty()) {
        r.startError = "no program given";
        return r;
    }
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) {
        r.startError = fmt::format("cannot create a pipe: {}", std::strerror(errno));
        return r;
    }
    const auto t0 = Clock::now();
    int rc = 0;
    const pid_t pid = spawnInOwnGroup(argv, mergedEnvironment(extraEnv), outPipe[1], errPipe[1], rc);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (pid < 0) {
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        r.startError = fmt::format("cannot start {}: {}", argv[0], std::strerror(rc));
        return r;
    }
    r.started = true;
    bool outOpen = true, errOpen = true, reaped = false;
    int status = 0;
    const auto deadline = t0 + timeout;
    // The pipes are read until both close, but never past a deadline: the time limit, or kEofGrace after the child
    // itself ended (a grandchild that left its group, with setsid, can hold them open for ever). What a program
    // wrote before it exited is already in the pipe, so the grace only has to cover the reads.
    Clock::time_point stopReading = Clock::time_point::max();
    while (outOpen || errOpen) {
        const auto now = Clock::now();
        if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            stopReading = std::min(stopReading, now + kEofGrace);
        }
        if (now >= deadline && !r.timedOut) {
            ::kill(-pid, SIGKILL);
            if (!reaped)
                ::kill(pid, SIGKILL);
            r.timedOut = !reaped;
            stopReading = std::min(stopReading, now + kEofGrace);
        }
        if (now >= stopReading)
            break;
        const auto until = std::min(deadline, stopReading);
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count();
        pollfd fds[2];
        int n = 0;
        if (outOpen)
            fds[n++] = {outPipe[0], POLLIN, 0};
        if (errOpen)
            fds[n++] = {errPipe[0], POLLIN, 0};
        if (::poll(fds, static_cast<nfds_t>(n), static_cast<int>(std::clamp<long long>(left, 1, 100))) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (fds[i].fd == outPipe[0])
                outOpen = readSome(outPipe[0], r.out, capBytes);
            else
                errOpen = readSome(errPipe[0], r.err, capBytes);
        }
    }
    // A pipe still open means somebody holds it: what is left of the group is ended with it (a pgid in use is not
    // reused, so this cannot reach another process), and the pipes are closed whoever holds them.
    if (outOpen || errOpen)
        ::kill(-pid, SIGKILL);
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    if (!reaped) {
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

std::string signalName(int signal)
{
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGPIPE: return "SIGPIPE";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGSYS: return "SIGSYS";
    default: return "signal " + std::to_string(signal);
    }
}

} // namespace stackscope
