// Two probe grids side by side: the report's machine and this one, for "Run these probes here".
#pragma once

#include "core/probes/probe_runner.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace stackscope::ui {

class ProbeGridModel;

class ProbeSideBySide : public QWidget {
    Q_OBJECT
public:
    explicit ProbeSideBySide(QWidget* parent = nullptr);

    ProbeGridModel* reportModel() const { return m_report; }
    ProbeGridModel* hereModel() const { return m_here; }
    void setReport(const std::vector<ProbeRecord>& records, const QString& title);
    void clearHere();
    void addHere(const ProbeRecord& record);
    void setStatus(const QString& text);
    // "3 cells differ" once both sides have run.
    QString differenceText() const;

private:
    ProbeGridModel* m_report;
    ProbeGridModel* m_here;
    QLabel* m_reportTitle;
    QLabel* m_status;
};

} // namespace stackscope::ui
