// LatestReadingsModel: rows from a sample, in-place updates when the shape is unchanged.
#include "ui/monitor/latest_readings_model.h"

#include "ui/monitor/telemetry_chart.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace stackscope::ui {

using namespace telemetry;

LatestReadingsModel::LatestReadingsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void LatestReadingsModel::setSample(const TelemetrySample& sample)
{
    std::vector<Row> rows;
    for (const auto& src : sample.sources) {
        Row r;
        r.gpu = tr("(source)");
        r.quantity = QString::fromStdString(src.source);
        r.value = src.available ? tr("loaded") : QString::fromLatin1(missingReasonKey(src.reason));
        r.source = QString::fromStdString(src.detail);
        r.missing = !src.available;
        rows.push_back(std::move(r));
    }
    for (const auto& g : sample.gpus) {
        const QString gpu = QStringLiteral("%1 %2").arg(QString::fromStdString(gpuId(g)), QString::fromStdString(g.name));
        for (Quantity q : kAllQuantities) {
            const Reading& reading = g.at(q);
            Row r;
            r.gpu = gpu;
            r.quantity = QString::fromLatin1(quantityLabel(q));
            if (reading.present()) {
                r.value = TelemetryChart::formatValue(q, *reading.value);
                r.source = QString::fromStdString(reading.source);
                r.sortValue = *reading.value;
            } else {
                r.value = tr("n/a: %1").arg(QString::fromLatin1(missingReasonKey(reading.reason)));
                r.source = QString::fromStdString(reading.detail);
                r.missing = true;
            }
            rows.push_back(std::move(r));
        }
    }
    const bool sameShape = rows.size() == m_rows.size() &&
                           std::equal(rows.begin(), rows.end(), m_rows.begin(), [](const Row& a, const Row& b) {
                               return a.gpu == b.gpu && a.quantity == b.quantity;
                           });
    if (sameShape) {
        m_rows = std::move(rows);
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, ValueColumn), index(int(m_rows.size()) - 1, SourceColumn));
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int LatestReadingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LatestReadingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant LatestReadingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case GpuColumn: return r.gpu;
        case QuantityColumn: return r.quantity;
        case ValueColumn: return r.value;
        case SourceColumn: return r.source;
        }
        break;
    case Qt::ForegroundRole:
        if (r.missing)
            return QBrush(QColor(0x80, 0x80, 0x80));
        break;
    case MissingRole: return r.missing;
    case SortRole:
        return index.column() == ValueColumn ? QVariant(r.sortValue) : data(index, Qt::DisplayRole);
    }
    return {};
}

QVariant LatestReadingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GpuColumn: return tr("GPU");
    case QuantityColumn: return tr("Quantity");
    case ValueColumn: return tr("Value");
    case SourceColumn: return tr("Source / why missing");
    }
    return {};
}

} // namespace stackscope::ui
