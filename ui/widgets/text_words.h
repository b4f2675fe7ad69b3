// A text's words (runs without spaces) replaced one by one, the spaces between them kept as they are.
#pragma once

#include <QString>

#include <functional>

namespace stackscope::ui {

QString mapWords(const QString& text, const std::function<QString(const QString&)>& word);

} // namespace stackscope::ui
