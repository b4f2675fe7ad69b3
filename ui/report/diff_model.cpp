// Diff rows as a table; a side that lacks the fact is drawn muted, one that was not asked reads unknown.
#include "ui/report/diff_model.h"

#include "ui/widgets/status_colors.h"

#include <algorithm>

namespace stackscope::ui {

bool DiffModel::isUnknown(const report::DiffRow& row)
{
    return row.a == report::kNotQueried || row.b == report::kNotQueried;
}

void DiffModel::setRows(std::vector<report::DiffRow> rows)
{
    beginResetModel();
    const auto firstUnknown = std::stable_partition(rows.begin(), rows.end(), [](const auto& r) { return !isUnknown(r); });
    m_known = static_cast<int>(firstUnknown - rows.begin());
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
    const bool side = index.column() == AColumn || index.column() == BColumn;
    const bool notQueried = side && *cell == report::kNotQueried;
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        return notQueried ? tr("unknown: not queried (recorded machine)") : QString::fromStdString(*cell);
    case Qt::ToolTipRole:
        if (notQueried)
            return tr("Unknown: a recorded machine's libraries and PyTorch are not loaded here (only its files were "
                      "read), so this value was never asked. It is not counted as a difference.");
        // The whole value: the table cuts long ones in the middle.
        return cell->empty() ? QVariant() : QVariant(QString::fromStdString(*cell));
    case Qt::ForegroundRole:
        if (notQueried)
            return unknownColor();
        if (side && *cell == report::kNone)
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
