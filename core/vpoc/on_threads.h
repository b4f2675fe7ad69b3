// Runs n tasks at once, one a thread (the caller's among them), for the VPOC reader and profiles.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace stackscope::vpoc {

// A `threads` option as the VPOC code reads it: 0 is every hardware thread (at least one).
inline unsigned threadsOrAll(unsigned threads)
{
    return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// f(0) .. f(n-1), each on a thread of its own when threads > 1 (f(0) on the caller's), in order otherwise.
// Tasks are few and large (a chunk or a block of rows per thread), so a thread each costs nothing measurable.
// A task's exception (std::bad_alloc) is thrown here once every thread has ended (the lowest task's, if several).
template <typename F>
void onThreads(std::size_t n, unsigned threads, F&& f)
{
    if (n <= 1 || threads <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            f(i);
        return;
    }
    std::vector<std::exception_ptr> failed(n);
    auto task = [&f, &failed](std::size_t i) {
        try {
            f(i);
        } catch (...) {
            failed[i] = std::current_exception(); // rethrown below, on the caller's thread
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(n - 1);
    for (std::size_t i = 1; i < n; ++i)
        pool.emplace_back(task, i);
    task(0);
    for (auto& t : pool)
        t.join();
    for (const auto& e : failed)
        if (e)
            std::rethrow_exception(e);
}

} // namespace stackscope::vpoc
