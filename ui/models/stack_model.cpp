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

const StackRow* StackModel::rowAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_rows[static_cast<size_t>(row)] : nullptr;
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
    if (role == Qt::ToolTipRole) {
        // The cell's whole text (the view cuts long ones in the middle), then why it is missing or failed.
        const std::string& text = index.column() == VersionColumn ? r.version
            : index.column() == LocationColumn                   ? r.location
            : index.column() == ComponentColumn                  ? r.component
                                                                 : std::string(stackStatusName(r.status));
        return QString::fromStdString(r.note.empty() ? text : text + "\n" + r.note);
    }
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
