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
        std::vector<std::size_t> cutAt;                // by exact text's literal: flat offset of its first cut, or npos
    };
    Hits find(const NormalizedText& text) const;

    // Exact texts compare case-sensitively except for their first letter: a message pasted as an issue title or at
    // the start of a sentence is capitalised ("An illegal memory access was encountered"), and no two library
    // messages differ only there. A span written with no capital letter at all matches a text of at least
    // kLowerCaseMinLength characters whatever the text's case: people retype messages in lower case in titles and
    // chat ("cuda error: out of memory"), and a library message of that length is not a phrase of healthy prose.
    // findExactText: the first occurrence at or after `from`, or npos.
    static constexpr std::size_t kLowerCaseMinLength = 16;
    // A message cut short: an issue title or a one-line paste that stops inside a long message ("RuntimeError: CUDA
    // error: no kernel image is available for exec..."). An exact text of kCutMinLength + kCutMinMissing characters
    // or more also counts where a line holds its first kCutMinLength characters or more and then ends (dots and an
    // ellipsis allowed): the rest of that line agrees with the message wherever the line goes on. The model: a
    // library message's first 32 characters, then nothing else on the line, is not a phrase of a working log. A line on
    // which a whole message or a pattern's anchor is found is not read as a cut (a shorter message may begin a longer).
    static constexpr std::size_t kCutMinLength = 32;
    static constexpr std::size_t kCutMinMissing = 8;
    static bool sameExactText(std::string_view at, std::string_view exact);
    // A line retyped all in lower case (kLowerCaseMinLength characters or more, no capital letter): its anchors match
    // in any case and patterns are tried ignoring case, the model exact texts follow.
    static bool isRetypedLowerCase(std::string_view line);
    static std::size_t findExactText(std::string_view flat, std::string_view exact, std::size_t from = 0);

private:
    struct Literal {
        std::string text; // as written (after normalisation for exact texts; lower-cased for icase anchors)
        bool caseSensitive = true;
        bool onLines = false; // an anchor (looked for in lines) rather than an exact text (in the flat form)
        std::uint32_t cutOf = kNoLiteral; // the first kCutMinLength characters of that exact text's literal
    };
    bool matchesAt(const Literal& lit, std::string_view text, std::size_t end, bool lowerCaseLine = false) const;
    // Whether the exact text `whole` starts at flat[begin] and the line holding it ends before the text does.
    static bool cutAtLineEnd(const NormalizedText& text, std::size_t begin, std::string_view whole);

    std::vector<Literal> m_literals;
    std::vector<std::vector<std::uint32_t>> m_of;
    LiteralSet m_set;
};

} // namespace stackscope
