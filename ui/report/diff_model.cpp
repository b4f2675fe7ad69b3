// Diff rows as a table; a side that lacks the fact is drawn muted, one that does not know it reads unknown.
#include "ui/report/diff_model.h"

#include "ui/widgets/status_colors.h"

#include <algorithm>

namespace stackscope::ui {

namespace {

// The whole value, and why an unknown is not counted (or, for a device node that exists on one side only, why the
// row still is).
QString unknownTip(const std::string& value, bool matters)
{
    const QString text = QString::fromStdString(value);
    return matters ? DiffModel::tr("%1\n\nPart of this value is unknown on this side; the row is counted because what "
                                   "both sides know differs.").arg(text)
                   : DiffModel::tr("%1\n\nThis side's snapshot does not know this value, so it cannot be compared. "
                                   "It is not counted as a difference.").arg(text);
}

} // namespace

bool DiffModel::isUnknown(const report::DiffRow& row)
{
    return !row.matters;
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
    const bool unknown = (index.column() == AColumn && r.aUnknown) || (index.column() == BColumn && r.bUnknown);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        return QString::fromStdString(*cell);
    case Qt::ToolTipRole:
        if (unknown)
            return unknownTip(*cell, r.matters);
        // The whole value: the table cuts long ones in the middle.
        return cell->empty() ? QVariant() : QVariant(QString::fromStdString(*cell));
    case Qt::ForegroundRole:
        if (unknown && !r.matters)
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
