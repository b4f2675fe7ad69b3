// Table model of findings, the system checks' (System page) and the diagnosis rules' (Probes page, log dialog):
// severity, id, title and whether a fix was verified here, with detail, fixes and sources as roles.
#pragma once

#include "core/snapshot/finding.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace stackscope::ui {

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, IdColumn, TitleColumn, VerifiedColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, DetailRole, FixRole, SourcesRole, SeverityRole, IdRole };
    // diagnose() ranks its findings (one that explains another comes first): keep them AsGiven.
    enum class Order { AsGiven, ErrorsFirst };

    using QAbstractTableModel::QAbstractTableModel;

    void setFindings(std::vector<Finding> findings, Order order = Order::AsGiven);
    const Finding* findingAt(int row) const;
    const std::vector<Finding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Finding& f, int column) const;

    std::vector<Finding> m_findings;
};

// Whether a probe variant could try one of the finding's fixes: an environment change, not a diagnostic step, for
// the machine's architectures. A finding whose fixes are all others reads "no probe can try this" under Fix.
bool canBeTried(const Finding& f);
// "verified here", "did not work here", "not tried".
QString verifiedText(const std::optional<bool>& verified);
// What the Fix column's words mean, for a fix's cell tooltip (walkthrough 2026-11-27 problem 9: "not tried" was not
// explained anywhere).
QString verifiedToolTip(const std::optional<bool>& verified);
// One line under a findings table that shows the Fix column: what "verified here", "did not work here" and "not tried"
// mean and how a fix gets tried.
QString fixColumnLegend();

// A finding's title as people see it (the table, the summary card): a guess from a description's words says so before
// the title; a finding without a title shows its id.
QString findingTitle(const Finding& f);

} // namespace stackscope::ui
