// Table model of a training run's epochs: epoch, training and validation loss, samples/s, seconds; one precision per
// column and thousands separators.
#pragma once

#include "core/training/training_run.h"

#include <QAbstractTableModel>

#include <vector>

namespace stackscope::ui {

// The epochs a run has finished so far (a resumed run's earlier epochs included) and which one is best.
struct EpochTable {
    std::vector<training::EpochMetrics> epochs;
    int bestEpoch = 0; // the epoch whose weights model.pt holds; 0 while unknown
};

class EpochTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { EpochColumn, TrainLossColumn, ValLossColumn, SamplesPerSColumn, SecondsColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, BestRole };

    using QAbstractTableModel::QAbstractTableModel;
    using QAbstractTableModel::setData;

    // The whole table at once (a run has at most a few thousand epochs; a reset is cheaper than diffing).
    void setData(EpochTable table);
    const EpochTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Decimals shown for a loss column: four significant digits of its smallest non-zero value and at least four
    // (1.15 -> 4, 0.0123 -> 5), so "1.1530" stands above "1.1524", never "1.153"; at most 8.
    static int lossDecimals(const std::vector<double>& values);

private:
    QString text(const QModelIndex& index) const;

    EpochTable m_table;
    int m_trainDecimals = 4;
    int m_valDecimals = 4;
};

} // namespace stackscope::ui
