// The Training page's words for a run: the progress line while it runs, how it ended, where it came from. Plain
// functions of values, so each sentence is tested without a run.
#pragma once

#include "core/training/training_metadata.h"
#include "core/training/training_run.h"

#include <QString>
#include <QStringList>

namespace stackscope::ui {

// "12 s", "3 min 05 s", "1 h 02 min"; "estimating…" for a negative (not yet known) time.
QString durationText(double seconds);

// "Epoch 2 of 10 · step 40 of 120 · loss 0.0123 · 52,000 samples/s · ETA 1 min 05 s".
QString progressText(const training::TrainingProgress& step, int plannedEpochs);
// How far the run is, 0 to 1, counted from the epoch it started at (a resumed run starts past 1).
double progressFraction(const training::TrainingProgress& step, int firstEpoch, int plannedEpochs);

// The status line once a run ended with a result: finished, stopped early, or stopped by the person (with the
// seconds from Stop to the end, or -1) and whether a checkpoint is there to resume from.
QString endedText(const training::TrainingResult& result, int checkpointEpoch, double secondsAfterStop);
// The line under the progress while a run goes on: its devices and notes so far.
QString liveDetails(const QString& devices, const QStringList& notes);
// The line under the status once a run ended: the devices, the execution and the run's notes.
QString endedDetails(const QString& devices, const training::TrainingResult& result);
// The output folder after a failed run, and whether its model_metadata.json records the failure.
QString failedOutputText(const QString& output, bool recorded);
// Stop pressed while the data were read: nothing was trained; `error` is what the run said, if anything.
QString stoppedBeforeTrainingText(const QString& error);

// The trainer measured one GPU faster than the run's processes (DeviceAdvice::Kind::FewerGpusFaster): the box's rich
// text with both figures, the button's words ("Train on one GPU (gpu:0)") and what the button does.
QString deviceAdviceText(const training::DeviceAdvice& advice);
QString deviceAdviceButtonText(const training::DeviceAdvice& advice);
QString deviceAdviceButtonToolTip(const training::DeviceAdvice& advice);

// A recorded run (a report's): "Training run from <origin>: N epochs, status S, best epoch B. ..." and the line
// saying which options and devices it had, as far as the record says.
QString recordedText(const training::RecordedTrainingRun& run, const QString& origin);
QString recordedDetails(const training::RecordedTrainingRun& run);

} // namespace stackscope::ui
