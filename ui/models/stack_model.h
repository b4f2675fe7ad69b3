// Table model of the stack (component, status, version, where found) for the System page.
#pragma once

#include "core/snapshot/stack_rows.h"

#include <QAbstractTableModel>

#include <vector>

namespace stackscope::ui {

class StackModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Status second: a long version (the kernel command line) or path must never push it out of view.
    enum Columns { ComponentColumn, StatusColumn, VersionColumn, LocationColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, StatusRole, NoteRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<StackRow> rows);
    const StackRow* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<StackRow> m_rows;
};

} // namespace stackscope::ui
