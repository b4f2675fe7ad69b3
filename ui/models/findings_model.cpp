// Findings as a Qt table model; errors first.
#include "ui/models/findings_model.h"

#include "ui/widgets/status_colors.h"

#include <QStringList>

#include <algorithm>

namespace stackscope::ui {

void FindingsModel::setFindings(std::vector<Finding> findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

const Finding* FindingsModel::findingAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_findings.size()))
        return nullptr;
    return &m_findings[static_cast<size_t>(row)];
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Finding& f = m_findings[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn: return QString::fromLatin1(severityName(f.severity));
        case IdColumn: return QString::fromStdString(f.id);
        case TitleColumn: return QString::fromStdString(f.title);
        default: return {};
        }
    case SortRole:
        return index.column() == SeverityColumn ? QVariant(static_cast<int>(f.severity)) : data(index, Qt::DisplayRole);
    case SeverityRole: return static_cast<int>(f.severity);
    case DetailRole: return QString::fromStdString(f.detail);
    case FixRole: return QString::fromStdString(f.fix);
    case SourcesRole: {
        QStringList sources;
        for (const auto& s : f.sources)
            sources << QString::fromStdString(s);
        return sources;
    }
    case Qt::ToolTipRole: return QString::fromStdString(f.detail);
    case Qt::ForegroundRole:
        return index.column() == SeverityColumn ? QVariant(severityColor(f.severity)) : QVariant();
    default: return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case IdColumn: return tr("Rule");
    case TitleColumn: return tr("Finding");
    default: return {};
    }
}

} // namespace stackscope::ui
