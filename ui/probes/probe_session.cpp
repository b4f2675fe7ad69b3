// ProbeSession: the core ProbeRunners (one per environment) side by side in one JobTracker job, each record queued
// to the GUI thread as it arrives.
#include "ui/probes/probe_session.h"

#include "core/util/task_runner.h"

#include <QThread>

#include <algorithm>

namespace stackscope::ui {

struct ProbeSession::Outcome {
    bool cancelled = false;
    std::vector<ProbeDevice> devices; // each device once, in the order the runners listed them
    QStringList listErrors;
    QString error; // the run failed (JobTracker's fail)
};

ProbeSession::ProbeSession(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

ProbeSession::~ProbeSession()
{
    // The job keeps its runners alive; each returns within ~100 ms once cancelled. m_jobs drops the result.
    for (const auto& r : m_runners)
        r->cancel();
}

void ProbeSession::start(ProbeRunOptions options)
{
    start(std::vector<ProbeRunOptions> {std::move(options)});
}

void ProbeSession::start(std::vector<ProbeRunOptions> runs)
{
    Q_ASSERT(QThread::currentThread() == thread());
    for (const auto& r : m_runners) // the previous session's; m_jobs.run drops its result
        r->cancel();
    m_runners.clear();
    for (auto& options : runs)
        m_runners.push_back(std::make_shared<ProbeRunner>(std::move(options)));
    if (!m_running) {
        m_running = true;
        Q_EMIT runningChanged(true);
    }
    m_jobs.run([this, runners = m_runners](const JobControl& control) { return runAll(runners, control, this); },
               [this](Outcome out) { end(std::move(out)); },
               [this](const QString& error) {
                   Outcome out;
                   out.error = error;
                   end(std::move(out));
               });
}

// In the job: every runner on a thread of its own (environments side by side, as `stackscope-cli probe` runs
// them); a runner's exception is rethrown once all have returned.
ProbeSession::Outcome ProbeSession::runAll(const std::vector<std::shared_ptr<ProbeRunner>>& runners,
                                           const JobControl& control, ProbeSession* self)
{
    // The lowest runner's exception is rethrown by together() once all have returned.
    TaskRunner::shared().together(runners.size(), [self, &runners, &control](size_t i) {
        runners[i]->run([self, &control](const ProbeRecord& record) {
            control.post([self, record] { Q_EMIT self->recordArrived(record); });
        });
    });
    Outcome out;
    for (const auto& runner : runners) {
        out.cancelled = out.cancelled || runner->isCancelled();
        for (const auto& d : runner->devices())
            if (std::none_of(out.devices.begin(), out.devices.end(), [&](const ProbeDevice& have) { return have.id == d.id; }))
                out.devices.push_back(d);
        if (!runner->listError().empty())
            out.listErrors << QString::fromStdString(runner->listError());
    }
    return out;
}

void ProbeSession::end(Outcome out)
{
    m_running = false;
    m_runners.clear();
    if (!out.error.isEmpty())
        Q_EMIT failed(out.error);
    Q_EMIT finished(out.cancelled, out.devices, out.listErrors.join(QStringLiteral("; ")));
    Q_EMIT runningChanged(false);
}

void ProbeSession::cancel()
{
    Q_ASSERT(QThread::currentThread() == thread());
    for (const auto& r : m_runners) // the job still delivers what ran, with cancelled = true
        r->cancel();
}

} // namespace stackscope::ui
