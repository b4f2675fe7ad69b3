// The logs pasted or dropped in this session (the "Paste a log or error" dialog): kept for the support report,
// listed on the Report page, written into the report's logs (redacted with the rest).
#pragma once

#include "core/diagnosis/machine_diagnosis.h"
#include "core/report/report_logs.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QString>

#include <string>
#include <vector>

namespace stackscope::ui {

struct SessionLog {
    QString origin; // "pasted text" or the dropped file's name
    QString text;
    QDateTime keptAt; // UTC; invalid for a report's log whose header gave no time
    QString report; // the opened report it came from; empty for one kept in this session
};

class SessionLogModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { OriginRole = Qt::UserRole, TextRole, LineCountRole };
    // A log's last lines in the report: its header stays within the report's 2000 lines (core/report trims the
    // oldest) when the app's own messages and a second log come with it. A traceback's cause is at its end.
    static constexpr int kMaxReportLines = 1000;

    using QAbstractListModel::QAbstractListModel;

    // Keeps a log; the same text again (Diagnose pressed twice, the file dropped again) is kept once, under
    // its latest origin. Empty text is not kept.
    void add(const QString& origin, const QString& text);
    void remove(int row);
    const std::vector<SessionLog>& logs() const { return m_logs; }

    // An opened report's logs (its pasted logs and the app's messages of the session that wrote it) replace the list:
    // the logs kept in this session before are set aside. Opening another report replaces the first one's logs.
    void showReportLogs(const std::vector<report::ReportLog>& logs, const QString& report);
    // The report is closed: its logs go, those set aside come back first, and those kept while it was open stay.
    void endReportLogs();
    // The logs as the one diagnosis reads pasted text (diagnoseMachine's input, as `diagnose --log` reads a file).
    std::vector<ReadLogText> diagnosisLogs() const;

    // The report's log lines, as `stackscope-cli report --log FILE` adds a file: "==> origin <==" then its lines,
    // control bytes and bytes that are not UTF-8 escaped.
    std::vector<std::string> reportLines() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    void setLogs(std::vector<SessionLog> logs);

    std::vector<SessionLog> m_logs;
    std::vector<SessionLog> m_setAside; // this session's logs while a report's are shown
};

} // namespace stackscope::ui
