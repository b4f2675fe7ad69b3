// The Training page's sentences about a run, from its values.
#include "ui/training/training_status_text.h"

#include "ui/training/training_option_changes.h"

#include <QLocale>
#include <QObject>

#include <algorithm>

namespace stackscope::ui {

QString durationText(double seconds)
{
    if (seconds < 0)
        return QObject::tr("estimating…");
    const auto s = static_cast<qint64>(seconds + 0.5);
    if (s < 60)
        return QObject::tr("%1 s").arg(s);
    if (s < 3600)
        return QObject::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QObject::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString progressText(const training::TrainingProgress& p, int plannedEpochs)
{
    return QObject::tr("Epoch %1 of %2 · step %3 of %4 · loss %5 · %6 samples/s · ETA %7")
        .arg(p.epoch)
        .arg(plannedEpochs)
        .arg(p.step)
        .arg(p.stepsPerEpoch)
        .arg(p.loss, 0, 'g', 4)
        .arg(QLocale().toString(p.samplesPerS, 'f', 0))
        .arg(durationText(p.etaS));
}

double progressFraction(const training::TrainingProgress& p, int firstEpoch, int plannedEpochs)
{
    const double epochsInRun = std::max(1, plannedEpochs - firstEpoch + 1);
    const double done = (p.epoch - firstEpoch) + (p.stepsPerEpoch > 0 ? double(p.step) / double(p.stepsPerEpoch) : 0.0);
    return std::clamp(done / epochsInRun, 0.0, 1.0);
}

QString endedText(const training::TrainingResult& r, int checkpointEpoch, double secondsAfterStop)
{
    const QString best = r.bestEpoch > 0 ? QObject::tr("best epoch %1 (validation loss %2, saved as model.pt)")
                                               .arg(r.bestEpoch)
                                               .arg(r.bestValLoss, 0, 'g', 5)
                                         : QObject::tr("no epoch finished");
    if (r.status == training::TrainingStatus::Stopped) {
        const QString when = secondsAfterStop >= 0 ? QObject::tr(" %1 s after Stop").arg(secondsAfterStop, 0, 'f', 2)
                                                   : QString();
        return checkpointEpoch > 0 ? QObject::tr("Stopped%1, last checkpoint: epoch %2; %3. Resume continues from it.")
                                         .arg(when)
                                         .arg(checkpointEpoch)
                                         .arg(best)
                                   : QObject::tr("Stopped%1 before the first epoch finished: no checkpoint was "
                                                 "written. Press Start to run again.")
                                         .arg(when);
    }
    if (r.status == training::TrainingStatus::EarlyStopped)
        return QObject::tr("Stopped early after epoch %1: the validation loss did not improve for the patience's "
                           "epochs; %2.")
            .arg(checkpointEpoch)
            .arg(best);
    return QObject::tr("Finished %1 epochs; %2; %3 steps/s.").arg(checkpointEpoch).arg(best).arg(r.stepsPerS, 0, 'f', 0);
}

QString liveDetails(const QString& devices, const QStringList& notes)
{
    QStringList details;
    if (!devices.isEmpty())
        details << QObject::tr("Training on %1").arg(devices);
    details << notes;
    return details.join(QStringLiteral(" · "));
}

QString failedOutputText(const QString& output, bool recorded)
{
    return recorded ? QObject::tr("Output folder: %1 (its model_metadata.json records the failure)").arg(output)
                    : QObject::tr("Output folder: %1 (no record of this run there)").arg(output);
}

QString endedDetails(const QString& devices, const training::TrainingResult& r)
{
    QStringList details;
    details << QObject::tr("Trained on %1").arg(devices.isEmpty() ? QObject::tr("devices not reported") : devices);
    if (!r.execution.empty())
        details << QObject::tr("execution: %1").arg(QString::fromStdString(r.execution));
    // The advice to train on one GPU has its own box on the page; its sentence is not repeated here.
    const bool adviceBoxed = r.deviceAdvice && r.deviceAdvice->kind == training::DeviceAdvice::Kind::FewerGpusFaster;
    for (const auto& n : r.notes)
        if (!adviceBoxed || n != r.deviceAdvice->message)
            details << QString::fromStdString(n);
    return details.join(QStringLiteral(" · "));
}

QString deviceAdviceText(const training::DeviceAdvice& a)
{
    const QLocale locale;
    return QObject::tr("<b>One GPU is %1x faster for this model.</b> %2 processes ran %3 steps/s; one GPU (GPU %4, "
                       "with the fused step kernel) ran %5 steps/s, measured in the same run. The model is too small "
                       "to gain from several GPUs.")
        .arg(locale.toString(a.oneGpuStepsPerS / a.ranksStepsPerS, 'f', 1))
        .arg(a.processes)
        .arg(locale.toString(a.ranksStepsPerS, 'f', 0))
        .arg(a.gpu)
        .arg(locale.toString(a.oneGpuStepsPerS, 'f', 0));
}

QString deviceAdviceButtonText(const training::DeviceAdvice& a)
{
    return QObject::tr("Train on one GPU (%1)").arg(QString::fromStdString(a.suggestedDevice));
}

QString deviceAdviceButtonToolTip(const training::DeviceAdvice& a)
{
    return QObject::tr("Sets Device to %1 with one process (--device %1); press Start to train with it")
        .arg(QString::fromStdString(a.suggestedDevice));
}

QString stoppedBeforeTrainingText(const QString& error)
{
    QString text = QObject::tr("Stopped before training started (while the data was read); no checkpoint was "
                               "written. Press Start to run again.");
    if (!error.isEmpty())
        text += QObject::tr(" The run said: %1").arg(error);
    return text;
}

QString recordedText(const training::RecordedTrainingRun& run, const QString& origin)
{
    return QObject::tr("Training run from %1: %2 epochs, status %3, best epoch %4. Press Start to train here.")
        .arg(origin)
        .arg(run.epochs.size())
        .arg(QString::fromStdString(run.status))
        .arg(run.bestEpoch > 0 ? QString::number(run.bestEpoch) : QObject::tr("unknown"));
}

QString recordedDetails(const training::RecordedTrainingRun& run)
{
    if (!run.config)
        return QObject::tr("The report does not say which options the run had.");
    QStringList devices;
    for (const auto& d : run.devices)
        devices << QString::fromStdString(d);
    return QObject::tr("Computed with %1%2")
        .arg(trainingOptionsSummary(*run.config),
             devices.isEmpty() ? QString() : QObject::tr(" on %1").arg(devices.join(QStringLiteral(", "))));
}

} // namespace stackscope::ui
