// Table model of the differences between two snapshots (area, item, A, B).
#pragma once

#include "core/report/snapshot_diff.h"

#include <QAbstractTableModel>

#include <vector>

namespace stackscope::ui {

class DiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { AreaColumn, ItemColumn, AColumn, BColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, AreaRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<report::DiffRow> rows);
    void setHeaders(const QString& a, const QString& b);
    const std::vector<report::DiffRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<report::DiffRow> m_rows;
    QString m_a = QStringLiteral("A");
    QString m_b = QStringLiteral("B");
};

} // namespace stackscope::ui
