// SigpipeBlock: writes to a pipe or socket whose reader may be gone, as an error and not a signal.
#pragma once

#include <csignal>
#include <ctime>
#include <pthread.h>

namespace stackscope {

// Blocks SIGPIPE in this thread while writing, so a vanished reader is an EPIPE error and not the end of
// the process, then discards a SIGPIPE the write raised.
class SigpipeBlock {
public:
    SigpipeBlock()
    {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        sigset_t pending;
        sigpending(&pending);
        m_wasPending = sigismember(&pending, SIGPIPE) == 1;
        pthread_sigmask(SIG_BLOCK, &pipe, &m_old);
    }
    ~SigpipeBlock()
    {
        sigset_t pending;
        sigpending(&pending);
        if (!m_wasPending && sigismember(&pending, SIGPIPE) == 1) {
            sigset_t pipe;
            sigemptyset(&pipe);
            sigaddset(&pipe, SIGPIPE);
            const timespec zero {0, 0};
            sigtimedwait(&pipe, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;

private:
    sigset_t m_old;
    bool m_wasPending = false;
};

} // namespace stackscope
