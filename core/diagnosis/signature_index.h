// The literal piece of every rule signature (an exact text, or a pattern's anchor) in one LiteralSet, and which of
// them occur in a text: the matcher then tries only the signatures whose literal is there, on the lines holding it.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/diagnosis/literal_set.h"
#include "core/diagnosis/text_normalizer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

class SignatureIndex {
public:
    explicit SignatureIndex(const std::vector<DiagnosisRule>& rules);

    static constexpr std::uint32_t kNoLiteral = 0xffffffffu;
    // The literal of rules[rule].signatures[signature], or kNoLiteral (a pattern without an anchor).
    std::uint32_t literalOf(std::size_t rule, std::size_t signature) const { return m_of[rule][signature]; }
    const LiteralSet& literals() const { return m_set; }

    // Which literals occur in a text: exact texts in its flat (match) form, anchors in each line's display form.
    struct Hits {
        std::vector<char> inFlat;                      // by literal
        std::vector<std::vector<std::uint32_t>> lines; // by literal: indexes into NormalizedText::lines(), ascending
    };
    Hits find(const NormalizedText& text) const;

    // Exact texts compare case-sensitively except for their first letter: a message pasted as an issue title or at
    // the start of a sentence is capitalised ("An illegal memory access was encountered"), and no two library
    // messages differ only there. A span written with no capital letter at all matches a text of at least
    // kLowerCaseMinLength characters whatever the text's case: people retype messages in lower case in titles and
    // chat ("cuda error: out of memory"), and a library message of that length is not a phrase of healthy prose.
    // findExactText: the first occurrence at or after `from`, or npos.
    static constexpr std::size_t kLowerCaseMinLength = 16;
    static bool sameExactText(std::string_view at, std::string_view exact);
    static std::size_t findExactText(std::string_view flat, std::string_view exact, std::size_t from = 0);

private:
    struct Literal {
        std::string text; // as written (after normalisation for exact texts; lower-cased for icase anchors)
        bool caseSensitive = true;
        bool onLines = false; // an anchor (looked for in lines) rather than an exact text (in the flat form)
    };
    bool matchesAt(const Literal& lit, std::string_view text, std::size_t end) const;

    std::vector<Literal> m_literals;
    std::vector<std::vector<std::uint32_t>> m_of;
    LiteralSet m_set;
};

} // namespace stackscope
