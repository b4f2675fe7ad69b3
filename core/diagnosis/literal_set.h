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
        if (m_dense.empty())
            return;
        std::uint32_t state = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            state = next(state, m_class[static_cast<unsigned char>(text[i])]);
            for (auto k = m_outBegin[state]; k < m_outBegin[state + 1]; ++k)
                onHit(m_out[k], i + 1);
        }
    }

    // Whether any literal occurs.
    bool any(std::string_view text) const;

private:
    // The state after reading a byte of class cls in state: a table look-up for the shallow states (where a log's
    // bytes spend nearly all their time), the deep ones' few children searched, and failure links followed down to a
    // shallow state.
    std::uint32_t next(std::uint32_t state, std::uint32_t cls) const
    {
        while (state >= m_denseStates) {
            for (auto child = m_childBegin[state]; child < m_childBegin[state + 1]; ++child) {
                if (m_stateClass[child] == cls)
                    return child;
            }
            state = m_fail[state];
        }
        return m_dense[state * m_classes + cls];
    }

    // States are numbered breadth first and, on each level, in the order of their text: a state's children are
    // consecutive, and the shallow states (depth <= kDenseDepth in the .cpp) come first.
    std::uint32_t m_classes = 0;          // byte classes: 0 for bytes in no literal, one per distinct folded byte
    std::uint8_t m_class[256] = {};
    std::uint32_t m_denseStates = 0;
    std::vector<std::uint32_t> m_dense;   // shallow state * m_classes + class -> state (complete)
    std::vector<std::uint8_t> m_stateClass;  // state -> the class of the byte that enters it
    std::vector<std::uint32_t> m_childBegin; // state -> its first child (size states + 1, ascending)
    std::vector<std::uint32_t> m_fail;    // state -> longest proper suffix that is a state
    std::vector<std::uint32_t> m_outBegin; // state -> first of its outputs in m_out (size states + 1)
    std::vector<std::uint32_t> m_out;     // literal indexes ending at each state, suffix links' outputs included
    std::vector<std::size_t> m_lengths;
};

} // namespace stackscope
