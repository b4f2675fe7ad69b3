// Storage that is not zeroed when it grows: the parallel CSV reader's windows and their parsed rows.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace stackscope::vpoc {

// A vector's resize zeroes (and so first touches) all of it on one thread: at 16 threads a window's rows are
// 127 MB, 60 to 230 ms of page faults and zeroing on the build VM, and the two windows' bytes 256 MiB. Here the
// threads that write the elements (pread, a chunk's copy) are the first to touch them, and each element's life
// begins where it is written (construct(), std::uninitialized_copy; bytes by pread and memcpy).
template <typename T>
class UnzeroedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>, "plain values only");

public:
    // Room for n elements; what was stored is dropped when it has to grow.
    void ensure(std::size_t n)
    {
        if (n <= m_capacity)
            return;
        m_data.reset(static_cast<T*>(::operator new(n * sizeof(T))));
        m_capacity = n;
    }
    std::size_t capacity() const { return m_capacity; }
    T* data() { return m_data.get(); }
    const T* data() const { return m_data.get(); }
    void construct(std::size_t i, const T& value) { ::new (static_cast<void*>(m_data.get() + i)) T(value); }

private:
    struct Free {
        void operator()(T* p) const { ::operator delete(p); }
    };
    std::unique_ptr<T, Free> m_data;
    std::size_t m_capacity = 0;
};

} // namespace stackscope::vpoc
