// The few colours that carry meaning across pages (ok / missing / failed / unknown; error / warning / info).
#pragma once

#include "core/snapshot/probe_outcome.h"
#include "core/snapshot/snapshot.h"
#include "core/snapshot/stack_rows.h"

#include <QColor>

namespace stackscope::ui {

inline QColor okColor() { return QColor(0x2e, 0x7d, 0x32); }
inline QColor warningColor() { return QColor(0xb2, 0x6a, 0x00); }
inline QColor errorColor() { return QColor(0xc6, 0x28, 0x28); }
inline QColor mutedColor() { return QColor(0x75, 0x75, 0x75); }
// Could not be checked: neither ok nor a problem.
inline QColor unknownColor() { return QColor(0x5e, 0x35, 0xb1); }

inline QColor statusColor(StackStatus s)
{
    switch (s) {
    case StackStatus::Ok: return okColor();
    case StackStatus::Missing: return warningColor();
    case StackStatus::Failed: return errorColor();
    case StackStatus::NotApplicable: return mutedColor();
    case StackStatus::Unknown: return unknownColor();
    }
    return mutedColor();
}

inline QColor outcomeColor(ProbeResult r)
{
    switch (r) {
    case ProbeResult::Ok: return okColor();
    case ProbeResult::Error: return errorColor();
    case ProbeResult::Crash: return QColor(0x6a, 0x1b, 0x9a);
    case ProbeResult::Hang: return warningColor();
    case ProbeResult::Wrong: return QColor(0xad, 0x14, 0x57);
    case ProbeResult::Unsupported: return mutedColor();
    }
    return mutedColor();
}

inline QColor severityColor(Severity s)
{
    switch (s) {
    case Severity::Error: return errorColor();
    case Severity::Warning: return warningColor();
    case Severity::Info: return QColor(0x15, 0x65, 0xc0);
    }
    return mutedColor();
}

} // namespace stackscope::ui
