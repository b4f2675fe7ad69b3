// Pasted and dropped logs of this session, as a list model and as the report's log lines.
#include "ui/report/session_logs.h"

#include "core/util/text_escape.h"

#include <QStringList>

#include <algorithm>
#include <utility>

namespace stackscope::ui {

namespace {

QStringList linesOf(const QString& text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast(); // the newline that ends the last line
    for (auto& l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    return lines;
}

} // namespace

void SessionLogModel::add(const QString& origin, const QString& text)
{
    if (text.trimmed().isEmpty())
        return;
    const auto same = std::find_if(m_logs.begin(), m_logs.end(), [&](const SessionLog& l) { return l.text == text; });
    if (same != m_logs.end()) {
        const int row = static_cast<int>(same - m_logs.begin());
        same->origin = origin;
        same->keptAt = QDateTime::currentDateTimeUtc();
        Q_EMIT dataChanged(index(row), index(row));
        return;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_logs.push_back({ origin, text, QDateTime::currentDateTimeUtc(), {} });
    endInsertRows();
}

void SessionLogModel::remove(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_logs.erase(m_logs.begin() + row);
    endRemoveRows();
}

void SessionLogModel::setLogs(std::vector<SessionLog> logs)
{
    beginResetModel();
    m_logs = std::move(logs);
    endResetModel();
}

void SessionLogModel::showReportLogs(const std::vector<report::ReportLog>& logs, const QString& report)
{
    std::vector<SessionLog> shown;
    for (auto& log : m_logs) {
        if (log.report.isEmpty())
            m_setAside.push_back(std::move(log));
    }
    for (const auto& log : logs) {
        QString text;
        for (const auto& line : log.lines)
            text += QString::fromStdString(line) + QLatin1Char('\n');
        if (text.trimmed().isEmpty())
            continue;
        shown.push_back({ QString::fromStdString(log.origin), text,
            QDateTime::fromString(QString::fromStdString(log.keptAt), Qt::ISODate), report });
    }
    setLogs(std::move(shown));
}

void SessionLogModel::endReportLogs()
{
    std::vector<SessionLog> kept = std::exchange(m_setAside, {});
    for (auto& log : m_logs) {
        if (log.report.isEmpty())
            kept.push_back(std::move(log));
    }
    setLogs(std::move(kept));
}

std::vector<ReadLogText> SessionLogModel::diagnosisLogs() const
{
    std::vector<ReadLogText> out;
    out.reserve(m_logs.size());
    for (const auto& log : m_logs)
        out.push_back(readLogText(log.text.toStdString(), log.origin.toStdString()));
    return out;
}

std::vector<std::string> SessionLogModel::reportLines() const
{
    std::vector<std::string> out;
    for (const auto& log : m_logs) {
        const QStringList lines = linesOf(log.text);
        const int first = std::max(0, int(lines.size()) - kMaxReportLines);
        QString header = QStringLiteral("==> ") + log.origin;
        if (log.keptAt.isValid())
            header += QStringLiteral(", kept ") + log.keptAt.toString(Qt::ISODate);
        if (first > 0)
            header += QStringLiteral(" (its last %1 of %2 lines)").arg(kMaxReportLines).arg(lines.size());
        out.push_back(escapeControl((header + QStringLiteral(" <==")).toStdString()));
        for (int i = first; i < lines.size(); ++i)
            out.push_back(escapeControl(lines[i].toStdString()));
    }
    return out;
}

int SessionLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_logs.size());
}

QVariant SessionLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionLog& log = m_logs[static_cast<size_t>(index.row())];
    const auto lineCount = linesOf(log.text).size();
    switch (role) {
    case Qt::DisplayRole:
        if (!log.report.isEmpty()) {
            const QString when = log.keptAt.isValid()
                ? tr(", kept %1").arg(log.keptAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                : QString();
            const QString lines = lineCount == 1 ? tr("1 line") : tr("%1 lines").arg(lineCount);
            return tr("%1 — %2%3, from the report").arg(log.origin, lines, when);
        }
        return lineCount == 1
            ? tr("%1 — 1 line, kept %2").arg(log.origin, log.keptAt.toLocalTime().toString(QStringLiteral("HH:mm")))
            : tr("%1 — %2 lines, kept %3")
                  .arg(log.origin)
                  .arg(lineCount)
                  .arg(log.keptAt.toLocalTime().toString(QStringLiteral("HH:mm")));
    case Qt::ToolTipRole: {
        // Its last lines, where a traceback says what went wrong.
        QStringList lines = linesOf(log.text);
        lines = lines.mid(std::max<qsizetype>(0, lines.size() - 8));
        for (auto& l : lines) {
            if (l.size() > 160)
                l = l.left(160) + QStringLiteral("…");
        }
        return lines.join(QLatin1Char('\n'));
    }
    case OriginRole:
        return log.origin;
    case TextRole:
        return log.text;
    case LineCountRole:
        return static_cast<int>(lineCount);
    default:
        return {};
    }
}

} // namespace stackscope::ui
