// The findings model of the Probes page: severity, rule, title and whether a fix was verified here.
#include "ui/probes/probe_findings_model.h"

#include "ui/widgets/status_colors.h"

namespace stackscope::ui {

QString verifiedText(const std::optional<bool>& verified)
{
    if (!verified)
        return QObject::tr("not tried");
    return *verified ? QObject::tr("verified here") : QObject::tr("did not work here");
}

void ProbeFindingsModel::setFindings(std::vector<DiagnosisFinding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

const DiagnosisFinding* ProbeFindingsModel::findingAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_findings[static_cast<std::size_t>(row)] : nullptr;
}

int ProbeFindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int ProbeFindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ProbeFindingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& f = m_findings[static_cast<std::size_t>(index.row())];
    if (role == RuleIdRole)
        return QString::fromStdString(f.ruleId);
    if (role == DetailRole) {
        QString text = QString::fromStdString(f.cause);
        for (const auto& fix : f.fixes) {
            text += QLatin1String("\n\u2022 ") + QString::fromStdString(fix.text);
            if (!fix.env.empty() && !fix.diagnostic)
                text += QLatin1String(" [") + verifiedText(fix.verified) + QLatin1Char(']');
        }
        return text;
    }
    switch (index.column()) {
    case SeverityColumn:
        if (role == Qt::DisplayRole)
            return QString::fromLatin1(severityName(f.severity));
        if (role == Qt::ForegroundRole)
            return severityColor(f.severity);
        if (role == SortRole)
            return static_cast<int>(f.severity);
        break;
    case RuleColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return QString::fromStdString(f.ruleId);
        break;
    case TitleColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return QString::fromStdString(f.title);
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(f.cause);
        break;
    case VerifiedColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return verifiedText(f.verified);
        if (role == Qt::ForegroundRole && f.verified)
            return *f.verified ? okColor() : errorColor();
        break;
    default: break;
    }
    return {};
}

QVariant ProbeFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case RuleColumn: return tr("Rule");
    case TitleColumn: return tr("Finding");
    case VerifiedColumn: return tr("Fix");
    default: return {};
    }
}

} // namespace stackscope::ui
