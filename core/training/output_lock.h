// An exclusive lock on a training output folder, so two runs never write one folder's files at once.
#pragma once

#include <string>

namespace stackscope::training {

// Holds `<folder>/.stackscope-train.lock`, which records the owner's pid and host. The lock itself is a
// flock() on that file, so a run that died (kill -9, power loss) leaves a stale file but no lock: the next
// run takes it over and says so in staleOwner(). A second live writer is refused with ConfigError
// naming the owner. Released (and the file removed) by the destructor.
class OutputLock {
public:
    explicit OutputLock(const std::string& folder);
    ~OutputLock();
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

    // "pid 1234 on host" of a run that died holding the folder; empty when there was none.
    const std::string& staleOwner() const { return m_stale; }
    // Releases now (idempotent): the lock file is removed, so an empty folder can be removed after it.
    void release();

    static constexpr const char* kFileName = ".stackscope-train.lock";

private:
    std::string m_path;
    std::string m_stale;
    int m_fd = -1;
};

} // namespace stackscope::training
