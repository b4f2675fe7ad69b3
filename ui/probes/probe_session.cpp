// ProbeSession: the core ProbeRunners (one per environment) on pool threads, results queued to the GUI thread.
#include "ui/probes/probe_session.h"

#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace stackscope::ui {

ProbeSession::ProbeSession(QObject* parent)
    : QObject(parent)
{
}

ProbeSession::~ProbeSession()
{
    // The pool tasks keep their runners alive; each returns within ~100 ms once cancelled.
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
    for (const auto& r : m_runners)
        r->cancel();
    m_runners.clear();
    const quint64 generation = ++m_generation;
    m_pending = runs.size();
    m_anyCancelled = false;
    m_devices.clear();
    m_listErrors.clear();
    if (!m_running) {
        m_running = true;
        Q_EMIT runningChanged(true);
    }
    // Environments side by side: at least one pool thread each, so one never waits for another to end.
    QThreadPool* pool = QThreadPool::globalInstance();
    pool->setMaxThreadCount(std::max(pool->maxThreadCount(), static_cast<int>(runs.size()) + 1));
    QPointer<ProbeSession> self(this);
    for (auto& options : runs) {
        auto runner = std::make_shared<ProbeRunner>(std::move(options));
        m_runners.push_back(runner);
        pool->start([self, runner, generation] {
            runner->run([self, generation](const ProbeRecord& record) {
                if (!self)
                    return;
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, generation, record] {
                        if (self && generation == self->m_generation)
                            Q_EMIT self->recordArrived(record);
                    },
                    Qt::QueuedConnection);
            });
            const bool cancelled = runner->isCancelled();
            auto devices = runner->devices();
            const QString listError = QString::fromStdString(runner->listError());
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self.data(), [self, generation, cancelled, devices, listError] {
                    if (self)
                        self->runnerDone(generation, cancelled, devices, listError);
                },
                Qt::QueuedConnection);
        });
    }
    if (runs.empty())
        runnerDone(generation, false, {}, {});
}

void ProbeSession::runnerDone(quint64 generation, bool cancelled, const std::vector<ProbeDevice>& devices,
                              const QString& listError)
{
    if (generation != m_generation)
        return;
    m_anyCancelled = m_anyCancelled || cancelled;
    for (const auto& d : devices) {
        if (std::none_of(m_devices.begin(), m_devices.end(), [&](const ProbeDevice& have) { return have.id == d.id; }))
            m_devices.push_back(d);
    }
    if (!listError.isEmpty())
        m_listErrors << listError;
    if (m_pending > 0)
        --m_pending;
    if (m_pending > 0)
        return;
    m_running = false;
    m_runners.clear();
    Q_EMIT finished(m_anyCancelled, m_devices, m_listErrors.join(QStringLiteral("; ")));
    Q_EMIT runningChanged(false);
}

void ProbeSession::cancel()
{
    Q_ASSERT(QThread::currentThread() == thread());
    for (const auto& r : m_runners)
        r->cancel();
}

} // namespace stackscope::ui
