// The System page's "Findings" box: the findings table beside the selected finding's detail (what it is, what was
// seen, the fix or fixes in order, the sources). A view over the page's findings model: a new list selects its first.
#pragma once

#include "core/snapshot/finding.h"

#include <QGroupBox>

class QTableView;

namespace stackscope::ui {

class CommandTextBrowser;
class FindingsModel;

// The detail of one finding as rich text: title in its severity's colour, id and severity, the detail, up to three
// lines seen, the fix (a check's one, a diagnosis's in order, those that locate the problem marked) and the sources
// (web addresses as links).
QString findingDetailHtml(const Finding& f);

class FindingsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit FindingsBox(FindingsModel* findings, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    // The selected finding's detail as plain text; empty when none is selected.
    QString detail() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitRuleColumn();
    void showFinding(int row);
    void showFirst();

    FindingsModel* m_model;
    QTableView* m_table;
    CommandTextBrowser* m_detail;
};

} // namespace stackscope::ui
