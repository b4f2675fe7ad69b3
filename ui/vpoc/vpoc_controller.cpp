// VpocController: the VPOC job on the task runner, its progress and ETA, and the result it leaves.
#include "ui/vpoc/vpoc_controller.h"

#include "core/vpoc/vpoc_options.h"

namespace stackscope::ui {

struct VpocController::Outcome {
    std::shared_ptr<const vpoc::VpocResult> result;
    QString error;
    bool cancelled = false;
};

namespace {

QString sessionCount(size_t n)
{
    return n == 1 ? VpocController::tr("1 session") : VpocController::tr("%1 sessions").arg(n);
}

} // namespace

VpocController::VpocController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

QString VpocController::resultInput() const
{
    return m_result ? QString::fromStdString(m_result->options.input) : QString();
}

void VpocController::run(const vpoc::VpocOptions& options)
{
    m_clock.start();
    m_eta.reset();
    m_jobs.run(
        [this, options](const JobControl& control) {
            Outcome out;
            try {
                // Progress arrives at most every 100 ms from the core; posted to the GUI thread.
                out.result = vpoc::runVpoc(
                    options,
                    [this, control](const vpoc::VpocProgress& p) { control.post([this, p] { reportProgress(p); }); },
                    control.cancelToken());
            } catch (const vpoc::VpocCancelled&) {
                out.cancelled = true;
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](Outcome out) { onEnded(std::move(out)); },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            Outcome out;
            out.error = error;
            onEnded(std::move(out));
        });
}

bool VpocController::cancel()
{
    if (!m_jobs.isRunning())
        return false;
    m_jobs.cancel();
    Q_EMIT cancelled();
    return true;
}

void VpocController::reportProgress(const vpoc::VpocProgress& p)
{
    if (p.bytesTotal == 0)
        return;
    m_eta.add({ m_clock.elapsed() / 1000.0, p.bytesDone, p.bytesTotal, p.phase == vpoc::VpocPhase::Finishing });
    const double fraction = m_eta.fractionRead();
    Q_EMIT progressed(static_cast<int>(1000.0 * fraction),
        tr("%1, %2 % read, %3")
            .arg(sessionCount(size_t(p.sessionsDone)))
            .arg(100.0 * fraction, 0, 'f', 0)
            .arg(m_eta.text()));
}

void VpocController::onEnded(Outcome out)
{
    if (out.cancelled) {
        Q_EMIT cancelled();
        return;
    }
    if (!out.error.isEmpty()) {
        // The previous file's table and charts must not stand beside this input's error.
        setResult(nullptr, {});
        Q_EMIT failed(out.error);
        return;
    }
    setResult(out.result, {});
    QString details;
    const QString text = summary(*out.result, &details);
    Q_EMIT succeeded(text, details);
}

// "5 sessions from 6900 rows (bars) on cpu in 0.12 s." and what the run left out; the backend note's first words,
// the rest (a CPU fallback's loader messages) in `details`.
QString VpocController::summary(const vpoc::VpocResult& r, QString* details) const
{
    QString text = tr("%1 from %2 rows (%3) on %4 in %5 s.")
                       .arg(sessionCount(r.sessions.size()))
                       .arg(r.rows)
                       .arg(QString::fromLatin1(vpoc::formatName(r.format)), QString::fromStdString(r.backend))
                       .arg(m_clock.elapsed() / 1000.0, 0, 'f', 2);
    if (r.outsideSessions > 0)
        text += tr(" %1 rows outside every session were left out.").arg(r.outsideSessions);
    if (r.skipped.count > 0)
        text += tr(" %1 bad rows skipped, first: %2")
                    .arg(r.skipped.count)
                    .arg(QString::fromStdString(r.skipped.first.front()));
    if (!r.backendNote.empty()) {
        const QString note = QString::fromStdString(r.backendNote);
        const int why = note.indexOf(QLatin1String(" ("));
        QString first = why > 0 ? note.left(why) + QLatin1Char('.') : note;
        first[0] = first[0].toUpper(); // "no GPU, so the CPU was used" starts a sentence here
        text += QLatin1Char(' ') + first;
        *details = note;
    }
    return text;
}

bool VpocController::showRecorded(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin)
{
    if (m_jobs.isRunning() || !result)
        return false;
    setResult(std::move(result), origin);
    return true;
}

void VpocController::clear()
{
    setResult(nullptr, {});
}

void VpocController::setResult(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin)
{
    m_result = std::move(result);
    m_recordedOrigin = origin;
    Q_EMIT resultChanged();
}

} // namespace stackscope::ui
