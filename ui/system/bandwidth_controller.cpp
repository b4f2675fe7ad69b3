#include "ui/system/bandwidth_controller.h"

#include "core/perf/perf_json.h"
#include "core/perf/verdict.h"
#include "core/util/file_read.h"
#include "ui/system/links_measurement.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>
#include <QThread>
#include <QTimer>

namespace stackscope::ui {

namespace {

constexpr std::uint64_t kMaxRunFileBytes = 16u << 20; // a run is about 40 KiB

// What the status line calls a run: a file by its name (the header's tooltip has the path).
QString shortOrigin(const QString& origin)
{
    return origin.contains(QLatin1Char('/')) ? QFileInfo(origin).fileName() : origin;
}

QString idleText()
{
    return QObject::tr("Links not measured. Measure links runs the bandwidth suite here (a few minutes; Stop ends "
                       "it); File > Open bandwidth run… shows a recorded one.");
}

} // namespace

BandwidthController::BandwidthController(SnapshotController* snapshots, QObject* parent)
    : QObject(parent)
    , m_snapshots(snapshots)
    , m_status(idleText())
    , m_tick(new QTimer(this))
{
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, [this] {
        setStatus(tr("Measuring links on this machine… %1 s so far (the whole suite takes a few minutes; Stop ends it)")
                      .arg(m_clock.elapsed() / 1000));
    });
    // A run opened before its snapshot (or shown beside another one) is judged again against the snapshot now shown.
    connect(m_snapshots, &SnapshotController::snapshotChanged, this, [this] {
        if (m_recorded)
            judgeAndShow();
    });
}

QString BandwidthController::whyNotMeasurable() const
{
    const auto snapshot = m_snapshots->snapshot();
    if (!snapshot)
        return tr("This machine is still being inspected: wait for the System page to fill, then Measure links.");
    if (!m_snapshots->isThisMachine())
        return tr("The System page shows %1, not this machine: figures measured here would be judged against the wrong "
                  "links. View > Refresh inspects this machine; then Measure links.")
            .arg(m_snapshots->originText());
    if (snapshot->gpus.empty())
        return tr("No GPU is visible on this machine, so there are no links to measure here (the findings below say "
                  "where StackScope looked). Open a recorded run with File > Open bandwidth run…, or run "
                  "`stackscope-cli bench bandwidth --json > bw.json` on the GPU machine and open that.");
    return {};
}

void BandwidthController::measure()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_jobs.isRunning())
        return;
    if (const QString why = whyNotMeasurable(); !why.isEmpty()) {
        setStatus(why);
        return;
    }
    m_clock.start();
    m_tick->start();
    setStatus(tr("Measuring links on this machine… (the whole suite takes a few minutes; Stop ends it)"));
    Q_EMIT measuringChanged(true);
    const std::string program = m_program.toStdString();
    m_jobs.run([program](const JobControl& control) { return measureLinks(control.cancelToken(), program); },
               [this](LinksMeasurement m) {
                   m_tick->stop();
                   Q_EMIT measuringChanged(false);
                   if (m.stopped || !m.run) {
                       setStatus(tr("Stopped after %1 s: nothing was kept%2.")
                                     .arg(m_clock.elapsed() / 1000)
                                     .arg(m_shown ? tr(" (the run shown before stays)") : QString()));
                       return;
                   }
                   setRun(std::move(*m.run), tr("measured on this machine"));
                   setStatus(tr("Measured in %1 s: %2.")
                                 .arg(qRound(m.seconds))
                                 .arg(QString::fromStdString(perf::verdictSummary(m_shown->judged.run.figures))));
               },
               [this](const QString& message) {
                   m_tick->stop();
                   Q_EMIT measuringChanged(false);
                   setStatus(tr("Links not measured: %1").arg(message));
                   Q_EMIT errorOccurred(tr("Links not measured: %1").arg(message));
               });
}

void BandwidthController::stop()
{
    // The job sees the flag within 100 ms, kills the suite's process group and reports that it stopped.
    if (m_jobs.isRunning())
        m_jobs.requestStop();
}

bool BandwidthController::openFile(const QString& path)
{
    std::string why;
    const auto text = readRegularFile(path.toStdString(), kMaxRunFileBytes, &why);
    const QString give = tr("give the output of `stackscope-cli bench bandwidth --json`");
    if (!text) {
        Q_EMIT errorOccurred(tr("%1: cannot be read (%2); %3").arg(path, QString::fromStdString(why), give));
        return false;
    }
    const auto doc = nlohmann::json::parse(*text, nullptr, false);
    try {
        if (doc.is_discarded())
            throw perf::PerfJsonError("not JSON");
        setRun(perf::suiteRunFromJson(doc), path);
    } catch (const perf::PerfJsonError& e) {
        Q_EMIT errorOccurred(tr("%1: not a bandwidth run (%2); %3").arg(path, QString::fromStdString(e.what()), give));
        return false;
    }
    return true;
}

void BandwidthController::setRun(perf::SuiteRun run, const QString& origin)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_recorded = std::move(run);
    m_origin = origin;
    judgeAndShow();
}

void BandwidthController::clear(const QString& why)
{
    m_recorded.reset();
    m_shown.reset();
    m_origin.clear();
    Q_EMIT runChanged(nullptr);
    setStatus(why.isEmpty() ? idleText() : why);
}

void BandwidthController::judgeAndShow()
{
    const auto snapshot = m_snapshots->snapshot();
    const QString label = m_snapshots->isThisMachine() ? tr("this machine") : tr("the snapshot shown");
    auto shown = std::make_shared<ShownRun>();
    shown->judged = perf::judgeRecordedRun(*m_recorded, snapshot.get(), label.toStdString());
    shown->origin = m_origin;
    shown->machine = machineText(shown->judged, snapshot.get());
    m_shown = std::move(shown);
    Q_EMIT runChanged(m_shown);
    // Judged again (a new snapshot): the status line keeps to the verdicts shown.
    if (!m_jobs.isRunning())
        setStatus(tr("Showing the run %1 (its verdicts below).")
                      .arg(m_origin.startsWith(tr("measured")) ? m_origin : tr("from %1").arg(shortOrigin(m_origin))));
}

QString machineText(const perf::JudgedRun& judged, const Snapshot* snapshot)
{
    const auto& run = judged.run;
    QStringList machine;
    if (!run.host.empty())
        machine << QString::fromStdString(run.host);
    if (!run.gpuNames.empty())
        machine << gpuNamesText(run.gpuNames);
    if (machine.isEmpty() && judged.rejudged && snapshot) {
        std::vector<std::string> names;
        for (const auto& g : snapshot->gpus)
            names.push_back(g.name);
        machine << QString::fromStdString(snapshot->host.hostname.value_or("")) << gpuNamesText(names) + QObject::tr(" (from the snapshot)");
        machine.removeAll(QString());
    }
    return machine.join(QStringLiteral(", "));
}

QString gpuNamesText(const std::vector<std::string>& names)
{
    QStringList parts;
    for (std::size_t i = 0; i < names.size();) {
        std::size_t n = 1;
        while (i + n < names.size() && names[i + n] == names[i])
            ++n;
        parts << (n > 1 ? QStringLiteral("%1 \u00d7 %2").arg(n).arg(QString::fromStdString(names[i])) : QString::fromStdString(names[i]));
        i += n;
    }
    return parts.join(QStringLiteral(", "));
}

void BandwidthController::setStatus(const QString& text)
{
    m_status = text;
    Q_EMIT statusChanged(text);
}

} // namespace stackscope::ui
