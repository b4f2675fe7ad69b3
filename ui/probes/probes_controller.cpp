// The Probes page's runs and results: ProbeSession's records into the grid model, the counts and the findings.
#include "ui/probes/probes_controller.h"

#include "core/probes/probe_figures.h"
#include "core/probes/probe_variants.h"
#include "ui/models/findings_model.h"
#include "ui/probes/probe_grid_model.h"
#include "ui/probes/probe_run_plan.h"
#include "ui/probes/probe_session.h"
#include "ui/probes/probes_machine_text.h"
#include "ui/system/snapshot_banner.h"
#include "ui/system/snapshot_controller.h"

#include <QThread>

#include <utility>

namespace stackscope::ui {

namespace {

// The snapshot of this machine, null while the System page shows another (a file, a report, a root): rule
// variants and copy-probe verdicts follow this machine's GPUs.
SnapshotPtr thisMachine(const SnapshotController* snapshots)
{
    return snapshots && snapshots->isThisMachine() ? snapshots->snapshot() : nullptr;
}

QString count(std::size_t n, const QString& one, const QString& many)
{
    return n == 1 ? one : many.arg(n);
}

} // namespace

ProbesController::ProbesController(SnapshotController* snapshots, QObject* parent)
    : QObject(parent)
    , m_snapshots(snapshots)
    , m_session(new ProbeSession(this))
    , m_grid(new ProbeGridModel(this))
    , m_findings(new FindingsModel(this))
{
    m_countsTimer.setSingleShot(true);
    m_countsTimer.setInterval(40);
    connect(&m_countsTimer, &QTimer::timeout, this, [this] { Q_EMIT countsChanged(m_counts); });
    connect(m_session, &ProbeSession::recordArrived, this, &ProbesController::onRecord);
    connect(m_session, &ProbeSession::failed, this, [this](const QString& message) { m_runError = message; });
    connect(m_session, &ProbeSession::finished, this, &ProbesController::onFinished);
    connect(m_session, &ProbeSession::runningChanged, this, &ProbesController::runningChanged);
    // A run's start and end change whose results the grid holds (the line over it said nothing after a run here).
    connect(m_session, &ProbeSession::runningChanged, this, &ProbesController::originChanged);
    if (m_snapshots)
        connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this] {
            Q_EMIT originChanged();
            rediagnose(); // the findings are the shown machine's (or, for results measured elsewhere, the results' own)
        });
}

bool ProbesController::isRunning() const
{
    return m_session->isRunning();
}

void ProbesController::run(std::vector<ProbeRunOptions> runs, bool ruleVariants, const ProbeRunChoice& choice,
                           double timeoutS)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (runs.empty()) {
        Q_EMIT statusChanged(tr("No environment is checked: check libtorch (StackScope) or a Python environment, then run again."));
        return;
    }
    const auto snapshot = thisMachine(m_snapshots);
    const auto variants = gridVariants(ruleVariants, snapshot.get());
    if (ruleVariants && !snapshot)
        Q_EMIT statusChanged(tr("No inspection of this machine yet, so no rule variants: press Refresh on the System page, "
                                "then run again."));
    m_tryingFix.clear();
    m_resultsLive = true;
    m_resultsOrigin.clear();
    m_ranWith = choice;
    std::vector<std::string> order;
    for (auto& r : runs) {
        r.variants = variants;
        order.push_back(environmentLabel(r));
    }
    m_grid->setLayout({});
    m_grid->setEnvironmentOrder(order);
    m_grid->setTimeoutSeconds(timeoutS);
    m_counts = OutcomeCounts {};
    Q_EMIT countsChanged(m_counts);
    rediagnose(); // the machine shown, without results until this run's arrive
    Q_EMIT resultsReplaced();
    const QString where = runs.size() == 1 ? tr("on this machine") : tr("in %1 environments on this machine").arg(runs.size());
    Q_EMIT statusChanged(variants.size() == 1 ? tr("Running %1\u2026").arg(where)
                                              : tr("Running %1 variants %2\u2026").arg(variants.size()).arg(where));
    Q_EMIT originChanged();
    m_session->start(std::move(runs));
}

void ProbesController::cancel()
{
    m_session->cancel();
    Q_EMIT statusChanged(tr("Cancelling\u2026"));
}

void ProbesController::tryFix(const Finding& finding, int fixIndex, double timeoutS)
{
    FixTrial trial = fixTrial(m_grid->records(), finding, fixIndex, timeoutS);
    if (trial.variant.isEmpty())
        return;
    if (trial.failingProbes == 0) {
        Q_EMIT statusChanged(tr("Nothing failed in the baseline, so there is nothing for this fix to repair."));
        return;
    }
    m_tryingFix = trial.variant;
    Q_EMIT statusChanged(trial.failingProbes == 1
                             ? tr("Trying %1 on the failing probe\u2026").arg(m_tryingFix)
                             : tr("Trying %1 on %2 failing probes\u2026").arg(m_tryingFix).arg(trial.failingProbes));
    m_session->start(std::move(trial.runs));
}

