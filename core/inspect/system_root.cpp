// File reads under a root folder, so that recorded machines can be replayed.
#include "core/inspect/system_root.h"

#include "core/util/file_read.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace stackscope {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

SystemRoot::SystemRoot(std::string root)
    : m_root(std::move(root))
{
    while (m_root.size() > 1 && m_root.back() == '/')
        m_root.pop_back();
    if (m_root.empty())
        m_root = "/";
    m_live = (m_root == "/");
}

std::string SystemRoot::hostPath(const std::string& machinePath) const
{
    if (m_live)
        return machinePath;
    return m_root + (machinePath.empty() || machinePath.front() != '/' ? "/" : "") + machinePath;
}

bool SystemRoot::exists(const std::string& machinePath) const
{
    std::error_code ec;
    return fs::exists(hostPath(machinePath), ec);
}

bool SystemRoot::isDirectory(const std::string& machinePath) const
{
    std::error_code ec;
    return fs::is_directory(hostPath(machinePath), ec);
}

std::optional<std::string> SystemRoot::readText(const std::string& machinePath, size_t maxBytes) const
{
    return readFileHead(hostPath(machinePath), maxBytes);
}

std::optional<std::string> SystemRoot::readLine(const std::string& machinePath) const
{
    auto text = readText(machinePath, 4096);
    if (!text)
        return std::nullopt;
    const auto nl = text->find('\n');
    return trim(nl == std::string::npos ? *text : text->substr(0, nl));
}

std::vector<std::string> SystemRoot::list(const std::string& machinePath) const
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(hostPath(machinePath), ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string SystemRoot::canonical(const std::string& machinePath) const
{
    std::error_code ec;
    if (m_live) {
        auto p = fs::canonical(machinePath, ec);
        return ec ? machinePath : p.string();
    }
    // Follow links component by component, keeping absolute targets inside the root.
    fs::path current = "/";
    const fs::path requested(machinePath);
    std::vector<fs::path> pending(requested.begin(), requested.end());
    std::reverse(pending.begin(), pending.end());
    int hops = 0;
    while (!pending.empty()) {
        const fs::path part = pending.back();
        pending.pop_back();
        if (part == "/" || part.empty() || part == ".")
            continue;
        if (part == "..") {
            current = current.parent_path();
            continue;
        }
        const fs::path next = current / part;
        const fs::path host = hostPath(next.string());
        if (fs::is_symlink(host, ec) && ++hops < 40) {
            const fs::path target = fs::read_symlink(host, ec);
            if (!ec) {
                std::vector<fs::path> parts(target.begin(), target.end());
                for (auto it = parts.rbegin(); it != parts.rend(); ++it)
                    pending.push_back(*it);
                if (target.is_absolute())
                    current = "/";
                continue;
            }
        }
        current = next;
    }
    return current.string();
}

} // namespace stackscope
