// Aho-Corasick over byte classes (see literal_set.h): a trie of the folded literals, numbered breadth first, with
// failure links; complete transition rows only for the shallow states, edge lists for the rest. A complete table
// for every state would be states x classes entries (about 39,000 x 63 for the built-in rules' literals: 10 MB to
// fill at every start); this keeps the automaton near 0.7 MB for a failure-link step now and then in a scan.
#include "core/diagnosis/literal_set.h"

#include <algorithm>
#include <cctype>

namespace stackscope {

namespace {

// Depth of the states with complete rows: a log's bytes mostly leave the root after one or two matching bytes.
constexpr std::uint32_t kDenseDepth = 2;
constexpr std::uint32_t kNone = 0xffffffffu;

unsigned char fold(unsigned char c)
{
    return static_cast<unsigned char>(std::tolower(c));
}

// The trie while it is built: children as sibling lists, in insertion order.
struct Trie {
    std::vector<std::uint32_t> firstChild {kNone};
    std::vector<std::uint32_t> nextSibling {kNone};
    std::vector<std::uint8_t> cls {0};
    std::vector<std::uint32_t> firstLiteral {kNone}; // literals ending here, chained through nextLiteral
    std::vector<std::uint32_t> nextLiteral;
    std::uint32_t rootChild[256]; // the root's children by class: every failure chain ends there

    Trie() { std::fill(std::begin(rootChild), std::end(rootChild), kNone); }

    std::uint32_t child(std::uint32_t node, std::uint8_t c) const
    {
        if (node == 0)
            return rootChild[c];
        for (auto k = firstChild[node]; k != kNone; k = nextSibling[k]) {
            if (cls[k] == c)
                return k;
        }
        return kNone;
    }

    std::uint32_t addChild(std::uint32_t node, std::uint8_t c)
    {
        const auto k = static_cast<std::uint32_t>(cls.size());
        firstChild.push_back(kNone);
        nextSibling.push_back(firstChild[node]);
        cls.push_back(c);
        firstLiteral.push_back(kNone);
        firstChild[node] = k;
        if (node == 0)
            rootChild[c] = k;
        return k;
    }
};

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

    Trie trie;
    trie.nextLiteral.assign(literals.size(), kNone);
    for (std::size_t i = 0; i < literals.size(); ++i) {
        if (literals[i].empty())
            continue;
        std::uint32_t node = 0;
        for (unsigned char c : literals[i]) {
            auto k = trie.child(node, m_class[c]);
            node = k != kNone ? k : trie.addChild(node, m_class[c]);
        }
        trie.nextLiteral[i] = trie.firstLiteral[node];
        trie.firstLiteral[node] = static_cast<std::uint32_t>(i);
    }

    // Breadth-first order: order[new] = trie node; a state's failure state is shallower, so it comes first.
    const auto count = static_cast<std::uint32_t>(trie.cls.size());
    std::vector<std::uint32_t> order {0}, renamed(count, 0), depth {0};
    order.reserve(count);
    depth.reserve(count);
    for (std::size_t head = 0; head < order.size(); ++head) {
        for (auto k = trie.firstChild[order[head]]; k != kNone; k = trie.nextSibling[k]) {
            renamed[k] = static_cast<std::uint32_t>(order.size());
            order.push_back(k);
            depth.push_back(depth[head] + 1);
            if (depth.back() <= kDenseDepth)
                m_denseStates = static_cast<std::uint32_t>(order.size());
        }
    }
    m_denseStates = std::max<std::uint32_t>(m_denseStates, 1);

    // Failure links in trie numbering: the longest proper suffix of a state's text that is a trie node.
    std::vector<std::uint32_t> fail(count, 0);
    for (std::uint32_t s = 1; s < count; ++s) {
        const auto node = order[s];
        for (auto k = trie.firstChild[node]; k != kNone; k = trie.nextSibling[k]) {
            // The root's children keep 0 (s starts at 1); a deeper child follows its parent's failure chain.
            for (auto f = fail[node];; f = fail[f]) {
                const auto via = trie.child(f, trie.cls[k]);
                if (via != kNone || f == 0) {
                    fail[k] = via != kNone ? via : 0;
                    break;
                }
            }
        }
    }
    m_fail.resize(count);
    for (std::uint32_t s = 0; s < count; ++s)
        m_fail[s] = renamed[fail[order[s]]];

    // Outputs: a state's own literals, then its failure state's (already laid out: it comes earlier).
    m_outBegin.reserve(count + 1);
    for (std::uint32_t s = 0; s < count; ++s) {
        m_outBegin.push_back(static_cast<std::uint32_t>(m_out.size()));
        for (auto lit = trie.firstLiteral[order[s]]; lit != kNone; lit = trie.nextLiteral[lit])
            m_out.push_back(lit);
        if (s != 0) {
            const auto f = m_fail[s];
            for (auto k = m_outBegin[f]; k < m_outBegin[f + 1]; ++k)
                m_out.push_back(m_out[k]);
        }
    }
    m_outBegin.push_back(static_cast<std::uint32_t>(m_out.size()));

    // Complete rows for the shallow states: a missing edge goes where the failure state's row goes.
    m_dense.assign(std::size_t(m_denseStates) * m_classes, 0);
    for (std::uint32_t s = 0; s < m_denseStates; ++s) {
        auto* row = &m_dense[std::size_t(s) * m_classes];
        if (s != 0)
            std::copy_n(&m_dense[std::size_t(m_fail[s]) * m_classes], m_classes, row);
        for (auto k = trie.firstChild[order[s]]; k != kNone; k = trie.nextSibling[k])
            row[trie.cls[k]] = renamed[k];
    }

    // Edge lists for the deep states, in breadth-first numbering.
    m_edgeBegin.reserve(count - m_denseStates + 1);
    for (std::uint32_t s = m_denseStates; s < count; ++s) {
        m_edgeBegin.push_back(static_cast<std::uint32_t>(m_edgeClass.size()));
        for (auto k = trie.firstChild[order[s]]; k != kNone; k = trie.nextSibling[k]) {
            m_edgeClass.push_back(trie.cls[k]);
            m_edgeTarget.push_back(renamed[k]);
        }
    }
    m_edgeBegin.push_back(static_cast<std::uint32_t>(m_edgeClass.size()));
}

bool LiteralSet::any(std::string_view text) const
{
    if (m_dense.empty())
        return false;
    std::uint32_t state = 0;
    for (unsigned char c : text) {
        state = next(state, m_class[c]);
        if (m_outBegin[state] != m_outBegin[state + 1])
            return true;
    }
    return false;
}

} // namespace stackscope
