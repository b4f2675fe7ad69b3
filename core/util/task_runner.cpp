// The runner's two lanes. The CPU lane: one lock hands out task indices; tasks are chunks of a window or pieces of a
// block (0.1 ms and more each), so the lock is taken a few hundred times a window at most. The waiting lane: a thread
// a task, idle threads kept for the next one.
#include "core/util/task_runner.h"

#include <sched.h>
#include <system_error>

namespace stackscope {

namespace {

// How long an idle thread of the waiting lane waits for another task before it ends (QThreadPool's default too).
constexpr std::chrono::seconds kIdleExpiry { 30 };

} // namespace

struct TaskRunner::Call {
    const std::function<void(std::size_t)>* f = nullptr;
    std::size_t n = 0;
    std::size_t next = 0; // the next task to hand out
    std::size_t ended = 0;
    std::size_t failedTask = 0;
    std::exception_ptr failed;
};

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

TaskRunner::TaskRunner(unsigned threads)
{
    // Callers cap the count at usableThreads() (runVpoc does); a larger one still never aborts: a thread the system
    // refuses ends the starting, and the runner runs on the ones it has. Reserving is bounded for the same reason.
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

TaskRunner::~TaskRunner()
{
    {
        std::unique_lock<std::mutex> lock(m_waitMutex);
        m_waitDone.wait(lock, [this] { return m_busy == 0; });
        m_waitStop = true;
    }
    m_waitWake.notify_all();
    for (auto& t : m_waiters)
        t.join();
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers)
        t.join();
}

TaskRunner& TaskRunner::shared()
{
    // Ended with the process's statics, after main() returns. The GUI's jobs are waited for before that, as the
    // application object is destroyed (ui/jobs/job_tracker.h): a job may use statics of the libraries it loaded.
    static TaskRunner runner(0);
    return runner;
}

// --- the CPU lane ---

bool TaskRunner::take(Call& call, std::size_t& task)
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

void TaskRunner::runTask(Call& call, std::size_t task)
{
    std::exception_ptr failed;
    try {
        (*call.f)(task);
    } catch (...) {
        failed = std::current_exception(); // thrown by forEach() on the caller's thread
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

void TaskRunner::work()
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

void TaskRunner::forEach(std::size_t n, const std::function<void(std::size_t)>& f)
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

// --- the waiting lane ---

void TaskRunner::reapExited()
{
    for (const auto id : m_exited) {
        const auto it
            = std::find_if(m_waiters.begin(), m_waiters.end(), [id](const std::thread& t) { return t.get_id() == id; });
        if (it != m_waiters.end()) {
            it->join(); // it has left waitLane(): only its return is left
            m_waiters.erase(it);
        }
    }
    m_exited.clear();
}

void TaskRunner::post(std::function<void()> f)
{
    std::unique_lock<std::mutex> lock(m_waitMutex);
    reapExited();
    m_queued.push_back(std::move(f));
    ++m_busy;
    if (m_idle >= m_queued.size()) {
        lock.unlock();
        m_waitWake.notify_one();
        return;
    }
    try {
        m_waiters.emplace_back([this] { waitLane(); });
    } catch (...) {
        m_queued.pop_back(); // the system refused a thread: the caller hears it (std::system_error), nothing queued
        --m_busy;
        throw;
    }
}

void TaskRunner::waitLane()
{
    std::unique_lock<std::mutex> lock(m_waitMutex);
    for (;;) {
        if (!m_queued.empty()) {
            std::function<void()> f = std::move(m_queued.front());
            m_queued.pop_front();
            lock.unlock();
            f();
            f = nullptr; // what the task holds is let go before anyone hears it ended
            lock.lock();
            if (--m_busy == 0)
                m_waitDone.notify_all();
            continue;
        }
        if (m_waitStop)
            return;
        ++m_idle;
        const bool woke = m_waitWake.wait_for(lock, kIdleExpiry, [this] { return m_waitStop || !m_queued.empty(); });
        --m_idle;
        if (!woke) {
            m_exited.push_back(std::this_thread::get_id());
            return;
        }
    }
}

void TaskRunner::together(std::size_t n, const std::function<void(std::size_t)>& f)
{
    if (n == 0)
        return;
    std::vector<std::exception_ptr> errors(n);
    auto guarded = [&f, &errors](std::size_t i) {
        try {
            f(i);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    std::vector<std::future<void>> others;
    others.reserve(n - 1);
    try {
        for (std::size_t i = 1; i < n; ++i)
            others.push_back(start([&guarded, i] { guarded(i); }));
    } catch (...) {
        for (auto& o : others) // they refer to this frame: they end before the refusal is thrown
            o.wait();
        throw;
    }
    guarded(0);
    for (auto& o : others)
        o.wait();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

void TaskRunner::waitForDone()
{
    std::unique_lock<std::mutex> lock(m_waitMutex);
    m_waitDone.wait(lock, [this] { return m_busy == 0; });
}

bool TaskRunner::waitForDone(std::chrono::milliseconds limit)
{
    std::unique_lock<std::mutex> lock(m_waitMutex);
    return m_waitDone.wait_for(lock, limit, [this] { return m_busy == 0; });
}

} // namespace stackscope
