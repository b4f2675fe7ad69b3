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
    std::string match;   // display with quotes read as spaces and "file.cpp:123" masked to "file.cpp:N": what exact
                         // texts match
};

// Why two forms: exact signature texts must survive different line numbers (Context.cpp:296 in one
// build, Context.cpp:301 in the next), while evidence must show the person the real text.
class NormalizedText {
public:
    explicit NormalizedText(std::string_view raw);

    // Non-empty lines only, in order.
    const std::vector<NormalizedLine>& lines() const { return m_lines; }
    // The lines' match forms joined by single spaces, with one space before the first and after the last (so an
    // exact text that a terminal or a logger wrapped onto two lines still matches, and a text's ends are word ends).
    const std::string& flat() const { return m_flat; }
    // Index into lines() of the line holding flat()[offset].
    std::size_t lineIndexAt(std::size_t offset) const;
    // Offset in flat() of lines()[index]'s match form.
    std::size_t lineStart(std::size_t index) const { return m_starts[index]; }

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
// Quotes and backticks (after straightenQuotes) become spaces. Why: Markdown eats backticks in pairs and people
// retype messages without the quotes ("version GLIBCXX_3.4.29 not found" for "version `GLIBCXX_3.4.29' not
// found"), and no two library messages differ only in their quotes.
std::string quotesAsSpaces(std::string_view text);
// A signature pattern that reads every quote it names as any quote or none ("version `GLIBC_2' not found" also
// matches "version GLIBC_2 not found" and "version 'GLIBC_2' not found"); character classes are left as written.
std::string quoteTolerantPattern(std::string_view pattern);
// The longest piece of a pattern's anchor without quotes, trimmed (an anchor without quotes as it is): what a line
// retyped without quotes still holds.
std::string quoteFreeAnchor(std::string_view anchor);
// A signature's exact text, normalised the way a line's match form is (newlines count as spaces, quotes as
// spaces); a quote that opens or closes it leaves a space there, so it ends where a word ends.
std::string normalizeSignatureText(std::string_view text);

} // namespace stackscope
