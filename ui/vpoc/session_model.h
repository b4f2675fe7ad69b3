// Table model of VPOC sessions (date, times, bars, volume, low, high, POC, VAH, VAL).
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <QAbstractTableModel>

#include <memory>

namespace stackscope::ui {

class SessionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { DateColumn, FirstColumn, LastColumn, BarsColumn, VolumeColumn, LowColumn, HighColumn,
                   PocColumn, VahColumn, ValColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const vpoc::VpocResult> result);
    const std::shared_ptr<const vpoc::VpocResult>& result() const { return m_result; }
    QString priceText(int32_t tick) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // A cell's text: prices on the tick grid, counts with thousands separators, times in the session's zone.
    QString text(const vpoc::SessionResult& s, int column) const;

    std::shared_ptr<const vpoc::VpocResult> m_result;
};

} // namespace stackscope::ui
