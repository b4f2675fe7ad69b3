// Runs the probe runners off the GUI thread (a JobTracker job) and delivers each result to the GUI thread as it
// arrives.
#pragma once

#include "core/probes/probe_runner.h"
#include "ui/jobs/job_tracker.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace stackscope::ui {

class ProbeSession : public QObject {
    Q_OBJECT
public:
    explicit ProbeSession(QObject* parent = nullptr);
    ~ProbeSession() override;

    bool isRunning() const { return m_running; }

public Q_SLOTS:
    // Cancels a running session (its late results are dropped) and starts a new one on the thread pool.
    void start(stackscope::ProbeRunOptions options);
    // The same for several environments (libtorch and Python ones), each runner on a thread of its own, side by
    // side as `stackscope-cli probe` runs them; finished() follows the last.
    void start(std::vector<stackscope::ProbeRunOptions> runs);
    // Returns at once; running workers are killed within about 100 ms and finished() follows.
    void cancel();

Q_SIGNALS:
    void recordArrived(const stackscope::ProbeRecord& record);
    // `devices` as the runner used them; `listError` says why only the CPU was probed.
    void finished(bool cancelled, const std::vector<stackscope::ProbeDevice>& devices, const QString& listError);
    void runningChanged(bool running);
    // The run itself failed (a runner threw): emitted just before finished(), with what happened. The records that
    // arrived before it stay valid.
    void failed(const QString& message);

private:
    struct Outcome;
    // In the job's thread; `self` is only used in calls posted to the GUI thread (dropped if it is gone).
    static Outcome runAll(const std::vector<std::shared_ptr<ProbeRunner>>& runners, const JobControl& control,
                          ProbeSession* self);
    void end(Outcome out);

    std::vector<std::shared_ptr<ProbeRunner>> m_runners; // the running session's, for cancel()
    bool m_running = false;
    JobTracker m_jobs; // last: destroyed first, so no queued call reaches a half-destroyed session
};

} // namespace stackscope::ui
