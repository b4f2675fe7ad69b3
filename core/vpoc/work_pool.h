// Threads kept for the whole VPOC job: the reader's windows and the profiles hand them small tasks.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace stackscope::vpoc {

// The threads this process may run at once: std::thread::hardware_concurrency() (the CPUs online), fewer when the CPU
// affinity mask allows fewer (taskset, a container's cpuset); at least 1.
unsigned usableThreads();

// A `threads` option as the VPOC code reads it: 0 is every usable thread (at least one).
inline unsigned threadsOrAll(unsigned threads) { return threads ? threads : usableThreads(); }

// How many tasks a call is cut into, per thread. Tasks are handed out as threads come free, so a call ends at most one
// task after its last thread could have: with k tasks a thread, the idle tail is at most 1/k of a thread's share of
// the call. 16-core H100 host, 352 MB of trades, 16 threads, `bench vpoc-e2e` best of 5: k = 1 / 4 / 8 / 16 gave
// 0.196 / 0.162 / 0.155 / 0.173 s (more tasks cost more per-task setup and smaller chunks).
inline constexpr std::size_t kTasksPerThread = 8;

// How many pieces `count` items (rows, elements) are cut into for a pool's tasks: at most `most`, each of at least
// `minItems` items, and one piece however few the items.
inline std::size_t pieceCount(std::size_t count, std::size_t minItems, std::size_t most)
{
    return std::max<std::size_t>(1, std::min(most, count / std::max<std::size_t>(1, minItems)));
}
// The first item of piece `i` of `pieces` equal pieces; piece i ends where piece i + 1 begins.
inline std::size_t pieceBegin(std::size_t count, std::size_t pieces, std::size_t i) { return count * i / pieces; }

// `threads` - 1 threads started once; run() hands them and its caller the tasks of one call, an index at a time.
// Why not a thread a task (what the reader did before): on the 16-core machine a thread started for each chunk of a
// window began up to 7 ms late while the profiles' threads of the window before ran, and the slowest of 16 equal
// chunks set each window's time (chunks 6.9 to 40 ms in one window; tests/bench/RESULTS.md, "One pool of threads").
// Several threads may call run() at once (the reader parses the next window while the caller profiles this one):
// the workers take tasks from the calls in the order they came, so the machine runs `threads` threads, not twice as
// many.
class WorkPool {
public:
    // Starts threadsOrAll(threads) - 1 workers; where the system refuses a thread (std::system_error: too many
    // threads for its limits) the pool keeps the ones it started, so threads() may be fewer than asked for.
    explicit WorkPool(unsigned threads);
    ~WorkPool();
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    unsigned threads() const { return static_cast<unsigned>(m_workers.size()) + 1; }

    // f(0) .. f(n-1), in order on the caller's thread when the pool has one thread; else taken one at a time by the
    // workers and the caller, which runs only this call's tasks and returns once all of them have ended. A task's
    // exception (std::bad_alloc, an InputError) is thrown here after that (the lowest task's, if several threw).
    void run(std::size_t n, const std::function<void(std::size_t)>& f);

private:
    struct Call {
        const std::function<void(std::size_t)>* f = nullptr;
        std::size_t n = 0;
        std::size_t next = 0; // the next task to hand out
        std::size_t ended = 0;
        std::size_t failedTask = 0;
        std::exception_ptr failed;
    };
    void work();
    // Takes the next task of `call` (under the lock); false when all were handed out.
    bool take(Call& call, std::size_t& task);
    void runTask(Call& call, std::size_t task);

    std::mutex m_mutex;
    std::condition_variable m_wake;  // a call came, or the pool stops
    std::condition_variable m_ended; // a task ended
    std::deque<Call*> m_calls;       // calls with tasks not yet handed out, oldest first
    bool m_stop = false;
    std::vector<std::thread> m_workers;
};

} // namespace stackscope::vpoc
