// Version parsing and series-level range checks for rule applicability and snapshot triggers.
#include "core/diagnosis/version_range.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stackscope {

std::optional<std::vector<int>> parseVersion(std::string_view text)
{
    std::vector<int> parts;
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ')
        ++i;
    if (i < text.size() && (text[i] == 'v' || text[i] == 'V'))
        ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        long value = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            value = value * 10 + (text[i] - '0');
            if (value > 1'000'000'000)
                return std::nullopt;
            ++i;
        }
        parts.push_back(static_cast<int>(value));
        if (i + 1 < text.size() && text[i] == '.' && text[i + 1] >= '0' && text[i + 1] <= '9')
            ++i;
        else
            break;
    }
    if (parts.empty())
        return std::nullopt;
    return parts;
}

VersionRange VersionRange::parse(const std::string& text)
{
    VersionRange r;
    r.m_text = text;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        while (!part.empty() && part.front() == ' ')
            part.erase(part.begin());
        while (!part.empty() && part.back() == ' ')
            part.pop_back();
        Bound b {Op::Equal, {}};
        std::size_t skip = 0;
        if (part.rfind(">=", 0) == 0) { b.op = Op::GreaterEqual; skip = 2; }
        else if (part.rfind("<=", 0) == 0) { b.op = Op::LessEqual; skip = 2; }
        else if (part.rfind("==", 0) == 0) { b.op = Op::Equal; skip = 2; }
        else if (part.rfind('>', 0) == 0) { b.op = Op::Greater; skip = 1; }
        else if (part.rfind('<', 0) == 0) { b.op = Op::Less; skip = 1; }
        else
            throw std::invalid_argument(fmt::format("'{}': each comparison starts with >=, <=, ==, > or < (like \">=2.4,<2.7\")", text));
        const std::string number = part.substr(skip);
        auto v = parseVersion(number);
        if (!v || number.find_first_not_of("0123456789.") != std::string::npos)
            throw std::invalid_argument(fmt::format("'{}': '{}' is not a dotted version number", text, number));
        b.version = *v;
        r.m_bounds.push_back(std::move(b));
    }
    return r;
}

bool VersionRange::contains(const std::vector<int>& version) const
{
    for (const auto& b : m_bounds) {
        // Compare on the bound's components only (missing ones of `version` count as 0).
        int cmp = 0;
        for (std::size_t i = 0; i < b.version.size() && cmp == 0; ++i) {
            const int have = i < version.size() ? version[i] : 0;
            cmp = have < b.version[i] ? -1 : (have > b.version[i] ? 1 : 0);
        }
        bool ok = false;
        switch (b.op) {
        case Op::Less: ok = cmp < 0; break;
        case Op::LessEqual: ok = cmp <= 0; break;
        case Op::Equal: ok = cmp == 0; break;
        case Op::GreaterEqual: ok = cmp >= 0; break;
        case Op::Greater: ok = cmp > 0; break;
        }
        if (!ok)
            return false;
    }
    return true;
}

} // namespace stackscope
