// Which training options a shown run was computed with, and which of them the form has changed since (stale results).
#pragma once

#include "core/training/training_config.h"

#include <QString>
#include <QStringList>

namespace stackscope::ui {

// "data sample-es-1min-bars.csv, epochs 10, batch 256, learning rate 0.001, hidden 32,16, dropout 0, seed 42", then
// the others that change the numbers where they are not the defaults ("patience 3", "device cpu", "precision bf16").
QString trainingOptionsSummary(const training::TrainingConfig& config);

// The options that change the results (not the output folder, the progress interval, the collectives or resume: the
// same epochs come out) and differ between `ran` and `now`, with their new value. Empty: the shown run is the form's.
QStringList trainingOptionChanges(const training::TrainingConfig& ran, const training::TrainingConfig& now);

} // namespace stackscope::ui
