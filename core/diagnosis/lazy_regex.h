// An ECMAScript pattern compiled on first use. A text tries only the patterns whose anchor occurs in it, so most of
// the rules' hundreds of patterns are never compiled in a run; compiling them all when the rules load took longer
// than everything else the loading does.
#pragma once

#include <mutex>
#include <optional>
#include <regex>
#include <string>

namespace stackscope {

class LazyRegex {
public:
    LazyRegex(std::string pattern, std::regex::flag_type flags)
        : m_pattern(std::move(pattern))
        , m_flags(flags)
    {
    }

    // The compiled pattern; safe from several threads. Throws std::regex_error for an invalid pattern (every call,
    // as the first one).
    const std::regex& get() const
    {
        std::call_once(m_once, [this] { m_regex.emplace(m_pattern, m_flags); });
        return *m_regex;
    }

private:
    std::string m_pattern;
    std::regex::flag_type m_flags;
    mutable std::once_flag m_once;
    mutable std::optional<std::regex> m_regex;
};

} // namespace stackscope
