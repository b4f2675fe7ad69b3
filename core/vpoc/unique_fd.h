// A file descriptor closed by its owner's destruction, also when a constructor throws half-way.
#pragma once

#include <unistd.h>

namespace stackscope::vpoc {

struct UniqueFd {
    int fd = -1;
    UniqueFd() = default;
    explicit UniqueFd(int f)
        : fd(f)
    {
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace stackscope::vpoc
