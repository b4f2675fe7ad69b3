// Caps on what one library's scan keeps (distinct targets, error messages), with counts of the rest, so a
// hostile file costs time in proportion to its size and bounded memory.
#pragma once

#include "core/snapshot/arch_coverage.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace stackscope::archscan {

// A real library carries tens of distinct targets (libtorch_hip.so of ROCm 6: one per gfx target it was
// built for, compressed or not); 1024 leaves a wide margin and bounds the per-device coverage pass.
inline constexpr std::size_t kMaxTargetsKept = 1024;
// The first errors of a damaged library say enough; the rest are counted.
inline constexpr std::size_t kMaxErrorsKept = 20;

// Distinct targets in order of first appearance: constant-time duplicate checks (a linear search per
// entry made 364k distinct ids run for minutes), at most kMaxTargetsKept kept, the others counted.
class TargetSet {
public:
    // Adds `t` unless it is already there; returns false when it was new but over the cap.
    bool add(ScannedTarget t, std::vector<ScannedTarget>& targets, std::uint64_t& dropped)
    {
        if (m_seen.empty() && !targets.empty())
            for (const auto& kept : targets)
                m_seen.insert(key(kept));
        std::string k = key(t);
        if (m_seen.count(k))
            return true;
        if (targets.size() >= kMaxTargetsKept) {
            ++dropped;
            return false;
        }
        m_seen.insert(std::move(k));
        targets.push_back(std::move(t));
        return true;
    }

private:
    static std::string key(const ScannedTarget& t)
    {
        return t.id + '\x1f' + t.bundleId + '\x1f' + static_cast<char>('0' + static_cast<int>(t.format)) +
               (t.compressed ? "c" : "u");
    }
    std::unordered_set<std::string> m_seen;
};

// Keeps the message only while fewer than kMaxErrorsKept are kept; `make` is called only then, so a file of
// millions of damaged candidates formats twenty messages, not millions.
template <typename MakeMessage>
void addBoundedError(std::vector<std::string>& errors, std::uint64_t& dropped, MakeMessage&& make)
{
    if (errors.size() < kMaxErrorsKept)
        errors.push_back(make());
    else
        ++dropped;
}

} // namespace stackscope::archscan
