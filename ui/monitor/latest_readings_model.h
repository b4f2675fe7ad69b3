// Table model of the latest sample: one row per GPU and quantity with value and source, or the
// reason the value is missing; plus the sources' own status rows (library loaded or why not).
#pragma once

#include "core/telemetry/telemetry_types.h"

#include <QAbstractTableModel>

namespace stackscope::ui {

class LatestReadingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { GpuColumn, QuantityColumn, ValueColumn, SourceColumn, NUM_COLUMNS };
    enum Roles { MissingRole = Qt::UserRole, SortRole };

    explicit LatestReadingsModel(QObject* parent = nullptr);

    // Whole sample in; rows keep their place when the shape is unchanged (values update in place,
    // so a view's selection and scroll survive 4 updates a second).
    void setSample(const telemetry::TelemetrySample& sample);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString gpu;
        QString quantity;
        QString value;
        QString source;
        bool missing = false;
        double sortValue = 0;
    };
    std::vector<Row> m_rows;
};

} // namespace stackscope::ui
