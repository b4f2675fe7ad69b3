// Aho-Corasick over byte classes (see literal_set.h): a trie of the folded literals, suffix links by breadth-first
// search, and every missing transition filled in, so a scan is one table look-up per byte.
#include "core/diagnosis/literal_set.h"

#include <cctype>
#include <deque>

namespace stackscope {

namespace {

unsigned char fold(unsigned char c)
{
    return static_cast<unsigned char>(std::tolower(c));
}

} // namespace

LiteralSet::LiteralSet(const std::vector<std::string>& literals)
{
    for (const auto& lit : literals) {
        m_lengths.push_back(lit.size());
        for (unsigned char c : lit) {
            const auto f = fold(c);
            if (!m_class[f])
                m_class[f] = static_cast<std::uint8_t>(++m_classes);
        }
    }
    m_classes += 1; // class 0: bytes in no literal
    for (int c = 0; c < 256; ++c)
        m_class[c] = m_class[fold(static_cast<unsigned char>(c))];

    // The trie: kNone marks a missing edge until the breadth-first pass fills it.
    constexpr std::uint32_t kNone = 0xffffffffu;
    // At most one state per literal byte: reserving that bound once spares the table's growth copies, which cost more
    // than building it (the table holds states x classes entries, megabytes for the built-in rules).
    std::size_t bytes = 0;
    for (const auto& lit : literals)
        bytes += lit.size();
    std::vector<std::uint32_t> next;
    next.reserve((bytes + 1) * m_classes);
    next.assign(m_classes, kNone);
    std::vector<std::vector<std::uint32_t>> outputs(1);
    outputs.reserve(bytes + 1);
    for (std::size_t i = 0; i < literals.size(); ++i) {
        if (literals[i].empty())
            continue;
        std::uint32_t s = 0;
        for (unsigned char c : literals[i]) {
            auto& edge = next[s * m_classes + m_class[c]];
            if (edge == kNone) {
                edge = static_cast<std::uint32_t>(outputs.size());
                outputs.emplace_back();
                next.resize(next.size() + m_classes, kNone);
            }
            s = next[s * m_classes + m_class[c]];
        }
        outputs[s].push_back(static_cast<std::uint32_t>(i));
    }
    const std::size_t states = outputs.size();
    std::vector<std::uint32_t> link(states, 0);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t c = 0; c < m_classes; ++c) {
        auto& edge = next[c];
        if (edge == kNone) {
            edge = 0;
        } else {
            link[edge] = 0;
            queue.push_back(edge);
        }
    }
    while (!queue.empty()) {
        const auto s = queue.front();
        queue.pop_front();
        const auto& inherited = outputs[link[s]];
        outputs[s].insert(outputs[s].end(), inherited.begin(), inherited.end());
        for (std::uint32_t c = 0; c < m_classes; ++c) {
            auto& edge = next[s * m_classes + c];
            if (edge == kNone) {
                edge = next[link[s] * m_classes + c];
            } else {
                link[edge] = next[link[s] * m_classes + c];
                queue.push_back(edge);
            }
        }
    }
    m_next = std::move(next);
    m_outBegin.reserve(states + 1);
    for (const auto& o : outputs) {
        m_outBegin.push_back(static_cast<std::uint32_t>(m_out.size()));
        m_out.insert(m_out.end(), o.begin(), o.end());
    }
    m_outBegin.push_back(static_cast<std::uint32_t>(m_out.size()));
}

bool LiteralSet::any(std::string_view text) const
{
    if (m_next.empty())
        return false;
    std::uint32_t state = 0;
    for (unsigned char c : text) {
        state = m_next[state * m_classes + m_class[c]];
        if (m_outBegin[state] != m_outBegin[state + 1])
            return true;
    }
    return false;
}

} // namespace stackscope
