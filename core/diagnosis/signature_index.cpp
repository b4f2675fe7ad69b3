// See signature_index.h. Literals are shared between signatures that have the same one.
#include "core/diagnosis/signature_index.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

namespace stackscope {

SignatureIndex::SignatureIndex(const std::vector<DiagnosisRule>& rules)
{
    // A literal's key: its kind in four bytes (flags, the literal it is a cut of), then its text.
    std::unordered_map<std::string, std::uint32_t> ids;
    ids.reserve(4096);
    auto idOf = [&](const std::string& text, bool caseSensitive, bool onLines, std::uint32_t cutOf = kNoLiteral) {
        std::string key(5, '\0');
        key[0] = static_cast<char>((caseSensitive ? 1 : 0) | (onLines ? 2 : 0));
        std::memcpy(&key[1], &cutOf, sizeof cutOf);
        key += text;
        const auto [it, added] = ids.emplace(std::move(key), static_cast<std::uint32_t>(m_literals.size()));
        if (added)
            m_literals.push_back({text, caseSensitive, onLines, cutOf});
        return it->second;
    };
    std::size_t signatures = 0;
    for (const auto& rule : rules)
        signatures += rule.signatures.size();
    m_literals.reserve(signatures * 2);
    m_of.reserve(rules.size());
    for (const auto& rule : rules) {
        auto& of = m_of.emplace_back();
        for (const auto& sig : rule.signatures) {
            if (!sig.normalizedText.empty()) {
                const auto id = idOf(sig.normalizedText, true, false);
                if (sig.normalizedText.size() >= kCutMinLength + kCutMinMissing)
                    idOf(sig.normalizedText.substr(0, kCutMinLength), true, false, id);
                of.push_back(id);
            }
            else if (!sig.anchor.empty())
                of.push_back(idOf(sig.anchor, !sig.ignoreCase, true));
            else
                of.push_back(kNoLiteral);
        }
    }
    std::vector<std::string> texts;
    texts.reserve(m_literals.size());
    for (const auto& l : m_literals)
        texts.push_back(l.text);
    m_set = LiteralSet(texts);
}

namespace {

char lowerAscii(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

} // namespace

bool SignatureIndex::sameExactText(std::string_view at, std::string_view exact)
{
    if (at.size() != exact.size() || exact.empty())
        return false;
    if (lowerAscii(at[0]) == lowerAscii(exact[0]) && at.substr(1) == exact.substr(1))
        return true;
    if (exact.size() < kLowerCaseMinLength)
        return false;
    for (std::size_t i = 0; i < at.size(); ++i) {
        if (std::isupper(static_cast<unsigned char>(at[i])) || lowerAscii(at[i]) != lowerAscii(exact[i]))
            return false;
    }
    return true;
}

std::size_t SignatureIndex::findExactText(std::string_view flat, std::string_view exact, std::size_t from)
{
    if (exact.empty() || flat.size() < exact.size())
        return std::string_view::npos;
    const auto sameLetter = [](char a, char b) { return lowerAscii(a) == lowerAscii(b); };
    for (auto it = std::search(flat.begin() + static_cast<std::ptrdiff_t>(std::min(from, flat.size())), flat.end(),
                               exact.begin(), exact.end(), sameLetter);
         it != flat.end(); it = std::search(it + 1, flat.end(), exact.begin(), exact.end(), sameLetter)) {
        const auto pos = static_cast<std::size_t>(it - flat.begin());
        if (sameExactText(flat.substr(pos, exact.size()), exact))
            return pos;
    }
    return std::string_view::npos;
}

bool SignatureIndex::isRetypedLowerCase(std::string_view line)
{
    return line.size() >= kLowerCaseMinLength
           && std::none_of(line.begin(), line.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
}

bool SignatureIndex::matchesAt(const Literal& lit, std::string_view text, std::size_t end, bool lowerCaseLine) const
{
    if (!lit.caseSensitive || (lit.onLines && lowerCaseLine))
        return true; // the automaton folds case
    const std::string_view at = text.substr(end - lit.text.size(), lit.text.size());
    return lit.onLines ? at == lit.text : sameExactText(at, lit.text);
}

bool SignatureIndex::cutAtLineEnd(const NormalizedText& text, std::size_t begin, std::string_view whole)
{
    const std::string& flat = text.flat();
    const auto line = text.lineIndexAt(begin);
    const std::size_t lineEnd = text.lineStart(line) + text.lines()[line].match.size();
    std::size_t i = begin;
    std::size_t k = 0;
    while (i < lineEnd && k < whole.size() && lowerAscii(flat[i]) == lowerAscii(whole[k])) {
        ++i;
        ++k;
    }
    if (k == whole.size() || k < kCutMinLength)
        return false;
    // What is left of the line: nothing, or dots and an ellipsis (U+2026) that mark the cut.
    for (; i < lineEnd; ++i) {
        const char c = flat[i];
        if (c == '.' || c == ' ')
            continue;
        if (flat.compare(i, 3, "\xe2\x80\xa6") == 0) {
            i += 2;
            continue;
        }
        return false;
    }
    return sameExactText(flat.substr(begin, k), whole.substr(0, k));
}

SignatureIndex::Hits SignatureIndex::find(const NormalizedText& text) const
{
    Hits hits;
    hits.inFlat.assign(m_literals.size(), 0);
    hits.lines.resize(m_literals.size());
    hits.cutAt.assign(m_literals.size(), std::string::npos);
    const std::string& flat = text.flat();
    m_set.scan(flat, [&](std::uint32_t lit, std::size_t end) {
        const auto& l = m_literals[lit];
        if (l.onLines)
            return;
        if (l.cutOf != kNoLiteral) {
            const std::size_t begin = end - l.text.size();
            if (hits.cutAt[l.cutOf] == std::string::npos && cutAtLineEnd(text, begin, m_literals[l.cutOf].text))
                hits.cutAt[l.cutOf] = begin;
            return;
        }
        if (!hits.inFlat[lit] && matchesAt(l, flat, end))
            hits.inFlat[lit] = 1;
    });
    const auto& lines = text.lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i].display;
        const bool lowerCaseLine = isRetypedLowerCase(line);
        m_set.scan(line, [&](std::uint32_t lit, std::size_t end) {
            const auto& l = m_literals[lit];
            if (!l.onLines || !matchesAt(l, line, end, lowerCaseLine))
                return;
            auto& on = hits.lines[lit];
            if (on.empty() || on.back() != i)
                on.push_back(static_cast<std::uint32_t>(i));
        });
    }
    return hits;
}

} // namespace stackscope
