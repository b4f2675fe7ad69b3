// Many literal strings found in one pass over a text (Aho-Corasick, ASCII case folded): the diagnosis rules'
// exact texts and anchors, so the cost of matching is linear in the text whatever the number of rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

class LiteralSet {
public:
    LiteralSet() = default;
    // Empty literals are ignored (they never hit).
    explicit LiteralSet(const std::vector<std::string>& literals);

    std::size_t size() const { return m_lengths.size(); }
    std::size_t length(std::size_t literal) const { return m_lengths[literal]; }

    // Calls onHit(literal index, offset one past the hit's last byte) for every occurrence, case folded (the
    // caller checks case where it matters).
    template <class OnHit>
    void scan(std::string_view text, OnHit&& onHit) const
    {
        if (m_next.empty())
            return;
        std::uint32_t state = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            state = m_next[state * m_classes + m_class[static_cast<unsigned char>(text[i])]];
            for (auto k = m_outBegin[state]; k < m_outBegin[state + 1]; ++k)
                onHit(m_out[k], i + 1);
        }
    }

    // Whether any literal occurs.
    bool any(std::string_view text) const;

private:
    std::uint32_t m_classes = 0;          // byte classes: 0 for bytes in no literal, one per distinct folded byte
    std::uint8_t m_class[256] = {};
    std::vector<std::uint32_t> m_next;    // state * m_classes + class -> state (a complete automaton)
    std::vector<std::uint32_t> m_outBegin; // state -> first of its outputs in m_out (size states + 1)
    std::vector<std::uint32_t> m_out;     // literal indexes ending at each state, suffix links' outputs included
    std::vector<std::size_t> m_lengths;
};

} // namespace stackscope
