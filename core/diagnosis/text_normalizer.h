// Log text as the rules see it: ANSI colours gone, CR/CRLF line ends, whitespace collapsed, source line numbers masked.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stackscope {

struct NormalizedLine {
    int number = 0;      // 1-based line number in the original text (a lone CR does not start a new number)
    std::string display; // colours stripped, whitespace collapsed: what evidence shows
    std::string match;   // display with "file.cpp:123" masked to "file.cpp:N": what exact texts match
};

// Why two forms: exact signature texts must survive different line numbers (Context.cpp:296 in one
// build, Context.cpp:301 in the next), while evidence must show the person the real text.
class NormalizedText {
public:
    explicit NormalizedText(std::string_view raw);

    // Non-empty lines only, in order.
    const std::vector<NormalizedLine>& lines() const { return m_lines; }
    // The lines' match forms joined by single spaces, so an exact text that a terminal or a logger
    // wrapped onto two lines still matches.
    const std::string& flat() const { return m_flat; }
    // Index into lines() of the line holding flat()[offset].
    std::size_t lineIndexAt(std::size_t offset) const;

private:
    std::vector<NormalizedLine> m_lines;
    std::string m_flat;
    std::vector<std::size_t> m_starts; // offset of each line in m_flat
};

// Removes ANSI escape sequences (CSI such as colours, OSC such as hyperlinks, two-byte escapes) and
// the "[31m"-style leftovers of colour codes whose ESC byte was lost when the log was pasted.
std::string stripAnsi(std::string_view text);
// Tabs and runs of spaces become one space; leading and trailing spaces go.
std::string collapseWhitespace(std::string_view text);
// "Context.cpp:296" -> "Context.cpp:N" for C, C++, CUDA, HIP and Python source names.
std::string maskSourceLineNumbers(std::string_view text);
// Typographic quotes that web pages and word processors put in pasted text (U+2018/2019/201A/201B, U+201C/201D/
// 201E, U+2032/2033) become ASCII ' and ": a pasted "couldn<U+2018>t" must match the library's "couldn't".
std::string straightenQuotes(std::string_view text);
// A signature's exact text, normalised the way a line's match form is (newlines count as spaces).
std::string normalizeSignatureText(std::string_view text);

} // namespace stackscope
