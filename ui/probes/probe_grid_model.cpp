// The probe grid model: rows are probes in catalogue order, columns (device, variant), cells coloured by outcome.
#include "ui/probes/probe_grid_model.h"

#include "core/probes/probe_catalogue.h"
#include "ui/widgets/status_colors.h"

#include <QColor>

#include <algorithm>

namespace stackscope::ui {

ProbeGridModel::ProbeGridModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ProbeGridModel::clear()
{
    beginResetModel();
    m_probes.clear();
    m_columns.clear();
    m_records.clear();
    m_cells.clear();
    m_finished = false;
    endResetModel();
}

void ProbeGridModel::setFinished(bool finished)
{
    m_finished = finished;
    if (rowCount() > 0 && columnCount() > NUM_COLUMNS)
        Q_EMIT dataChanged(index(0, NUM_COLUMNS), index(rowCount() - 1, columnCount() - 1));
}

int ProbeGridModel::gpuCount() const
{
    std::vector<std::string> gpus;
    for (const auto& c : m_columns) {
        if (c.device != "cpu" && std::find(gpus.begin(), gpus.end(), c.device) == gpus.end())
            gpus.push_back(c.device);
    }
    return static_cast<int>(gpus.size());
}

QString ProbeGridModel::emptyCellText(const std::string& probeId, const ProbeColumnKey& key, bool longForm) const
{
    if (!m_finished)
        return longForm ? tr("not run yet") : QStringLiteral("\u2026");
    const auto* spec = findProbe(probeId);
    const auto scope = spec ? spec->scope : ProbeScope::AnyDevice;
    if (scope == ProbeScope::MultiGpu && gpuCount() < 2)
        return longForm ? tr("needs two or more GPUs; this run had %1").arg(gpuCount()) : tr("needs 2 GPUs");
    if (scope == ProbeScope::GpuOnly && key.device == "cpu")
        return longForm ? tr("runs on a GPU only; this column is the CPU") : tr("no GPU");
    const auto runtime = spec ? spec->runtime : ProbeRuntime::Any;
    if (runtime == ProbeRuntime::PythonOnly && key.environment == "libtorch")
        return longForm ? tr("runs in Python environments only (torch.compile, SDPA backends, torch.distributed): "
                             "check one under Environments, or run `stackscope-cli probe --python auto`")
                        : tr("Python only");
    if (runtime == ProbeRuntime::LibtorchOnly && key.environment != "libtorch")
        return longForm ? tr("runs in StackScope's libtorch only (its own kernels)") : tr("libtorch only");
    return longForm ? tr("the run ended before this probe (cancelled or stopped)") : tr("not run");
}

void ProbeGridModel::setLayout(const std::vector<ProbeColumnKey>& columns)
{
    beginResetModel();
    m_columns = columns;
    m_probes.clear();
    for (const auto& p : probeCatalogue())
        m_probes.push_back(p.id);
    m_records.clear();
    m_cells.clear();
    m_finished = false;
    endResetModel();
}

int ProbeGridModel::rowOf(const std::string& probeId) const
{
    auto it = std::find(m_probes.begin(), m_probes.end(), probeId);
    return it == m_probes.end() ? -1 : static_cast<int>(it - m_probes.begin());
}

int ProbeGridModel::columnOf(const ProbeColumnKey& key) const
{
    auto it = std::find(m_columns.begin(), m_columns.end(), key);
    return it == m_columns.end() ? -1 : NUM_COLUMNS + static_cast<int>(it - m_columns.begin());
}

std::size_t ProbeGridModel::environmentRank(const std::string& environment) const
{
    return static_cast<std::size_t>(std::find(m_environmentOrder.begin(), m_environmentOrder.end(), environment) -
                                    m_environmentOrder.begin());
}

bool ProbeGridModel::showsEnvironments() const
{
    return std::any_of(m_columns.begin(), m_columns.end(), [](const ProbeColumnKey& c) { return c.environment != "libtorch"; });
}

// Inserts the column after the last one of its environment or of an earlier one; the cells' column numbers move.
int ProbeGridModel::insertColumn(const ProbeColumnKey& key)
{
    const auto rank = environmentRank(key.environment);
    std::size_t at = 0;
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (environmentRank(m_columns[i].environment) <= rank)
            at = i + 1;
    }
    const int column = NUM_COLUMNS + static_cast<int>(at);
    const bool labelsChange = !showsEnvironments() && key.environment != "libtorch";
    beginInsertColumns({}, column, column);
    m_columns.insert(m_columns.begin() + static_cast<std::ptrdiff_t>(at), key);
    std::map<std::pair<int, int>, std::size_t> moved;
    for (const auto& [cell, i] : m_cells)
        moved[{cell.first, cell.second >= column ? cell.second + 1 : cell.second}] = i;
    m_cells = std::move(moved);
    endInsertColumns();
    if (labelsChange)
        Q_EMIT headerDataChanged(Qt::Horizontal, NUM_COLUMNS, columnCount() - 1);
    return column;
}

