// What an output path names (after following links) and direct writes into the streams a user may name.
#pragma once

#include <string>
#include <sys/stat.h>

namespace stackscope::output {

enum class TargetKind { Missing, Regular, Stdout, Stream, Refused };

struct Target {
    std::string path; // final path after following symbolic links ("-" for standard output)
    TargetKind kind = TargetKind::Missing;
    mode_t mode = 0;  // st_mode of what is there
    std::string what; // "a folder", "a block device" ... for refusals
    // A Stream that is one of this process's open descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N naming a
    // pipe or socket): written through that descriptor, which stays open. -1 otherwise.
    int fd = -1;
};

// Follows symbolic links (at most 40, as the kernel does) and classifies the final target.
// Throws FileWriteError when the path cannot be looked at.
Target resolve(const std::string& path);

// True for the character devices that are safe to name as an output: /dev/null, /dev/zero, /dev/full and
// terminals (Linux majors from https://www.kernel.org/doc/Documentation/admin-guide/devices.txt).
bool isSafeCharacterDevice(dev_t rdev);

// Writes `content` into a FIFO or a safe character device (opened without waiting: a FIFO nobody reads
// is refused), or into standard output for "-". A reader that goes away gives an error, not SIGPIPE.
// Throws FileWriteError naming `shownPath`.
void writeStream(const Target& target, const std::string& shownPath, const std::string& content);
// The same, copying what `fromFd` holds from its start, 1 MiB at a time (a spooled output of any size).
void writeStreamFrom(const Target& target, const std::string& shownPath, int fromFd);

} // namespace stackscope::output
