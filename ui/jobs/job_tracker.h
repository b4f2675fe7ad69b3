// Runs one background job at a time for an owner object: latest job wins, cancellable, progress and
// result delivered to the owner's thread with queued calls (after Hotspot's JobTracker). The Qt side of the one task
// runner: the job runs on a thread of core's TaskRunner::shared() (its waiting lane: a job lasts).
#pragma once

#include "core/util/cancel_token.h"
#include "core/util/task_runner.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace stackscope::ui {

// Given to the job: it checks isCancelled() often (at least every ~100 ms of work) and may post
// progress to the owner's thread. Copyable; all copies share the job's state.
class JobControl {
public:
    bool isCancelled() const { return m_cancel.isCancelled(); }
    // For core's long jobs, which all take a CancelToken.
    const CancelToken& cancelToken() const { return m_cancel; }
    // Runs `fn` in the owner's thread, unless the job is no longer the latest by then.
    void post(std::function<void()> fn) const
    {
        if (!m_owner)
            return;
        QMetaObject::invokeMethod(
            m_owner,
            [current = m_current, generation = m_generation, fn = std::move(fn)] {
                if (current->load() == generation)
                    fn();
            },
            Qt::QueuedConnection);
    }

private:
    friend class JobTracker;
    CancelToken m_cancel;
    QPointer<QObject> m_owner;
    std::shared_ptr<std::atomic<quint64>> m_current;
    quint64 m_generation = 0;
};

// Called as the application object is destroyed: every job still running is waited for (its owner's tracker
// cancelled it) while the program's statics are alive, as QCoreApplication waits for its global thread pool.
inline void waitForJobsAtExit()
{
    TaskRunner::shared().waitForDone();
}

// Lives inside its owner (a member), so the owner outlives every queued call it receives.
class JobTracker {
public:
    explicit JobTracker(QObject* owner)
        : m_owner(owner)
    {
    }
    ~JobTracker() { cancel(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    bool isRunning() const { return m_running; }

    // Cancels the running job (its result will be dropped) and starts `job(const JobControl&)` on the task runner.
    // In the owner's thread, only if this is still the latest job: `apply(result)`, or `fail(message)` when the job
    // threw (the exception's what(); a job never takes the program down with it).
    template <typename Job, typename Apply, typename Fail>
    void run(Job job, Apply apply, Fail fail)
    {
        Q_ASSERT(!m_owner || QThread::currentThread() == m_owner->thread());
        cancel();
        JobControl control;
        control.m_owner = m_owner;
        control.m_current = m_current;
        control.m_generation = ++*m_current;
        m_control = control;
        m_running = true;
        qRemovePostRoutine(&waitForJobsAtExit); // once, however many jobs ran
        qAddPostRoutine(&waitForJobsAtExit);
        TaskRunner::shared().post(
            [this, control, job = std::move(job), apply = std::move(apply), fail = std::move(fail)]() mutable {
                using Result = decltype(job(control));
                std::shared_ptr<Result> result;
                QString error;
                try {
                    result = std::make_shared<Result>(job(control));
                } catch (const std::exception& e) {
                    error = QString::fromStdString(e.what());
                } catch (...) {
                    error = QStringLiteral("an error that is not a std::exception (please report it with the steps "
                                           "that led to it)");
                }
                control.post([this, result, error, apply = std::move(apply), fail = std::move(fail)]() mutable {
                    m_running = false;
                    if (result)
                        apply(std::move(*result));
                    else
                        fail(error);
                });
            });
    }

    // Asks the running job to stop at its next cancellation check and still delivers its result (a stopped
    // training run reports its last checkpoint); cancel() drops the result instead.
    void requestStop() { m_control.m_cancel.cancel(); }
    bool stopRequested() const { return m_running && m_control.isCancelled(); }

    // The running job's result will be dropped; the job itself stops at its next cancellation check.
    void cancel()
    {
        m_control.m_cancel.cancel();
        ++*m_current;
        m_running = false;
    }

private:
    QPointer<QObject> m_owner;
    std::shared_ptr<std::atomic<quint64>> m_current = std::make_shared<std::atomic<quint64>>(0);
    JobControl m_control;
    bool m_running = false;
};

} // namespace stackscope::ui
