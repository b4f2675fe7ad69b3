// Runs one background job at a time for an owner object: latest job wins, cancellable, result
// delivered to the owner's thread with a queued call (after Hotspot's JobTracker).
#pragma once

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <utility>

namespace stackscope::ui {

// Given to the job: it checks isCancelled() often (at least every ~100 ms of work).
class JobControl {
public:
    bool isCancelled() const { return m_cancelled->load(std::memory_order_relaxed); }

private:
    friend class JobTracker;
    std::shared_ptr<std::atomic<bool>> m_cancelled = std::make_shared<std::atomic<bool>>(false);
};

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
    quint64 generation() const { return m_generation; }

    // Cancels the running job (its result will be dropped) and starts `job` on the thread pool.
    // `apply(result)` runs in the owner's thread, only if this is still the latest job.
    template <typename Job, typename Apply>
    void run(Job job, Apply apply)
    {
        Q_ASSERT(!m_owner || QThread::currentThread() == m_owner->thread());
        cancel();
        const quint64 generation = ++m_generation;
        m_control = JobControl();
        m_running = true;
        QPointer<QObject> owner = m_owner;
        JobControl control = m_control;
        QThreadPool::globalInstance()->start([this, owner, control, generation, job = std::move(job),
                                              apply = std::move(apply)]() mutable {
            auto result = job(control);
            if (!owner)
                return;
            QMetaObject::invokeMethod(
                owner,
                [this, owner, generation, result = std::move(result), apply = std::move(apply)]() mutable {
                    // The tracker lives in the owner, so it is alive while `owner` is.
                    if (!owner || generation != m_generation)
                        return;
                    m_running = false;
                    apply(std::move(result));
                },
                Qt::QueuedConnection);
        });
    }

    void cancel()
    {
        m_control.m_cancelled->store(true);
        m_running = false;
    }

private:
    QPointer<QObject> m_owner;
    JobControl m_control;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace stackscope::ui
