// A long job's stop request: the one cancellation type of VPOC runs, probes, training and its ranks, and the
// bandwidth child job.
#pragma once

#include <atomic>
#include <memory>

namespace stackscope {

// Whoever started the job keeps a copy and calls cancel(); the job checks isCancelled() at its checkpoints (at least
// every ~100 ms of work) and stops there. Copies share one flag. cancel() and isCancelled() touch only a lock-free
// atomic, so a signal handler may call cancel() on a token made before the handler was installed.
class CancelToken {
public:
    CancelToken()
        : m_flag(std::make_shared<std::atomic<bool>>(false))
    {
    }
    void cancel() const noexcept { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const noexcept { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace stackscope
