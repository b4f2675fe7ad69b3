// Snapshot comparison: each side's facts (snapshot_diff_facts.h), then only the items whose text differs, each
// marked as a difference that matters or one in what a side does not know.
#include "core/report/snapshot_diff.h"

#include "core/report/snapshot_diff_facts.h"

#include <algorithm>
#include <set>

namespace stackscope::report {

namespace {

// Part by part: both known and different matters; known on one side only is unknown; unknown on both says nothing.
// Facts of different shapes (a node missing on one side, present on the other) differ in what both know.
struct Comparison {
    bool matters = false;
    bool unknownOnly = false;
};

Comparison compareParts(const DiffFact& x, const DiffFact& y)
{
    Comparison c;
    if (x.parts.size() != y.parts.size()) {
        c.matters = true;
        return c;
    }
    for (std::size_t i = 0; i < x.parts.size(); ++i) {
        const auto& px = x.parts[i];
        const auto& py = y.parts[i];
        if (px && py && *px != *py)
            c.matters = true;
        else if (px.has_value() != py.has_value())
            c.unknownOnly = true;
    }
    return c;
}

void compareArea(const char* area, const Snapshot& a, const Snapshot& b, const AreaFacts& x, const AreaFacts& y,
                 std::vector<DiffRow>& rows)
{
    std::set<std::string> items;
    for (const auto& [k, v] : x)
        items.insert(k);
    for (const auto& [k, v] : y)
        items.insert(k);
    for (const auto& item : items) {
        const auto ix = x.find(item);
        const auto iy = y.find(item);
        const DiffFact fa = ix == x.end() ? absentFact(a, area, item) : ix->second;
        const DiffFact fb = iy == y.end() ? absentFact(b, area, item) : iy->second;
        if (fa.text == fb.text)
            continue;
        const auto c = compareParts(fa, fb);
        if (c.matters || c.unknownOnly)
            rows.push_back({area, item, fa.text, fb.text, fa.hasUnknown(), fb.hasUnknown(), c.matters});
    }
}

} // namespace

std::vector<DiffRow> diffSnapshots(const Snapshot& a, const Snapshot& b)
{
    auto fa = diffFacts(a);
    auto fb = diffFacts(b);
    std::vector<DiffRow> rows;
    // Area order as a person reads it: what is installed first, then what is set around it.
    for (const char* area : {"versions", "gpus", "libraries", "environment", "access", "host", "coverage"})
        compareArea(area, a, b, fa[area], fb[area], rows);
    std::stable_partition(rows.begin(), rows.end(), [](const DiffRow& r) { return r.matters; });
    return rows;
}

std::size_t countThatMatter(const std::vector<DiffRow>& rows)
{
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) { return r.matters; }));
}

nlohmann::json diffToJson(const std::vector<DiffRow>& rows)
{
    auto out = nlohmann::json::array();
    for (const auto& r : rows)
        out.push_back({{"area", r.area}, {"item", r.item}, {"a", r.a}, {"b", r.b}, {"matters", r.matters},
                       {"a_unknown", r.aUnknown}, {"b_unknown", r.bUnknown}});
    return out;
}

} // namespace stackscope::report
