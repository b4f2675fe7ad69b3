// Kernel coverage matrix (library x device) from a snapshot's arch_coverage section.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include "core/snapshot/arch_coverage.h"

#include <optional>

namespace stackscope::ui {

class CoverageModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { LibraryColumn, KindColumn, TargetsColumn, FIRST_DEVICE_COLUMN };
    enum Roles { SortRole = Qt::UserRole, VerdictRole, ExplanationRole };

    using QAbstractTableModel::QAbstractTableModel;

    // `coverage` is the snapshot's archCoverage (empty: not scanned).
    void setCoverage(const std::optional<archscan::ArchCoverage>& coverage);
    QStringList devices() const { return m_devices; }
    QString emptyReason() const { return m_emptyReason; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString path;
        QString kind;
        QStringList targets;
        QStringList errors;
        QMap<QString, QString> verdicts;
        QMap<QString, QString> explanations;
    };
    QList<Row> m_rows;
    QStringList m_devices;
    QString m_emptyReason;
};

} // namespace stackscope::ui
