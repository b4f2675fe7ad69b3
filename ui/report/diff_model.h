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

    // The rows that differ in what both sides know first, then those one side does not know (unknown).
    void setRows(std::vector<report::DiffRow> rows);
    void setHeaders(const QString& a, const QString& b);
    const std::vector<report::DiffRow>& rows() const { return m_rows; }
    // The row differs only in what one side does not know (not recorded, not read, not queried: diffSnapshots decides
    // it from the snapshot's typed facts), so it is no difference that matters (walkthrough 2026-11-27 problem 14; third
    // walkthrough problem 2: VRAM, driver, groups, OS, kernel and device modes read "(none)" and were counted).
    static bool isUnknown(const report::DiffRow& row);
    int knownCount() const { return m_known; }
    int unknownCount() const { return static_cast<int>(m_rows.size()) - m_known; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<report::DiffRow> m_rows;
    int m_known = 0;
    QString m_a = QStringLiteral("A");
    QString m_b = QStringLiteral("B");
};

} // namespace stackscope::ui
