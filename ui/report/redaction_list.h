// The Report page's "Redacted" box: what redaction replaces in the report (kind, placeholder, times) and what it
// could not be sure of, as report.json's redaction.uncertain says it. With nothing to replace, a sentence says why in
// place of an empty table (a replayed report's text was redacted when it was written: what it replaced then).
#pragma once

#include "core/report/redactor.h"

#include <QGroupBox>

#include <optional>

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
    // A report is open for replay: what its redaction replaced when it was written (nullopt: written unredacted).
    void setOpenedReport(const std::optional<std::vector<report::RedactionEntry>>& written);
    // The report was closed: the preview is of this session's data again.
    void clearOpenedReport();
    // The sentence shown in place of an empty table; empty while the table is shown.
    QString nothingNote() const;

private:
    void showNothingNote();

    QTableWidget* m_table;
    QLabel* m_nothing;
    QLabel* m_uncertain;
    bool m_enabled = true;
    bool m_empty = false;
    bool m_reportOpen = false;
    std::optional<std::vector<report::RedactionEntry>> m_written;
};

} // namespace stackscope::ui
