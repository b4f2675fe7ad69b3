// Core messages as a GUI user reads them: CLI flags become the controls that set the same thing, and a
// long message becomes one line with the rest behind "Details".
#pragma once

#include <QString>

namespace stackscope::ui {

struct GuiMessage {
    QString line;    // one line: what happened and what to do
    QString details; // the whole text when the line had to leave something out; empty otherwise
};

// "--backend cpu" -> "Backend: cpu", "--format" -> "the Format option", "--timeout" -> "the Timeout box", ...
QString guiWording(const QString& message);
// guiWording, then the first line, cut at a sentence end near kMaxLine characters.
GuiMessage guiMessage(const QString& message);

inline constexpr int kMaxLine = 160;

} // namespace stackscope::ui
