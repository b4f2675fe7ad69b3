// The System page's "Not this machine" line: what is shown and when it was captured, or, for a recorded root, when
// its files were recorded if the root says so, else that this is unknown (walkthrough 2026-11-27 problem 17: the
// line gave the time the files were read, now, as the capture time).
#pragma once

#include "core/snapshot/snapshot.h"

#include <QString>

namespace stackscope::ui {

// The file packaging/record-root.sh writes under a recorded root: one line, the UTC time it recorded the files.
inline constexpr const char* kRootRecordedAtFile = "/.stackscope/recorded-at";

// The recorded time a root states (its first line, trimmed), empty when the root does not say.
QString rootRecordedAt(const QString& root);

// The banner's rich text for a snapshot that is not this machine's inspection (a root, a file, a report).
QString notThisMachineText(const Snapshot& snapshot, const QString& origin);

} // namespace stackscope::ui
