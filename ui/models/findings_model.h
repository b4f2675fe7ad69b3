// Table model of findings (severity, id, title) with detail, fix and sources as roles.
#pragma once

#include "core/snapshot/snapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace stackscope::ui {

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, IdColumn, TitleColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, DetailRole, FixRole, SourcesRole, SeverityRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setFindings(std::vector<Finding> findings);
    const Finding* findingAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Finding> m_findings;
};

} // namespace stackscope::ui
