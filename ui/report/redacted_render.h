// A widget drawn as grab() would draw it, with every private text drawn redacted by a stand-in: the widget is not touched.
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace stackscope::ui {

struct RedactedImage {
    QImage image;
    // Every text the image shows (labels, fields, buttons, group box titles, item views' cells): tests
    // check these instead of reading pixels.
    QStringList drawnTexts;
};

// Draws `root` and its visible children one by one (parents first, in stacking order). A label, line
// edit, text edit, button or group box whose text `redact` changes is drawn by an off-screen stand-in of
// the same kind, look and size that shows the redacted text; the live widget is never written to, so no
// textChanged fires and nothing on screen flickers. Item views are drawn as they are: pages that show
// private data through a model are fed redacted data instead.
RedactedImage renderRedacted(QWidget* root, const std::function<QString(const QString&)>& redact);

} // namespace stackscope::ui
