// Table model of the diagnosis findings raised by the probe results, with each fix's verification.
#pragma once

#include "core/diagnosis/diagnosis.h"

#include <QAbstractTableModel>

#include <vector>

namespace stackscope::ui {

class ProbeFindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, RuleColumn, TitleColumn, VerifiedColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, DetailRole, RuleIdRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setFindings(std::vector<DiagnosisFinding> findings);
    const DiagnosisFinding* findingAt(int row) const;
    const std::vector<DiagnosisFinding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<DiagnosisFinding> m_findings;
};

// "verified here", "did not work here", "not tried".
QString verifiedText(const std::optional<bool>& verified);

} // namespace stackscope::ui
