// The words people use to describe a fault when they paste no message of the stack ("bus error in the DataLoader
// under Docker", "ROCm picks the iGPU instead of the 7900 XTX"): every word of every rule's symptom sets in one
// LiteralSet, and which sets a line satisfies. diagnose() asks only when no message, fact or probe named a cause,
// and the findings it makes are low-confidence guesses that say so (diagnosis.h).
#pragma once

#include "core/diagnosis/diagnosis_rules.h"
#include "core/diagnosis/literal_set.h"
#include "core/diagnosis/text_normalizer.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stackscope {

class SymptomIndex {
public:
    explicit SymptomIndex(const std::vector<DiagnosisRule>& rules);

    // A symptom set of a rule that a line satisfies: the first such line of the text.
    struct Hit {
        std::size_t rule = 0; // index into the rules
        std::size_t set = 0;  // index into that rule's symptoms
        std::size_t line = 0; // index into NormalizedText::lines()
        std::vector<std::string> words; // the word of each group found on the line, in the set's order
    };
    // One hit per (rule, set), in rule order; linear in the text (one pass of the LiteralSet per line).
    std::vector<Hit> find(const NormalizedText& text) const;

    bool empty() const { return m_words.empty(); }

private:
    struct Word {
        std::string text; // lower-cased, without the trailing '*'
        bool prefix = false;
    };
    struct SetRef {
        std::size_t rule;
        std::size_t set;
        std::vector<std::vector<std::uint32_t>> groups; // word ids; one of each group must occur
        std::vector<std::uint32_t> none;                // none may occur
    };
    bool boundedAt(const Word& w, const std::string& line, std::size_t end) const;

    std::vector<Word> m_words;
    std::vector<SetRef> m_sets;
    LiteralSet m_set;
};

// "hibernat*" -> {"hibernat", prefix}: how a symptom word is written in the rules (lower case; '*' at the end lets the
// word continue, otherwise it must end where a word ends).
bool parseSymptomWord(const std::string& written, std::string& text, bool& prefix);

} // namespace stackscope
