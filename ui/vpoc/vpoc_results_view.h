// The VPOC page's results: the out-of-date banner, the sessions table, the price chart beside the volume profile on
// one price axis, the line saying what they were computed with, and the exports.
#pragma once

#include "core/vpoc/vpoc_engine.h"
#include "ui/vpoc/option_changes.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QTableView;

namespace stackscope::ui {

class ChartLegend;
class SessionModel;
class SessionPriceChart;
class VolumeProfileView;

class VpocResultsView : public QWidget {
    Q_OBJECT
public:
    explicit VpocResultsView(QWidget* parent = nullptr);

    SessionModel* sessionModel() const { return m_sessions; }
    VolumeProfileView* profileView() const { return m_profile; }
    QChart* priceChart() const;
    QChartView* priceView() const;

    // Shows `result` (null: empties the table and charts) with its latest session selected; `recorded`: a report's.
    void showResult(std::shared_ptr<const vpoc::VpocResult> result, bool recorded);
    void selectSession(int row);
    void applyMark(const ResultsMark& mark);

    // The chart pair as one PNG / the sessions and the selected profile as CSV. Empty, or the error to show.
    QString exportPng(const QString& path);
    QString exportCsv(const QString& path);

Q_SIGNALS:
    // After an export from the buttons: the status line's text, or an error.
    void exported(const QString& text);
    void exportFailed(const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* createTable();
    QWidget* createCharts();
    QLayout* createExports();
    void alignProfile();
    // Shows the first and last bar's times where all the columns fit the table's width.
    void fitColumns();

    SessionModel* m_sessions = nullptr;
    QTableView* m_table = nullptr;
    SessionPriceChart* m_chart = nullptr;
    VolumeProfileView* m_profile = nullptr;
    ChartLegend* m_priceLegend = nullptr;
    ChartLegend* m_profileLegend = nullptr;
    QWidget* m_charts = nullptr;
    QPushButton* m_exportPng = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QLabel* m_resultsFor = nullptr;
    QLabel* m_staleBanner = nullptr;
    bool m_recorded = false;
};

} // namespace stackscope::ui
