// Help > Documentation: the README (and docs/) of an installed StackScope or of the source tree it was built from.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace stackscope::ui {

// Where the README may be, in order: $STACKSCOPE_DOC_DIR, <prefix>/share/doc/stackscope beside the program, the source
// tree of this build.
QStringList documentationCandidates();
// The first candidate that exists; empty when none does.
QString documentationFile();
// Opens it with the desktop's viewer; where there is none (or it cannot be opened), a box says where it looked and that
// `man stackscope` and `stackscope --help` answer too.
void openDocumentation(QWidget* parent);

} // namespace stackscope::ui
