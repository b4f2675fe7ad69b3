// Stack rows as a Qt table model.
#include "ui/models/stack_model.h"

#include "ui/widgets/status_colors.h"

namespace stackscope::ui {

void StackModel::setRows(std::vector<StackRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int StackModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StackModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant StackModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const StackRow& r = m_rows[static_cast<size_t>(index.row())];
    if (role == StatusRole)
        return static_cast<int>(r.status);
    if (role == NoteRole)
        return QString::fromStdString(r.note);
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case ComponentColumn: return QString::fromStdString(r.component);
        case VersionColumn: return QString::fromStdString(r.version);
        case LocationColumn: return QString::fromStdString(r.location);
        case StatusColumn: return QString::fromLatin1(stackStatusName(r.status));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return r.note.empty() ? QString::fromStdString(r.location) : QString::fromStdString(r.location + "\n" + r.note);
    if (role == Qt::ForegroundRole && index.column() == StatusColumn)
        return statusColor(r.status);
    return {};
}

QVariant StackModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ComponentColumn: return tr("Component");
    case VersionColumn: return tr("Version");
    case LocationColumn: return tr("Found at");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

} // namespace stackscope::ui
