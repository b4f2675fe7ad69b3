// Text normalisation for the diagnosis rules (see text_normalizer.h for why there are two forms).
#include "core/diagnosis/text_normalizer.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace stackscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// A colour code whose ESC was lost: "[", digits and semicolons, "m" ("[0m", "[1;31m"). At least one
// digit, so that text such as "[mask]" survives.
std::size_t orphanSgrLength(std::string_view s, std::size_t i)
{
    if (s[i] != '[' || i + 1 >= s.size() || !isDigit(s[i + 1]))
        return 0;
    std::size_t j = i + 1;
    while (j < s.size() && (isDigit(s[j]) || s[j] == ';') && j - i < 16)
        ++j;
    if (j < s.size() && s[j] == 'm')
        return j + 1 - i;
    return 0;
}

} // namespace

std::string stripAnsi(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '\x1b') {
            if (i + 1 >= s.size()) {
                ++i;
                continue;
            }
            const char kind = s[i + 1];
            if (kind == '[') { // CSI: parameters and intermediates, then one final byte 0x40-0x7E
                std::size_t j = i + 2;
                while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7e))
                    ++j;
                i = std::min(j + 1, s.size());
            } else if (kind == ']') { // OSC: up to BEL or ESC backslash
                std::size_t j = i + 2;
                while (j < s.size() && s[j] != '\x07' && !(s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\'))
                    ++j;
                i = j >= s.size() ? s.size() : (s[j] == '\x07' ? j + 1 : j + 2);
            } else {
                i += 2;
            }
            continue;
        }
        if (const auto n = orphanSgrLength(s, i)) {
            i += n;
            continue;
        }
        out.push_back(c);
        ++i;
    }
    return out;
}

std::string collapseWhitespace(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    bool pendingSpace = false;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\n' || c == '\r') {
            pendingSpace = !out.empty();
            continue;
        }
        if (pendingSpace)
            out.push_back(' ');
        pendingSpace = false;
        out.push_back(c);
    }
    return out;
}

std::string maskSourceLineNumbers(std::string_view s)
{
    static const std::array<std::string_view, 11> extensions {".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".cu",
                                                               ".cuh", ".hip", ".py", ".inl"};
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        out.push_back(s[i]);
        if (s[i] != ':' || i + 1 >= s.size() || !isDigit(s[i + 1]))
            continue;
        const std::string_view before = s.substr(0, i);
        const bool isSource = std::any_of(extensions.begin(), extensions.end(), [&](std::string_view ext) {
            if (before.size() <= ext.size() || before.substr(before.size() - ext.size()) != ext)
                return false;
            const char stem = before[before.size() - ext.size() - 1]; // "Context" in "Context.cpp"
            return std::isalnum(static_cast<unsigned char>(stem)) || stem == '_' || stem == '-';
        });
        if (!isSource)
            continue;
        out.push_back('N');
        while (i + 1 < s.size() && isDigit(s[i + 1]))
            ++i;
    }
    return out;
}

std::string straightenQuotes(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80) {
            const auto third = static_cast<unsigned char>(text[i + 2]);
            if (third >= 0x98 && third <= 0x9B) { // single quotes
                out.push_back('\'');
                i += 2;
                continue;
            }
            if (third >= 0x9C && third <= 0x9E) { // double quotes
                out.push_back('"');
                i += 2;
                continue;
            }
            if (third == 0xB2 || third == 0xB3) { // primes, as some fonts render quotes
                out.push_back(third == 0xB2 ? '\'' : '"');
                i += 2;
                continue;
            }
        }
        out.push_back(text[i]);
    }
    return out;
}

namespace {

bool isQuote(char c)
{
    return c == '\'' || c == '"' || c == '`';
}

} // namespace

std::string quotesAsSpaces(std::string_view text)
{
    std::string out(text);
    std::replace_if(out.begin(), out.end(), isQuote, ' ');
    return out;
}

std::string quoteTolerantPattern(std::string_view pattern)
{
    static constexpr std::string_view kAnyQuote = "['\"`]";
    std::string out;
    out.reserve(pattern.size() + 16);
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char c = pattern[i];
        const bool escaped = c == '\\' && i + 1 < pattern.size();
        if (escaped && !isQuote(pattern[i + 1])) {
            out.append(pattern.substr(i, 2));
            ++i;
            continue;
        }
        if (escaped)
            c = pattern[++i];
        if (inClass) {
            inClass = c != ']';
            out.push_back(c);
            continue;
        }
        if (c == '[') { // ECMAScript: a class ends at its first unescaped ']' ("[]" is the empty class)
            inClass = true;
            out.push_back(c);
            continue;
        }
        if (!isQuote(c)) {
            out.push_back(c);
            continue;
        }
        out += kAnyQuote;
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (next != '?' && next != '*' && next != '+' && next != '{')
            out.push_back('?');
    }
    return out;
}

std::string quoteFreeAnchor(std::string_view anchor)
{
    if (std::none_of(anchor.begin(), anchor.end(), isQuote))
        return std::string(anchor);
    std::string_view best;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= anchor.size(); ++i) {
        if (i == anchor.size() || isQuote(anchor[i])) {
            std::string_view piece = anchor.substr(start, i - start);
            while (!piece.empty() && piece.front() == ' ')
                piece.remove_prefix(1);
            while (!piece.empty() && piece.back() == ' ')
                piece.remove_suffix(1);
            if (piece.size() > best.size())
                best = piece;
            start = i + 1;
        }
    }
    return std::string(best);
}

std::string normalizeSignatureText(std::string_view text)
{
    const std::string straight = collapseWhitespace(straightenQuotes(stripAnsi(text)));
    std::string out = maskSourceLineNumbers(collapseWhitespace(quotesAsSpaces(straight)));
    // A quote that closes (or opens) the text is a word end: "named 'torch'" must not match "named 'torch_npu'".
    if (!out.empty() && isQuote(straight.front()))
        out.insert(out.begin(), ' ');
    if (!out.empty() && isQuote(straight.back()))
        out.push_back(' ');
    return out;
}

NormalizedText::NormalizedText(std::string_view raw)
{
    int number = 1;
    std::size_t start = 0;
    auto emit = [&](std::size_t end) {
        std::string display = collapseWhitespace(straightenQuotes(stripAnsi(raw.substr(start, end - start))));
        if (display.empty())
            return;
        std::string match = maskSourceLineNumbers(collapseWhitespace(quotesAsSpaces(display)));
        m_flat.push_back(' '); // before every line, and one after the last: a text's own ends read as word ends
        m_starts.push_back(m_flat.size());
        m_flat += match;
        m_lines.push_back({number, std::move(display), std::move(match)});
    };
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\n') {
            emit(i);
            start = i + 1;
            ++number;
        } else if (raw[i] == '\r') {
            emit(i);
            if (i + 1 < raw.size() && raw[i + 1] == '\n') { // CRLF is one line end
                ++i;
                ++number;
            }
            start = i + 1;
        }
    }
    emit(raw.size());
    if (!m_flat.empty())
        m_flat.push_back(' ');
}

std::size_t NormalizedText::lineIndexAt(std::size_t offset) const
{
    const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
    return it == m_starts.begin() ? 0 : static_cast<std::size_t>(it - m_starts.begin()) - 1;
}

} // namespace stackscope
