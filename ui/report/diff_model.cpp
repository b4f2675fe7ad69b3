// Diff rows as a table; a side that lacks the fact is drawn muted.
#include "ui/report/diff_model.h"

#include "ui/widgets/status_colors.h"

namespace stackscope::ui {

void DiffModel::setRows(std::vector<report::DiffRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void DiffModel::setHeaders(const QString& a, const QString& b)
{
    m_a = a;
    m_b = b;
    Q_EMIT headerDataChanged(Qt::Horizontal, AColumn, BColumn);
}

int DiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant DiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& r = m_rows[static_cast<std::size_t>(index.row())];
    const std::string* cell = nullptr;
    switch (index.column()) {
    case AreaColumn: cell = &r.area; break;
    case ItemColumn: cell = &r.item; break;
    case AColumn: cell = &r.a; break;
    case BColumn: cell = &r.b; break;
    default: return {};
    }
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        return QString::fromStdString(*cell);
    case Qt::ToolTipRole:
        return cell->size() > 60 ? QString::fromStdString(*cell) : QVariant();
    case Qt::ForegroundRole:
        if ((index.column() == AColumn || index.column() == BColumn) && *cell == report::kNone)
            return mutedColor();
        return {};
    case AreaRole:
        return QString::fromStdString(r.area);
    default:
        return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AreaColumn: return tr("Area");
    case ItemColumn: return tr("Item");
    case AColumn: return m_a;
    case BColumn: return m_b;
    default: return {};
    }
}

} // namespace stackscope::ui
