// The one task runner: every thread StackScope starts for work goes through it (docs/ARCHITECTURE.md, "Threads").
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace stackscope {

// The threads this process may run at once: std::thread::hardware_concurrency() (the CPUs online), fewer when the CPU
// affinity mask allows fewer (taskset, a container's cpuset); at least 1.
unsigned usableThreads();

// A `threads` option (--threads) as the runner reads it: 0 is every usable thread (at least one).
inline unsigned threadsOrAll(unsigned threads)
{
    return threads ? threads : usableThreads();
}

// How many tasks a forEach call is cut into, per thread. Tasks are handed out as threads come free, so a call ends at
// most one task after its last thread could have: with k tasks a thread, the idle tail is at most 1/k of a thread's
// share of the call. 16-core H100 host, 352 MB of trades, 16 threads, `bench vpoc-e2e` best of 5: k = 1 / 4 / 8 / 16
// gave 0.196 / 0.162 / 0.155 / 0.173 s (more tasks cost more per-task setup and smaller chunks).
inline constexpr std::size_t kTasksPerThread = 8;

// How many pieces `count` items (rows, elements) are cut into for a runner's tasks: at most `most`, each of at least
// `minItems` items, and one piece however few the items.
inline std::size_t pieceCount(std::size_t count, std::size_t minItems, std::size_t most)
{
    return std::max<std::size_t>(1, std::min(most, count / std::max<std::size_t>(1, minItems)));
}
// The first item of piece `i` of `pieces` equal pieces; piece i ends where piece i + 1 begins.
inline std::size_t pieceBegin(std::size_t count, std::size_t pieces, std::size_t i)
{
    return count * i / pieces;
}

// Two kinds of work, two lanes of one runner:
// - forEach: CPU work cut into tasks, run by `threads() - 1` workers and the caller. The workers are started once (with
//   the runner) and kept: on a 16-core machine a thread started for each chunk began up to 7 ms late while the
//   threads of the window before ran, and the slowest chunk set each window's time (tests/bench/RESULTS.md, "One pool
//   of threads"). Several threads may call forEach at once (the VPOC reader parses the next window while the caller
//   profiles this one): the workers take tasks from the calls in the order they came, so the machine runs `threads`
//   threads, not twice as many.
// - start / together / post: work that waits (a child process, an interpreter, a GPU, a peer rank) or lasts as long as
//   a job: each task gets a thread of its own at once, taken from the runner's idle ones or started. Idle ones are
//   kept 30 s for the next task; a task that waits never holds up the CPU lane, and tasks that must meet (the ranks of
//   a collective) all run at the same time.
class TaskRunner {
public:
    // forEach runs on threadsOrAll(threads) threads (the caller included); where the system refuses a thread
    // (std::system_error: too many threads for its limits) the runner keeps the ones it started, so threads() may
    // then be fewer than asked for.
    explicit TaskRunner(unsigned threads);
    // Waits for every task of the waiting lane (a job checks its cancel token and ends), then stops every thread.
    // shared()'s runs with the program's statics: the GUI waits for its jobs earlier (ui::waitForJobsAtExit).
    ~TaskRunner();
    TaskRunner(const TaskRunner&) = delete;
    TaskRunner& operator=(const TaskRunner&) = delete;

    // The process's runner, usableThreads() wide: GUI jobs (ui::JobTracker), probe cells and environments, Python
    // discovery, and the CLI's commands other than vpoc, whose --threads sizes the run's own (one per run).
    static TaskRunner& shared();

    unsigned threads() const { return static_cast<unsigned>(m_workers.size()) + 1; }

    // f(0) .. f(n-1), in order on the caller's thread when the runner has one thread; else taken one at a time by the
    // workers and the caller, which runs only this call's tasks and returns once all of them have ended. A task's
    // exception (std::bad_alloc, an InputError) is thrown here after that (the lowest task's, if several threw).
    void forEach(std::size_t n, const std::function<void(std::size_t)>& f);

    // f(0) .. f(n-1) all at the same time, f(0) on the caller's thread and each other on a thread of its own; returns
    // once all have ended, then throws the lowest task's exception if any threw. For tasks that wait or must meet.
    void together(std::size_t n, const std::function<void(std::size_t)>& f);

    // f() started now on a thread of its own; the future gives its value or rethrows its exception.
    template <typename F> auto start(F f) -> std::future<std::invoke_result_t<F&>>
    {
        using R = std::invoke_result_t<F&>;
        auto task = std::make_shared<std::packaged_task<R()>>(std::move(f));
        std::future<R> result = task->get_future();
        post([task] { (*task)(); });
        return result;
    }

    // f() started now on a thread of its own, nobody waiting for it: it must catch its own exceptions (one that
    // escapes ends the program, as from a std::thread). ui::JobTracker's jobs come this way.
    void post(std::function<void()> f);

    // Until every task of the waiting lane has ended, at most `limit`; false when some still run (tests).
    bool waitForDone(std::chrono::milliseconds limit);
    // Until every task of the waiting lane has ended (the GUI's exit, after its jobs were cancelled).
    void waitForDone();

private:
    struct Call;
    void work();
    bool take(Call& call, std::size_t& task);
    void runTask(Call& call, std::size_t task);
    void waitLane();
    void reapExited();

    // The CPU lane.
    std::mutex m_mutex;
    std::condition_variable m_wake; // a call came, or the runner stops
    std::condition_variable m_ended; // a task ended
    std::deque<Call*> m_calls; // calls with tasks not yet handed out, oldest first
    bool m_stop = false;
    std::vector<std::thread> m_workers;
    // The waiting lane.
    std::mutex m_waitMutex;
    std::condition_variable m_waitWake; // a task came, or the runner stops
    std::condition_variable m_waitDone; // the lane has nothing queued or running
    std::deque<std::function<void()>> m_queued;
    std::size_t m_idle = 0; // waiting-lane threads waiting for a task
    std::size_t m_busy = 0; // tasks queued or running
    bool m_waitStop = false;
    std::vector<std::thread> m_waiters;
    std::vector<std::thread::id> m_exited; // idle too long: ended, joined by the next post or the destructor
};

} // namespace stackscope
