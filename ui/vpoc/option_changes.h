// Which VPOC options a shown result was computed with, and which of them the form has changed since (stale results).
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <QString>
#include <QStringList>

namespace stackscope::ui {

// "value area 70 %, tick 0.25, session globex", then the other options that change the numbers where they are not
// core's defaults ("distribution close", "VA method single", ...).
QString vpocOptionsSummary(const vpoc::VpocOptions& options);

// The options that change the results (not the input file, the backend or the VRAM budget: the same numbers come
// out) and differ between `ran` and `now`, with their new value: {"value area 80 %", "session rth"}. Empty: the
// results are still those of the form's options.
QStringList vpocOptionChanges(const vpoc::VpocOptions& ran, const vpoc::VpocOptions& now);

} // namespace stackscope::ui
