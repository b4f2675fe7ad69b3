// Runs the probe runner off the GUI thread and delivers each result to the GUI thread as it arrives.
#pragma once

#include "core/probes/probe_runner.h"

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
    // The same for several environments (libtorch and Python ones), each runner on its own pool thread, side by
    // side as `stackscope-cli probe` runs them; finished() follows the last.
    void start(std::vector<stackscope::ProbeRunOptions> runs);
    // Returns at once; running workers are killed within about 100 ms and finished() follows.
    void cancel();

Q_SIGNALS:
    void recordArrived(const stackscope::ProbeRecord& record);
    // `devices` as the runner used them; `listError` says why only the CPU was probed.
    void finished(bool cancelled, const std::vector<stackscope::ProbeDevice>& devices, const QString& listError);
    void runningChanged(bool running);

private:
    void runnerDone(quint64 generation, bool cancelled, const std::vector<stackscope::ProbeDevice>& devices,
                    const QString& listError);

    std::vector<std::shared_ptr<ProbeRunner>> m_runners;
    std::size_t m_pending = 0; // runners of this generation still running
    bool m_anyCancelled = false;
    std::vector<stackscope::ProbeDevice> m_devices;
    QStringList m_listErrors;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace stackscope::ui
