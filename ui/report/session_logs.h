// The logs pasted or dropped in this session (the "Paste a log or error" dialog): kept for the support report,
// listed on the Report page, written into the report's logs (redacted with the rest).
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QString>

#include <string>
#include <vector>

namespace stackscope::ui {

struct SessionLog {
    QString origin; // "pasted text" or the dropped file's name
    QString text;
    QDateTime keptAt; // UTC
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

    // The report's log lines, as `stackscope-cli report --log FILE` adds a file: "==> origin <==" then its lines,
    // control bytes and bytes that are not UTF-8 escaped.
    std::vector<std::string> reportLines() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    std::vector<SessionLog> m_logs;
};

} // namespace stackscope::ui
