// ProbeSession: the core ProbeRunner on a pool thread, results queued to the GUI thread.
#include "ui/probes/probe_session.h"

#include <QPointer>
#include <QThread>
#include <QThreadPool>

namespace stackscope::ui {

ProbeSession::ProbeSession(QObject* parent)
    : QObject(parent)
{
}

ProbeSession::~ProbeSession()
{
    // The pool task keeps the runner alive; it returns within ~100 ms once cancelled.
    if (m_runner)
        m_runner->cancel();
}

void ProbeSession::start(ProbeRunOptions options)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_runner)
        m_runner->cancel();
    const quint64 generation = ++m_generation;
    auto runner = std::make_shared<ProbeRunner>(std::move(options));
    m_runner = runner;
    if (!m_running) {
        m_running = true;
        Q_EMIT runningChanged(true);
    }
    QPointer<ProbeSession> self(this);
    QThreadPool::globalInstance()->start([self, runner, generation] {
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
            self.data(),
            [self, generation, cancelled, devices, listError] {
                if (!self || generation != self->m_generation)
                    return;
                self->m_running = false;
                self->m_runner.reset();
                Q_EMIT self->finished(cancelled, devices, listError);
                Q_EMIT self->runningChanged(false);
            },
            Qt::QueuedConnection);
    });
}

void ProbeSession::cancel()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_runner)
        m_runner->cancel();
}

} // namespace stackscope::ui
