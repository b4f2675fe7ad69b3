// The command a fix offers to copy: the rules files mark it as the first `backticked` span of the fix.
#pragma once

#include <QString>

namespace stackscope::ui {

// The first `...` span of the fix text, trimmed; empty when the fix has none.
QString fixCommand(const QString& fix);
// The fix as HTML: escaped, with every `...` span as <code>.
QString fixHtml(const QString& fix);
// The fix as fixHtml, with its command words kept on one line by word joiners (U+2060): every word of a `...` span
// and, in the prose, options (-x, --name=value), paths (/dev/kfd, ~/x) and NAME=value words. A text view broke
// "--device=/dev/kfd" after "--" and a path after a slash. Only for a view that copies without the joiners
// (CommandTextBrowser); a word longer than kWholeWordMax characters may still break where it must.
QString fixHtmlWholeWords(const QString& fix);
inline constexpr int kWholeWordMax = 48;
// The fix as plain text without the backticks (for one-line labels and tool tips).
QString fixPlain(const QString& fix);

} // namespace stackscope::ui
