// EpochTableModel: a run's epochs as rows; the best epoch in bold.
#include "ui/training/epoch_table_model.h"

#include <QFont>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace stackscope::ui {

namespace {

// The user's locale with its thousands separator ("12,345" or "12.345"): the C locale leaves it out by default.
QLocale numberLocale()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

} // namespace

int EpochTableModel::lossDecimals(const std::vector<double>& values)
{
    double smallest = 0;
    for (double v : values) {
        const double a = std::fabs(v);
        if (a > 0 && std::isfinite(a) && (smallest == 0 || a < smallest))
            smallest = a;
    }
    if (smallest == 0)
        return 4; // at least four decimals: losses around one differ in the fourth
    const int exponent = static_cast<int>(std::floor(std::log10(smallest)));
    return std::clamp(3 - exponent, 4, 8);
}

void EpochTableModel::setData(EpochTable table)
{
    beginResetModel();
    m_table = std::move(table);
    std::vector<double> train, val;
    for (const auto& e : m_table.epochs) {
        train.push_back(e.trainLoss);
        val.push_back(e.valLoss);
    }
    m_trainDecimals = lossDecimals(train);
    m_valDecimals = lossDecimals(val);
    endResetModel();
}

QString EpochTableModel::text(const QModelIndex& index) const
{
    const auto& e = m_table.epochs[static_cast<size_t>(index.row())];
    const QLocale locale = numberLocale();
    switch (index.column()) {
    case EpochColumn: return e.epoch == m_table.bestEpoch ? tr("%1 (best)").arg(locale.toString(e.epoch)) : locale.toString(e.epoch);
    case TrainLossColumn: return locale.toString(e.trainLoss, 'f', m_trainDecimals);
    case ValLossColumn: return locale.toString(e.valLoss, 'f', m_valDecimals);
    case SamplesPerSColumn: return locale.toString(e.samplesPerS, 'f', 0);
    case SecondsColumn: return locale.toString(e.seconds, 'f', 2);
    default: return {};
    }
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
    case Qt::ToolTipRole: {
        // The whole text, for a column too narrow for it (cells elide in the middle).
        const QString whole = text(index);
        return best ? tr("%1\nBest validation loss so far: model.pt holds this epoch's weights").arg(whole) : whole;
    }
    case Qt::DisplayRole: return text(index);
    default: return {};
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return {};
    static const char* names[] = {"Epoch", "Train loss", "Val loss", "Samples/s", "Time (s)"};
    static const char* tips[] = {"Epoch (the best one in bold: model.pt holds its weights)",
                                 "Training loss", "Validation loss after the epoch",
                                 "Training samples per second over the epoch", "Seconds the epoch took"};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace stackscope::ui
