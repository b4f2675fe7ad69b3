// Output files: regular files are replaced atomically, never anything else; streams the user named get a direct write.
#pragma once

#include "core/util/error.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

class FileWriteError : public Error {
public:
    explicit FileWriteError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

enum class OutputStreams {
    Allow,  // "-", a FIFO, a terminal, /dev/null, /dev/zero, /dev/full are written directly
    Refuse, // only a regular file (or nothing) may be there: sets of files that must stay consistent
};

// Writes `content` to `path`, a path a user gave:
// - a symbolic link is followed to its final target (created when missing); the link itself stays;
// - nothing there, or a regular file: a temporary file beside the target is written, synced and renamed over
//   it (the replaced file's permission bits are kept), so readers see the old or the new file, never a part;
// - "-" (standard output), a FIFO with a reader, a terminal, /dev/null, /dev/zero or /dev/full: written
//   directly when `streams` is Allow (a FIFO nobody reads is refused rather than waited on);
// - anything else (a folder, a socket, a block device, other character devices) is refused and left alone.
// Throws FileWriteError naming the path and what to do; the CLI exits 2 on it.
void writeFileAtomically(const std::string& path, const std::string& content,
                         OutputStreams streams = OutputStreams::Allow);

// Several outputs of one command that must appear together or not at all: stage() writes each regular
// target to a synced temporary file (streams are held in memory), commit() writes the streams and then
// renames every temporary file; if anything fails before commit(), no target is touched and the
// temporary files are removed (also by the destructor). Throws FileWriteError.
class StagedOutputs {
public:
    explicit StagedOutputs(OutputStreams streams = OutputStreams::Allow);
    ~StagedOutputs();
    StagedOutputs(const StagedOutputs&) = delete;
    StagedOutputs& operator=(const StagedOutputs&) = delete;

    void stage(const std::string& path, const std::string& content);
    // An output written in pieces while the command computes it, so its whole content is never in memory:
    // open() checks the target at once and starts its temporary file (a stream's pieces go to an unlinked
    // spool file in $TMPDIR, copied into the stream at commit); append() adds a piece (buffered, 1 MiB). It
    // then takes part in commit() and in the clean-up like a staged output. Returns the handle for append().
    std::size_t open(const std::string& path);
    void append(std::size_t output, std::string_view piece);
    // Renames in the order staged: stage the file that describes the others (a manifest) last.
    void commit();

    struct Entry; // one output (defined in atomic_file.cpp)

private:
    OutputStreams m_streams;
    std::vector<std::unique_ptr<Entry>> m_entries;
};

} // namespace stackscope
