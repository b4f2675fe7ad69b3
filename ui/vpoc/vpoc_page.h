// The VPOC page: the form (VpocForm, made from core's table of fields), Run with progress, ETA and cancel (VpocStatus),
// and the results (VpocResultsView), wired to the job and the result it leaves (VpocController).
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;

namespace stackscope::ui {

class SessionModel;
class VolumeProfileView;
class VpocController;
class VpocForm;
class VpocResultsView;
class VpocStatus;

class VpocPage : public QWidget {
    Q_OBJECT
public:
    explicit VpocPage(QWidget* parent = nullptr);

    VpocForm* form() const { return m_form; }
    SessionModel* sessionModel() const;
    VolumeProfileView* profileView() const;
    QChart* priceChart() const;
    QChartView* priceView() const;
    QString statusText() const;
    bool isRunning() const;
    // A result is shown (and can be exported).
    bool hasResults() const;
    // A result is shown, but the input or an option that changes it differs from the form (the banner says which).
    bool resultsStale() const { return m_stale; }
    // The whole text behind "Details…"; empty when the status line says everything.
    QString detailText() const;
    // Whether the status line is an error (shown in red with a warning sign).
    bool statusIsError() const;
    void setInputFile(const QString& path);
    // The chart pair as one PNG / the sessions and the selected profile as CSV. False + status on error.
    bool exportPng(const QString& path);
    bool exportCsv(const QString& path);
    // Writes the embedded sample data (synthetic ES bars) to the app data folder and selects it.
    QString useSampleData();
    // The progress bar and status line for one report from the job (the engine's, or a recorded one in tests).
    void showProgress(const vpoc::VpocProgress& p);

    // Shows a recorded run (a report's "vpoc": sessions and their levels, no profiles or price line) under a line
    // saying where it comes from; a run here replaces it. False, with the status saying why, when it cannot be read.
    bool showRecordedRun(std::shared_ptr<const vpoc::VpocResult> result, const QString& origin);
    // Empties the page of a recorded run (the report was closed); a run made here stays.
    void clearRecordedRun();
    bool showsRecordedRun() const;

public Q_SLOTS:
    void run();
    void cancel();

Q_SIGNALS:
    void finished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* createFormColumn();
    void connectController();
    void onSucceeded(const QString& text, const QString& details);
    // Says what the shown results were computed with, and marks them out of date (a banner above them, exports
    // off) while the input or an option that changes them differs from the form, until the next run.
    void markResults();

    VpocController* m_controller = nullptr;
    VpocForm* m_form = nullptr;
    VpocStatus* m_status = nullptr;
    VpocResultsView* m_results = nullptr;
    bool m_stale = false;
};

} // namespace stackscope::ui