void ProbeGridModel::addRecord(const ProbeRecord& record)
{
    int row = rowOf(record.outcome.probeId);
    if (row < 0) {
        row = static_cast<int>(m_probes.size());
        beginInsertRows({}, row, row);
        m_probes.push_back(record.outcome.probeId);
        endInsertRows();
    }
    const ProbeColumnKey key = columnKeyOf(record);
    int column = columnOf(key);
    if (column < 0)
        column = insertColumn(key);
    auto it = m_cells.find({row, column});
    if (it != m_cells.end()) {
        m_records[it->second] = record; // a re-run (Try this fix) replaces the cell
    } else {
        m_cells[{row, column}] = m_records.size();
        m_records.push_back(record);
    }
    const auto idx = index(row, column);
    Q_EMIT dataChanged(idx, idx);
}

const ProbeRecord* ProbeGridModel::recordAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.column() < NUM_COLUMNS)
        return nullptr;
    auto it = m_cells.find({index.row(), index.column()});
    return it == m_cells.end() ? nullptr : &m_records[it->second];
}

int ProbeGridModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_probes.size());
}

int ProbeGridModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS + static_cast<int>(m_columns.size());
}

QVariant ProbeGridModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& probeId = m_probes[static_cast<std::size_t>(index.row())];
    if (index.column() == ProbeColumn) {
        const auto* spec = findProbe(probeId);
        switch (role) {
        case Qt::DisplayRole: return QString::fromStdString(spec ? spec->title : probeId);
        case Qt::ToolTipRole: return spec ? QString::fromStdString(spec->checks) : QVariant();
        case SortRole: return index.row();
        case ProbeIdRole: return QString::fromStdString(probeId);
        default: return {};
        }
    }
    const auto& key = m_columns[static_cast<std::size_t>(index.column() - NUM_COLUMNS)];
    const auto* r = recordAt(index);
    switch (role) {
    case Qt::DisplayRole:
        if (!r)
            return emptyCellText(probeId, key, false);
        if (r->outcome.outcome == ProbeResult::Hang) // "hang" overstates a short timeout
            return tr("timed out after %1 s").arg(m_timeoutSeconds > 0 ? m_timeoutSeconds : r->seconds, 0, 'g', 3);
        return QStringLiteral("%1  %2 s").arg(QString::fromLatin1(probeResultName(r->outcome.outcome))).arg(r->seconds, 0, 'f', 2);
    case Qt::BackgroundRole:
        if (!r)
            return {};
        return outcomeColor(r->outcome.outcome).lighter(r->outcome.outcome == ProbeResult::Ok ? 210 : 170);
    case Qt::ToolTipRole:
    case MessageRole:
        return r ? QString::fromStdString(r->outcome.message) : emptyCellText(probeId, key, true);
    case OutcomeRole: return r ? QVariant(static_cast<int>(r->outcome.outcome)) : QVariant();
    case SecondsRole: return r ? QVariant(r->seconds) : QVariant();
    case SortRole: return r ? QVariant(static_cast<int>(r->outcome.outcome)) : QVariant(-1);
    case StderrRole: return r ? QString::fromStdString(r->outcome.capturedStderr) : QString();
    case ProbeIdRole: return QString::fromStdString(probeId);
    case DeviceRole: return QString::fromStdString(key.device);
    case VariantRole: return QString::fromStdString(key.variant);
    case EnvironmentRole: return QString::fromStdString(key.environment);
    default: return {};
    }
}

QVariant ProbeGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (role == Qt::ToolTipRole && section >= NUM_COLUMNS) {
        const auto& env = m_columns[static_cast<std::size_t>(section - NUM_COLUMNS)].environment;
        return env == "libtorch" ? tr("StackScope's own libtorch") : QString::fromStdString(env.substr(env.find(':') + 1));
    }
    if (role != Qt::DisplayRole)
        return {};
    if (section == ProbeColumn)
        return tr("Probe");
    return QString::fromStdString(columnLabel(m_columns[static_cast<std::size_t>(section - NUM_COLUMNS)], showsEnvironments()));
}

} // namespace stackscope::ui
