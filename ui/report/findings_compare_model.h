// Compare's findings: each side's findings from the one diagnosis (as the System page lists them), each finding once
// with whether A and B have it, those only on one side first.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace stackscope::ui {

struct FindingPresence {
    std::string id;
    std::string title;
    std::string detail;
    Severity severity = Severity::Info; // the more severe of the two sides'
    std::optional<Severity> onA; // its severity on A; nullopt: not found there
    std::optional<Severity> onB;
    // Where it was not found: the checks that side could not make which could have found it (then it is unknown
    // there, not absent).
    std::vector<std::string> unseenOnA;
    std::vector<std::string> unseenOnB;
    bool onlyOnOneSide() const { return onA.has_value() != onB.has_value(); }
    // Found on one side and known to be absent on the other: a difference that matters.
    bool differs() const { return onlyOnOneSide() && (onA ? unseenOnB.empty() : unseenOnA.empty()); }
};

// The checks `notChecked` holds that could have raised `findingId`: a system check is raised only by its own facts
// (KFD_PERMISSION needs the device modes, HIP_NO_DEVICE the runtime queried); a rule's finding may read any fact.
std::vector<std::string> checksThatCouldFind(const std::string& findingId, const std::vector<NotChecked>& notChecked);

// The findings of both sides by id: those only on A or only on B first (errors before warnings before info, then in
// A's order, then B's), then those found on one side and unknown on the other, then those on both, in A's order.
std::vector<FindingPresence> compareFindings(const MachineDiagnosis& a, const MachineDiagnosis& b);

class FindingsCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, IdColumn, TitleColumn, AColumn, BColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, IdRole };
    enum class Side { A, B };

    using QAbstractTableModel::QAbstractTableModel;

    // Both sides' diagnoses; what a side could not check makes its "not found" unknown where that check could have
    // found it (a recorded machine's runtime was not queried, so HIP_NO_DEVICE cannot show there).
    void setDiagnoses(const MachineDiagnosis& a, const MachineDiagnosis& b);
    void clear();
    void setHeaders(const QString& a, const QString& b);

    const std::vector<FindingPresence>& rows() const { return m_rows; }
    // The ids found only on `side` and known to be absent on the other, in the table's order.
    QStringList onlyOn(Side side) const;
    // The ids found on the other side that `side` could not check.
    QStringList unknownOn(Side side) const;
    int onBoth() const;
    // One line: what is only on A, only on B, on both, and what a side could not check.
    QString summary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sideData(const std::optional<Severity>& on, const std::vector<std::string>& unseen, int role) const;

    std::vector<FindingPresence> m_rows;
    QString m_a = QStringLiteral("A");
    QString m_b = QStringLiteral("B");
};

} // namespace stackscope::ui
