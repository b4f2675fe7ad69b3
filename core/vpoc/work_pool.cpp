// The VPOC job's threads: one lock hands out task indices; tasks are chunks of a window or pieces of a block (0.1 ms
// and more each), so the lock is taken a few hundred times a window at most.
#include "core/vpoc/work_pool.h"

#include <sched.h>
#include <system_error>

namespace stackscope::vpoc {

unsigned usableThreads()
{
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (::sched_getaffinity(0, sizeof mask, &mask) == 0) {
        const int allowed = CPU_COUNT(&mask);
        if (allowed > 0)
            n = std::min(n, static_cast<unsigned>(allowed));
    }
    return n;
}

WorkPool::WorkPool(unsigned threads)
{
    // Callers cap the count at usableThreads() (runVpoc does); a larger one still never aborts: a thread the system
    // refuses ends the starting, and the pool runs on the ones it has. Reserving is bounded for the same reason.
    const unsigned n = threadsOrAll(threads);
    m_workers.reserve(std::min<unsigned>(n - 1, 1024));
    for (unsigned i = 1; i < n; ++i) {
        try {
            m_workers.emplace_back([this] { work(); });
        } catch (const std::system_error&) {
            break;
        }
    }
}

WorkPool::~WorkPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers)
        t.join();
}

bool WorkPool::take(Call& call, std::size_t& task)
{
    if (call.next >= call.n)
        return false;
    task = call.next++;
    if (call.next == call.n && !m_calls.empty() && m_calls.front() == &call)
        m_calls.pop_front();
    else if (call.next == call.n)
        m_calls.erase(std::find(m_calls.begin(), m_calls.end(), &call));
    return true;
}

void WorkPool::runTask(Call& call, std::size_t task)
{
    std::exception_ptr failed;
    try {
        (*call.f)(task);
    } catch (...) {
        failed = std::current_exception(); // thrown by run() on the caller's thread
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (failed && (!call.failed || task < call.failedTask)) {
            call.failed = failed;
            call.failedTask = task;
        }
        ++call.ended;
    }
    m_ended.notify_all(); // the caller may be waiting; `call` is not touched after the lock is released
}

void WorkPool::work()
{
    for (;;) {
        Call* call = nullptr;
        std::size_t task = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_calls.empty(); });
            if (m_calls.empty())
                return; // stopping, nothing left to hand out
            call = m_calls.front();
            take(*call, task);
        }
        runTask(*call, task);
    }
}

void WorkPool::run(std::size_t n, const std::function<void(std::size_t)>& f)
{
    if (n == 0)
        return;
    if (m_workers.empty() || n == 1) {
        for (std::size_t i = 0; i < n; ++i)
            f(i);
        return;
    }
    Call call;
    call.f = &f;
    call.n = n;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_calls.push_back(&call);
    }
    m_wake.notify_all();
    for (;;) {
        std::size_t task = 0;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (!take(call, task))
                break;
        }
        runTask(call, task);
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_ended.wait(lock, [&call] { return call.ended == call.n; });
    if (call.failed)
        std::rethrow_exception(call.failed);
}

} // namespace stackscope::vpoc
