// EpochTableModel: a run's epochs as rows; the best epoch in bold.
#include "ui/training/epoch_table_model.h"

#include <QFont>
#include <QLocale>

namespace stackscope::ui {

void EpochTableModel::setData(EpochTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int EpochTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.epochs.size());
}

int EpochTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant EpochTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& e = m_table.epochs[static_cast<size_t>(index.row())];
    const bool best = e.epoch == m_table.bestEpoch;
    switch (role) {
    case SortRole:
        switch (index.column()) {
        case EpochColumn: return e.epoch;
        case TrainLossColumn: return e.trainLoss;
        case ValLossColumn: return e.valLoss;
        case SamplesPerSColumn: return e.samplesPerS;
        case SecondsColumn: return e.seconds;
        default: return {};
        }
    case BestRole: return best;
    case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (!best)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::ToolTipRole:
        return best ? tr("Best validation loss so far: model.pt holds this epoch's weights") : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case EpochColumn: return best ? tr("%1 (best)").arg(e.epoch) : QString::number(e.epoch);
        case TrainLossColumn: return QString::number(e.trainLoss, 'g', 5);
        case ValLossColumn: return QString::number(e.valLoss, 'g', 5);
        case SamplesPerSColumn: return QLocale::c().toString(e.samplesPerS, 'f', 0);
        case SecondsColumn: return QString::number(e.seconds, 'f', 2);
        default: return {};
        }
    default: return {};
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Epoch", "Train loss", "Val loss", "Samples/s", "Time (s)"};
    return section >= 0 && section < NUM_COLUMNS ? tr(names[section]) : QVariant();
}

} // namespace stackscope::ui
