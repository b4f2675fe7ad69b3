// See market_file.h.
#include "core/vpoc/market_file.h"

#include "core/vpoc/market_data.h"
#include "core/vpoc/unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <utility>

namespace stackscope::vpoc {

int openMarketFile(const std::string& path, uint64_t& size, int64_t& mtimeNs)
{
    UniqueFd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (file.fd < 0)
        throw InputError(path, 0, 0, fmt::format("cannot open the file ({}); check the path and its permissions",
                                                 std::strerror(errno)));
    struct stat st {};
    if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
        throw InputError(path, 0, 0, "not a regular file (a FIFO, device or folder); give a market data file");
    size = static_cast<uint64_t>(st.st_size);
    mtimeNs = modificationTimeNs(st);
    return std::exchange(file.fd, -1);
}

int64_t modificationTimeNs(const struct stat& st)
{
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

} // namespace stackscope::vpoc
