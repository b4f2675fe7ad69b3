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

// The first `maxBytes` of `path` (all of it when shorter), with the same refusals as readRegularFile: for files
// read in part by design (a sysfs attribute, an EFI variable's header, a recorded root's copy of either).
std::optional<std::string> readFileHead(const std::filesystem::path& path, std::size_t maxBytes,
                                        std::string* why = nullptr);

// The cap for a file StackScope wrote and reads back (a snapshot, a rules or catalogue file, a training record, a
// corpus report): the largest real ones are under 100 KiB (resources/rules/catalogues/cuda-runtime.json 94 KiB, the
// snapshots under tests/fixtures), so 16 MiB leaves over 160 times that and still bounds what a wrong path can
// allocate.
inline constexpr std::size_t kWrittenFileCap = std::size_t {16} << 20;

} // namespace stackscope
