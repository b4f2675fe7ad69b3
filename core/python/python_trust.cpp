// whyNotStarted: ownership and mode of the interpreter and its folders, and where the environment lies.
#include "core/python/python_trust.h"

#include <fmt/format.h>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace stackscope {

namespace fs = std::filesystem;

namespace {

fs::path canonicalOr(const fs::path& p)
{
    std::error_code ec;
    auto c = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? p.lexically_normal() : c;
}

// True when `inner` is `outer` or lies below it (both canonical).
bool within(const fs::path& inner, const fs::path& outer)
{
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty())
            continue; // a trailing separator
        if (i == inner.end() || *i != *o)
            return false;
    }
    return true;
}

// Why `p` could hold code somebody else put there; empty when it is the user's or root's and not writable by all.
// `followLink`: the file a link names is checked (the link's own mode is always rwx for everyone).
std::string foreignHands(const fs::path& p, bool followLink)
{
    struct stat st {};
    if ((followLink ? ::stat(p.c_str(), &st) : ::lstat(p.c_str(), &st)) != 0)
        return {};
    const uid_t me = ::geteuid();
    if (st.st_uid != me && st.st_uid != 0)
        return fmt::format("{} belongs to user id {}, not to you or root", p.string(), st.st_uid);
    if (!S_ISLNK(st.st_mode) && (st.st_mode & S_IWOTH) && !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
        return fmt::format("{} is writable by everyone", p.string());
    return {};
}

} // namespace

std::string whyNotStarted(const std::string& interpreter, const std::string& source, const StartPolicy& policy)
{
    const fs::path bin = fs::absolute(fs::path(interpreter)).parent_path();
    const fs::path prefix = bin.parent_path();
    const auto envDir = canonicalOr(prefix);
    const bool activated = (!policy.virtualEnv.empty() && canonicalOr(policy.virtualEnv) == envDir) ||
        (!policy.condaPrefix.empty() && canonicalOr(policy.condaPrefix) == envDir);
    if (source == "added" || activated)
        return {};
    for (const auto& [path, follow] : {std::pair {fs::path(interpreter), false}, std::pair {fs::path(interpreter), true},
                                       std::pair {bin, true}, std::pair {prefix, true}}) {
        if (auto why = foreignHands(path, follow); !why.empty())
            return why;
    }
    if (!policy.cwd.empty()) {
        const auto cwd = canonicalOr(policy.cwd);
        const bool cwdHoldsHome = !policy.home.empty() && within(canonicalOr(policy.home), cwd);
        if (!cwdHoldsHome && within(envDir, cwd))
            return fmt::format("it lies inside the current folder {}, which may be a repository you fetched",
                               cwd.string());
    }
    return {};
}

std::string probeCommandFor(const std::string& interpreter)
{
    const bool plain = interpreter.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-=:,@%") ==
        std::string::npos;
    std::string quoted = "'";
    for (char c : interpreter)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "stackscope-cli inspect --python " + (plain && !interpreter.empty() ? interpreter : quoted + "'");
}

} // namespace stackscope
