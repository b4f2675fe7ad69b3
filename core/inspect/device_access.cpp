// Access to /dev/kfd and the render nodes: existence, group, mode, and whether this user can open them.
#include "core/inspect/file_facts.h"
#include "core/snapshot/stack_environment.h"
#include "core/util/text_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <grp.h>
#include <pwd.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope {

namespace {

std::optional<std::string> groupName(gid_t gid)
{
    if (const group* g = ::getgrgid(gid))
        return std::string(g->gr_name);
    return std::to_string(gid);
}

DeviceNode liveNode(const std::string& path)
{
    DeviceNode n;
    n.path = path;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return n;
    n.exists = true;
    n.group = groupName(st.st_gid);
    n.mode = fmt::format("{:04o}", st.st_mode & 07777);
    n.readWrite = ::access(path.c_str(), R_OK | W_OK) == 0;
    return n;
}

// A line of `stat -c '%n %a %G'` recorded in <root>/.stackscope/dev-stat.
struct RecordedStat {
    std::string mode;
    std::string group;
};

std::map<std::string, RecordedStat> recordedStats(const SystemRoot& root)
{
    std::map<std::string, RecordedStat> out;
    auto text = root.readText("/.stackscope/dev-stat");
    if (!text)
        return out;
    std::istringstream in(*text);
    std::string path, mode, group;
    while (in >> path >> mode >> group)
        out[path] = {mode, group};
    return out;
}

// `id` output: "uid=1000(alice) gid=1000(alice) groups=1000(alice),44(video),109(render)".
void parseId(const std::string& text, AccessInfo& a)
{
    auto named = [](const std::string& s, size_t from) {
        const auto open = s.find('(', from);
        const auto close = s.find(')', open);
        return open == std::string::npos || close == std::string::npos ? std::string() : s.substr(open + 1, close - open - 1);
    };
    if (auto uid = text.find("uid="); uid != std::string::npos)
        a.user = named(text, uid);
    auto groups = text.find("groups=");
    if (groups == std::string::npos)
        return;
    size_t pos = groups;
    while ((pos = text.find('(', pos)) != std::string::npos) {
        const auto close = text.find(')', pos);
        if (close == std::string::npos)
            break;
        a.userGroups.push_back(text.substr(pos + 1, close - pos - 1));
        pos = close;
    }
}

// Read/write permission from the recorded mode and group (the user or root may open it); unknown where the mode
// cannot be read, or where only the user's groups could decide and no user was recorded.
std::optional<bool> recordedReadWrite(const RecordedStat& st, const AccessInfo& a)
{
    if (a.user && *a.user == "root")
        return true;
    unsigned mode = 0;
    try {
        mode = static_cast<unsigned>(std::stoul(st.mode, nullptr, 8));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if ((mode & 06) == 06)
        return true;
    if (!a.user)
        return std::nullopt;
    const bool inGroup = std::find(a.userGroups.begin(), a.userGroups.end(), st.group) != a.userGroups.end();
    return inGroup && (mode & 060) == 060;
}

DeviceNode recordedNode(const SystemRoot& root, const std::string& path,
                        const std::map<std::string, RecordedStat>& stats, const AccessInfo& a)
{
    DeviceNode n;
    n.path = path;
    n.exists = root.exists(path);
    if (!n.exists)
        return n;
    if (auto it = stats.find(path); it != stats.end()) {
        n.group = it->second.group;
        n.mode = it->second.mode.size() < 4 ? std::string(4 - it->second.mode.size(), '0') + it->second.mode : it->second.mode;
        n.readWrite = recordedReadWrite(it->second, a);
    }
    return n;
}

} // namespace

AccessInfo readDeviceAccess(const SystemRoot& root)
{
    AccessInfo a;
    std::vector<std::string> renders;
    for (const auto& name : root.list("/dev/dri")) {
        if (name.rfind("renderD", 0) == 0)
            renders.push_back("/dev/dri/" + name);
    }
    if (root.isLive()) {
        if (const passwd* pw = ::getpwuid(::geteuid()))
            a.user = pw->pw_name;
        const int n = ::getgroups(0, nullptr);
        std::vector<gid_t> gids(static_cast<size_t>(std::max(n, 0)));
        if (n > 0 && ::getgroups(n, gids.data()) == n) {
            for (gid_t g : gids)
                a.userGroups.push_back(*groupName(g));
        }
        const auto primary = *groupName(::getegid());
        if (std::find(a.userGroups.begin(), a.userGroups.end(), primary) == a.userGroups.end())
            a.userGroups.insert(a.userGroups.begin(), primary);
        a.kfd = liveNode("/dev/kfd");
        for (const auto& r : renders)
            a.renderNodes.push_back(liveNode(r));
        return a;
    }
    if (auto id = root.readText("/.stackscope/id"))
        parseId(*id, a);
    const auto stats = recordedStats(root);
    a.kfd = recordedNode(root, "/dev/kfd", stats, a);
    for (const auto& r : renders)
        a.renderNodes.push_back(recordedNode(root, r, stats, a));
    return a;
}

std::optional<std::map<std::string, std::string>> readGpuEnvironment(const SystemRoot& root)
{
    std::map<std::string, std::string> env;
    if (root.isLive()) {
        for (char** e = environ; e && *e; ++e) {
            const std::string_view entry(*e);
            const auto eq = entry.find('=');
            if (eq != std::string_view::npos && isStackEnvironmentVariable(entry.substr(0, eq)))
                env[std::string(entry.substr(0, eq))] = escapeControl(entry.substr(eq + 1)); // JSON holds UTF-8 only
        }
        return env;
    }
    // Recorded as `env` output (KEY=VALUE lines) in <root>/.stackscope/env; without it nothing says what was set.
    const auto text = root.readText("/.stackscope/env");
    if (!text)
        return std::nullopt;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq != std::string::npos && isStackEnvironmentVariable(std::string_view(line).substr(0, eq)))
            env[line.substr(0, eq)] = escapeControl(std::string_view(line).substr(eq + 1));
    }
    return env;
}

} // namespace stackscope