void ProbesController::showRecords(const std::vector<ProbeRecord>& records, const QString& status)
{
    m_session->cancel();
    m_tryingFix.clear();
    m_grid->clear(); // only the report's rows: pending cells would say "still running"
    m_resultsLive = false;
    m_resultsOrigin = m_snapshots ? m_snapshots->origin() : QString();
    m_ranWith.reset(); // a report's grid was not run with this form's choices
    m_counts = OutcomeCounts {};
    for (const auto& r : records) {
        m_grid->addRecord(r);
        m_counts.add(r);
    }
    Q_EMIT countsChanged(m_counts);
    Q_EMIT resultsReplaced();
    rediagnose();
    m_grid->setFinished(true);
    Q_EMIT statusChanged(status);
    Q_EMIT originChanged();
}

void ProbesController::onRecord(const ProbeRecord& arrived)
{
    // A copy probe's GB/s gets its expected value and verdict as `probe --json` gives it (core/perf, against this
    // machine's links): the report written from this page carries the same figure.
    ProbeRecord record = arrived;
    const auto snapshot = thisMachine(m_snapshots);
    if (snapshot && probeFigure(record)) {
        std::vector<ProbeRecord> one {record};
        judgeCopyProbes(one, *snapshot);
        record = std::move(one.front());
    }
    m_grid->addRecord(record);
    m_counts.add(record);
    if (!m_countsTimer.isActive())
        m_countsTimer.start();
}

void ProbesController::onFinished(bool cancelled, const std::vector<ProbeDevice>& devices, const QString& listError)
{
    Q_EMIT countsChanged(m_counts);
    m_grid->setFinished(true);
    rediagnose();
    QString text = finishedText(cancelled, devices.size());
    if (!listError.isEmpty())
        text += QLatin1Char(' ') + tr("Only the CPU was probed: %1").arg(listError);
    if (!m_runError.isEmpty())
        text = tr("The probe run failed: %1. The results above are those that arrived before it; run the probes "
                  "again, and if it fails the same way, export a report (Report page) and attach it to a bug report.")
                   .arg(std::exchange(m_runError, QString()));
    Q_EMIT statusChanged(text);
    Q_EMIT runFinished();
}

// "Done on this machine: 12 results on 2 devices, 1 not ok.", or the verdict on the fix tried.
QString ProbesController::finishedText(bool cancelled, std::size_t devices) const
{
    if (cancelled)
        return tr("Cancelled.");
    if (!m_tryingFix.isEmpty()) {
        QString verdict = tr("not verified");
        for (const auto& f : m_findings->findings()) {
            for (const auto& fix : f.fixes) {
                if (QString::fromStdString(variantName(fix.env)) == m_tryingFix && fix.verified)
                    verdict = verifiedText(fix.verified);
            }
        }
        return tr("%1: %2.").arg(m_tryingFix, verdict);
    }
    std::size_t failures = 0;
    for (const auto& r : m_grid->records())
        failures += isFailure(r.outcome.outcome) ? 1 : 0;
    return tr("Done on this machine: %1 on %2, %3 not ok.")
        .arg(count(m_grid->records().size(), tr("1 result"), tr("%1 results")),
             count(devices, tr("1 device"), tr("%1 devices")))
        .arg(failures);
}

bool ProbesController::resultsMatchSnapshot() const
{
    if (!m_snapshots)
        return true;
    return m_resultsLive ? m_snapshots->isThisMachine() : m_snapshots->origin() == m_resultsOrigin;
}

QString ProbesController::machineText() const
{
    if (!m_snapshots)
        return {};
    const auto shown = m_snapshots->snapshot();
    ProbesWhose whose;
    if (shown && !m_snapshots->isThisMachine())
        whose.notThisMachine = notThisMachineText(*shown, m_snapshots->origin());
    whose.hasResults = !m_grid->records().empty() || m_session->isRunning();
    whose.resultsLive = m_resultsLive;
    whose.resultsMatch = resultsMatchSnapshot();
    whose.resultsOrigin = m_resultsOrigin;
    return probesMachineText(whose);
}

QString ProbesController::findingsHeading() const
{
    if (!m_snapshots || !m_snapshots->snapshot())
        return tr("Findings");
    return probesFindingsHeading(m_snapshots->originText(), m_snapshots->isThisMachine());
}

bool ProbesController::canTryFixes() const
{
    return m_resultsLive && (!m_snapshots || m_snapshots->isThisMachine());
}

void ProbesController::rediagnose()
{
    // The one diagnosis the System page shows (its snapshot and the session's logs), with these results while they
    // were measured on the machine it shows. Results from another machine stay out of it: the findings are the
    // shown machine's, as the status bar's counts are (a run here on a recorded root emptied them).
    const bool sameMachine = m_grid->records().empty() || resultsMatchSnapshot();
    const auto snapshot = m_snapshots ? m_snapshots->snapshot() : nullptr;
    MachineDiagnosisInput input;
    input.snapshot = snapshot.get();
    if (snapshot)
        input.logs = m_sessionLogs;
    if (sameMachine || !snapshot)
        input.probes = probeOutcomes(m_grid->records());
    m_findings->setFindings(diagnoseMachine(input).findings, FindingsModel::Order::AsGiven);
    Q_EMIT findingsChanged();
}

void ProbesController::setSessionLogs(std::vector<ReadLogText> logs)
{
    m_sessionLogs = std::move(logs);
    rediagnose();
}

std::vector<ProbeOutcome> ProbesController::outcomesForShownMachine() const
{
    return m_snapshots && resultsMatchSnapshot() ? probeOutcomes(m_grid->records()) : std::vector<ProbeOutcome> {};
}

} // namespace stackscope::ui
