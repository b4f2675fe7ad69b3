// Read-only view of the file system under a root ("/" live, or a recorded machine's folder).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace stackscope {

class SystemRoot {
public:
    explicit SystemRoot(std::string root = "/");

    // True when reading the running machine (root is "/"): runtime libraries may then be queried.
    bool isLive() const { return m_live; }
    const std::string& root() const { return m_root; }

    // Host path of an absolute machine path ("/etc/os-release" -> "<root>/etc/os-release").
    std::string hostPath(const std::string& machinePath) const;

    bool exists(const std::string& machinePath) const;
    bool isDirectory(const std::string& machinePath) const;
    // At most maxBytes are read; nullopt when the file cannot be read.
    std::optional<std::string> readText(const std::string& machinePath, size_t maxBytes = 1 << 20) const;
    // First line without the newline, trimmed.
    std::optional<std::string> readLine(const std::string& machinePath) const;
    // Entry names in a folder, sorted; empty when it cannot be listed.
    std::vector<std::string> list(const std::string& machinePath) const;
    // Resolves symbolic links inside the root (an absolute link target is taken inside the root too).
    std::string canonical(const std::string& machinePath) const;

private:
    std::string m_root;
    bool m_live = true;
};

std::string trim(const std::string& s);

} // namespace stackscope
