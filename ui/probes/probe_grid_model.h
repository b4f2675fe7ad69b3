// Table model of the probe grid: a row per probe, a column per (device, variant), filled as results arrive.
#pragma once

#include "ui/widgets/status_colors.h"

#include "ui/probes/probe_results.h"

#include <QAbstractTableModel>

#include <map>
#include <vector>

namespace stackscope::ui {

class ProbeGridModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Column 0 names the probe; every further column is a (device, variant) cell column.
    enum Columns { ProbeColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, OutcomeRole, SecondsRole, MessageRole, StderrRole, ProbeIdRole, DeviceRole, VariantRole, EnvironmentRole };

    explicit ProbeGridModel(QObject* parent = nullptr);

    // Fixes the columns before results arrive, so the grid shows pending cells.
    void setLayout(const std::vector<ProbeColumnKey>& columns);
    // The environments' order ("libtorch", "python:/path", ...): their columns are kept in this order, whatever
    // order their results arrive in; an environment not listed goes last.
    void setEnvironmentOrder(const std::vector<std::string>& environments) { m_environmentOrder = environments; }
    // True when the columns come from more than one PyTorch, or from a Python one: headers then name it.
    bool showsEnvironments() const;
    // One result; a new column or a new probe row is inserted when needed.
    void addRecord(const ProbeRecord& record);
    void clear();
    // After a run ends, cells that never got a result say why ("needs 2 GPUs", "no GPU", "not run")
    // instead of the pending mark.
    void setFinished(bool finished);
    bool isFinished() const { return m_finished; }
    // The run's per-probe timeout: a hang reads "timed out after N s".
    void setTimeoutSeconds(double seconds) { m_timeoutSeconds = seconds; }
    const ProbeRecord* recordAt(const QModelIndex& index) const;
    const std::vector<ProbeRecord>& records() const { return m_records; }
    const std::vector<ProbeColumnKey>& cellColumns() const { return m_columns; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int rowOf(const std::string& probeId) const;
    int columnOf(const ProbeColumnKey& key) const;
    std::size_t environmentRank(const std::string& environment) const;
    int insertColumn(const ProbeColumnKey& key);

    std::vector<std::string> m_probes; // row order: catalogue order
    std::vector<ProbeColumnKey> m_columns;
    std::vector<std::string> m_environmentOrder;
    std::vector<ProbeRecord> m_records;
    std::map<std::pair<int, int>, std::size_t> m_cells; // (row, column) -> index in m_records
    bool m_finished = false;
    double m_timeoutSeconds = 0.0;

    QString emptyCellText(const std::string& probeId, const ProbeColumnKey& key, bool longForm) const;
    int gpuCount() const;
};


} // namespace stackscope::ui
