// Which VPOC options a shown result was computed with, which of them the form has changed since, and what the page
// then says about the results (stale results).
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

// The shown result beside the form: what the line under the charts says, whether a banner marks the results out of
// date, and whether they can be exported.
struct ResultsMark {
    bool stale = false;
    bool exportsEnabled = false;
    QString resultsFor; // the line under the charts (plain text)
    bool resultsForWarns = false; // shown in the warning colour
    QString banner; // rich text above the results, shown while stale
};

// `result` (null: none shown) came from `resultInput`, or from a report when `recordedOrigin` is set; the form holds
// `formInput` and, `changes` being vpocOptionChanges(result's, form's), options that differ.
ResultsMark resultsMark(const vpoc::VpocResult* result, const QString& resultInput, const QString& recordedOrigin,
    const QString& formInput, const QStringList& changes);

} // namespace stackscope::ui
