// The command a fix offers to copy: the rules files mark it as the first `backticked` span of the fix.
#pragma once

#include <QString>

namespace stackscope::ui {

// The first `...` span of the fix text, trimmed; empty when the fix has none.
QString fixCommand(const QString& fix);
// The fix as HTML: escaped, with every `...` span as <code>.
QString fixHtml(const QString& fix);
// The fix as plain text without the backticks (for one-line labels and tool tips).
QString fixPlain(const QString& fix);

} // namespace stackscope::ui
