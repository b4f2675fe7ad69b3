// Aho-Corasick over byte classes (see literal_set.h). The trie is laid out from the literals sorted by their class
// text, one level at a time: a state is new on level k when the literal's first k classes differ from the previous
// literal's (their common prefix is shorter than k), so every level is numbered in text order, a state's children are
// consecutive and no trie of linked nodes is built and renumbered. Complete transition rows only for the shallow
// states, the deep ones' children searched: a complete table for every state would be states x classes entries (about
// 49,000 x 63 for the built-in rules' literals: 12 MB to fill at every start); this keeps the automaton under 1 MB.
#include "core/diagnosis/literal_set.h"

#include <algorithm>
#include <numeric>

namespace stackscope {

namespace {

// Depth of the states with complete rows: a log's bytes mostly leave the root after one or two matching bytes.
constexpr std::uint32_t kDenseDepth = 2;

std::size_t commonPrefix(const std::string& a, const std::string& b)
{
    const auto n = std::min(a.size(), b.size());
    std::size_t k = 0;
    while (k < n && a[k] == b[k])
        ++k;
    return k;
}

} // namespace

LiteralSet::LiteralSet(const std::vector<std::string>& literals)
{
    // ASCII case folding without the locale (std::tolower per byte is a call).
    std::uint8_t folded[256];
    for (int c = 0; c < 256; ++c)
        folded[c] = static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    std::size_t bytes = 0;
    for (const auto& lit : literals) {
        m_lengths.push_back(lit.size());
        bytes += lit.size();
        for (unsigned char c : lit) {
            const auto f = folded[c];
            if (!m_class[f])
                m_class[f] = static_cast<std::uint8_t>(++m_classes);
        }
    }
    m_classes += 1; // class 0: bytes in no literal
    for (int c = 0; c < 256; ++c)
        m_class[c] = m_class[folded[c]];

    // The non-empty literals as class texts, sorted; shared[i]: the prefix sorted literal i shares with literal i-1.
    std::vector<std::string> texts(literals.size());
    std::vector<std::uint32_t> sorted;
    for (std::size_t i = 0; i < literals.size(); ++i) {
        if (literals[i].empty())
            continue;
        texts[i].resize(literals[i].size());
        std::transform(literals[i].begin(), literals[i].end(), texts[i].begin(),
                       [this](char c) { return static_cast<char>(m_class[static_cast<unsigned char>(c)]); });
        sorted.push_back(static_cast<std::uint32_t>(i));
    }
    if (sorted.empty())
        return;
    std::sort(sorted.begin(), sorted.end(), [&](auto a, auto b) { return texts[a] < texts[b]; });
    std::vector<std::size_t> shared(sorted.size(), 0);
    for (std::size_t i = 1; i < sorted.size(); ++i)
        shared[i] = commonPrefix(texts[sorted[i - 1]], texts[sorted[i]]);

    // Level by level: `active` holds the positions (in `sorted`) of the literals at least k long, `at` the state each
    // of them has reached. A state's parent is known from the level above, so children are appended in parent order.
    // m_fail holds each state's parent until the failure links replace them. Every array is as long as the states
    // (at most one per literal byte, reserved so that none is copied as it grows): pages first touched are most of
    // the cost of a start.
    m_stateClass.reserve(bytes + 1);
    m_fail.reserve(bytes + 1);
    m_stateClass.push_back(0);
    m_fail.push_back(0);
    std::vector<std::uint32_t> at(sorted.size(), 0), endsAt(sorted.size(), 0);
    std::vector<std::uint32_t> active(sorted.size());
    std::iota(active.begin(), active.end(), 0u);
    for (std::size_t k = 1; !active.empty(); ++k) {
        std::size_t kept = 0;
        for (const auto pos : active) {
            const auto& text = texts[sorted[pos]];
            if (text.size() < k)
                continue;
            // The literal before it in sorted order is still active when they share k classes (it is that long).
            std::uint32_t state;
            if (kept != 0 && active[kept - 1] == pos - 1 && shared[pos] >= k) {
                state = at[pos - 1];
            }
            else {
                state = static_cast<std::uint32_t>(m_stateClass.size());
                m_stateClass.push_back(static_cast<std::uint8_t>(text[k - 1]));
                m_fail.push_back(at[pos]);
            }
            at[pos] = state;
            if (text.size() == k)
                endsAt[pos] = state;
            active[kept++] = pos;
        }
        active.resize(kept);
        if (k == kDenseDepth)
            m_denseStates = static_cast<std::uint32_t>(m_stateClass.size());
    }
    const auto count = static_cast<std::uint32_t>(m_stateClass.size());
    if (m_denseStates == 0)
        m_denseStates = count; // every literal shorter than kDenseDepth + 1

    // Children are consecutive and parents ascend with their children's numbers.
    m_childBegin.assign(count + 1, count);
    for (std::uint32_t s = count; s-- > 1;)
        m_childBegin[m_fail[s]] = s;
    for (std::uint32_t s = count; s-- > 0;) {
        if (m_childBegin[s] == count)
            m_childBegin[s] = m_childBegin[s + 1];
    }

    // Failure links and complete rows, breadth first: a state's failure state and the rows it reads are shallower,
    // so they hold links already when a state's parent (still in m_fail[s]) is replaced by its link.
    m_dense.assign(std::size_t(m_denseStates) * m_classes, 0);
    for (std::uint32_t s = 0; s < count; ++s) {
        const auto parent = m_fail[s];
        m_fail[s] = s == 0 || parent == 0 ? 0 : next(m_fail[parent], m_stateClass[s]);
        if (s < m_denseStates) {
            auto* row = &m_dense[std::size_t(s) * m_classes];
            if (s != 0)
                std::copy_n(&m_dense[std::size_t(m_fail[s]) * m_classes], m_classes, row);
            for (auto child = m_childBegin[s]; child < m_childBegin[s + 1]; ++child)
                row[m_stateClass[child]] = child;
        }
    }

    // Outputs: a state's own literals (a run of `sorted`: equal class texts are neighbours), then its failure
    // state's, laid out already (it comes earlier). m_outBegin[s + 1] counts the state's own literals first.
    m_outBegin.assign(count + 1, 0);
    for (std::size_t pos = 0; pos < sorted.size(); ++pos)
        ++m_outBegin[endsAt[pos] + 1];
    for (std::uint32_t s = 0; s < count; ++s) {
        const auto inherited = s == 0 ? 0 : m_outBegin[m_fail[s] + 1] - m_outBegin[m_fail[s]];
        m_outBegin[s + 1] += m_outBegin[s] + inherited;
    }
    m_out.resize(m_outBegin[count]);
    for (std::size_t pos = 0; pos < sorted.size(); ++pos) {
        const auto runStart = pos;
        while (pos + 1 < sorted.size() && endsAt[pos + 1] == endsAt[runStart])
            ++pos;
        std::copy(sorted.begin() + static_cast<std::ptrdiff_t>(runStart), sorted.begin() + static_cast<std::ptrdiff_t>(pos + 1),
                  m_out.begin() + m_outBegin[endsAt[runStart]]);
    }
    for (std::uint32_t s = 1; s < count; ++s) {
        const auto f = m_fail[s];
        const auto inherited = m_outBegin[f + 1] - m_outBegin[f];
        std::copy(m_out.begin() + m_outBegin[f], m_out.begin() + m_outBegin[f + 1],
                  m_out.begin() + m_outBegin[s + 1] - inherited);
    }
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
