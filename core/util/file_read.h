// One way to read a small text file that anybody may have put in a folder: regular files only, with a size cap.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace stackscope {

// The whole of `path` when it is a regular file (after symlinks) of at most `capBytes`; nullopt otherwise, with the
// reason in `why` ("not a regular file", "larger than 262144 bytes", the errno text). The file is opened
// non-blocking, so a FIFO, a socket or a link to /dev/zero is refused at once instead of hanging or filling memory;
// a file that grows while read (or a /proc file that says size 0) is still cut at the cap.
std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::size_t capBytes,
                                           std::string* why = nullptr);

} // namespace stackscope
