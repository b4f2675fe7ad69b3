// Runs n tasks at once, one a thread (the caller's among them), for the VPOC reader and profiles.
#pragma once

#include <cstddef>
#include <thread>
#include <vector>

namespace stackscope::vpoc {

// f(0) .. f(n-1), each on a thread of its own when threads > 1 (f(0) on the caller's), in order otherwise.
// Tasks are few and large (a chunk or a block of rows per thread), so a thread each costs nothing measurable.
template <typename F>
void onThreads(std::size_t n, unsigned threads, F&& f)
{
    if (n <= 1 || threads <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            f(i);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(n - 1);
    for (std::size_t i = 1; i < n; ++i)
        pool.emplace_back([&f, i] { f(i); });
    f(0);
    for (auto& t : pool)
        t.join();
}

} // namespace stackscope::vpoc
