// The Report page's "Redacted" box: what redaction replaces in the report (kind, placeholder, times) and what it
// could not be sure of, as report.json's redaction.uncertain says it.
#pragma once

#include "core/report/redactor.h"

#include <QGroupBox>

#include <string>
#include <vector>

class QLabel;
class QTableWidget;

namespace stackscope::ui {

class RedactionList : public QGroupBox {
    Q_OBJECT
public:
    explicit RedactionList(QWidget* parent = nullptr);

    // `enabled` false: one row saying nothing is replaced, and no uncertainty (nothing was tried).
    void setRedactions(const std::vector<report::RedactionEntry>& entries, const std::vector<std::string>& uncertain,
                       bool enabled);

private:
    QTableWidget* m_table;
    QLabel* m_uncertain;
};

} // namespace stackscope::ui
