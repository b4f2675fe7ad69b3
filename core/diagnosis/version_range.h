// Versions as they appear in snapshots ("2.5.1+rocm6.2", "6.2.41133-dd7f95766") and the ranges rules use (">=2.4,<2.7").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

// The leading dotted numbers ("2.5.1+rocm6.2" -> {2, 5, 1}); nullopt when the text starts with no number.
std::optional<std::vector<int>> parseVersion(std::string_view text);

// Comma-separated comparisons, all of which must hold: ">=2.4,<2.7", "<=2.10", "==2.6", ">=7.9".
// A comparison looks at as many components as it names, so "<=2.10" holds for 2.10.1 and "==2.6"
// for 2.6.0+rocm6.2: rules talk about release series, not patch levels.
class VersionRange {
public:
    // Throws std::invalid_argument saying what is wrong with `text`.
    static VersionRange parse(const std::string& text);

    bool contains(const std::vector<int>& version) const;
    const std::string& text() const { return m_text; }

private:
    enum class Op { Less, LessEqual, Equal, GreaterEqual, Greater };
    struct Bound {
        Op op;
        std::vector<int> version;
    };
    std::string m_text;
    std::vector<Bound> m_bounds;
};

} // namespace stackscope
