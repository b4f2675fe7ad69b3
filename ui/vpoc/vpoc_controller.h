// The VPOC page's model: runs the job (JobTracker), keeps the result shown (a run here or a report's), and says what
// happened as text for the status line. No widgets.
#pragma once

#include "core/vpoc/vpoc_engine.h"
#include "ui/jobs/job_tracker.h"
#include "ui/vpoc/eta_estimate.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>

namespace stackscope::ui {

class VpocController : public QObject {
    Q_OBJECT
public:
    explicit VpocController(QObject* parent = nullptr);

    bool isRunning() const { return m_jobs.isRunning(); }
    // The result shown: the last run's here, or a report's; null when none.
    const std::shared_ptr<const vpoc::VpocResult>& result() const { return m_result; }
    // "report ..." while a report's run is shown; empty for a run made here.
    const QString& recordedOrigin() const { return m_recordedOrigin; }
    // The input file the shown result came from.
    QString resultInput() const;

    // Starts a run (cancelling one going on); progress, then succeeded / failed / cancelled.
    void run(const vpoc::VpocOptions& options);
    // Stops the run; the result shown stays. False when none was running.
    bool cancel();
    // Shows a report's run; false while a run is going on.
    bool showRecorded(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin);
    void clear();
    // One progress report from the job (the engine's, or a recorded one in tests): progressed().
    void reportProgress(const vpoc::VpocProgress& p);

Q_SIGNALS:
    void resultChanged();
    void progressed(int permille, const QString& text);
    void succeeded(const QString& text, const QString& details);
    void failed(const QString& error);
    void cancelled();

private:
    struct Outcome; // a run's result, error or cancellation
    void onEnded(Outcome out);
    void setResult(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin);
    QString summary(const vpoc::VpocResult& r, QString* details) const;

    JobTracker m_jobs;
    QElapsedTimer m_clock;
    EtaEstimate m_eta;
    std::shared_ptr<const vpoc::VpocResult> m_result;
    QString m_recordedOrigin;
};

} // namespace stackscope::ui
