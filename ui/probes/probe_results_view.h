// The Probes page's results, side by side: the environment picker, the grid and the selected cell's text (left); the
// outcome chart, the findings with their fixes and "Try this fix" (right). Shows what the models hold; runs nothing.
#pragma once

#include "core/probes/probe_runner.h"
#include "ui/probes/probe_results.h"

#include <QSplitter>
#include <QStringList>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace stackscope {
struct Finding;
}

namespace stackscope::ui {

class ElidedLabel;
class FindingsModel;
class OutcomeChart;
class ProbeGridModel;
class PythonEnvPicker;

// What the text under the grid says about a cell's result: probe, device, variant, outcome and time, the message,
// the error against its bound, the captured stderr.
QString probeCellText(const ProbeRecord& record);

class ProbeResultsView : public QSplitter {
    Q_OBJECT
public:
    ProbeResultsView(ProbeGridModel* grid, FindingsModel* findings, QWidget* parent = nullptr);

    // The environments to run, above the grid at their own height (the form's choice, shown beside its results).
    PythonEnvPicker* picker() const { return m_picker; }

    // The finding selected in the list and the fix chosen for it (its index in the finding's fixes, -1: none).
    const Finding* currentFinding() const;
    int currentFixIndex() const;
    // While a run goes on, "Try this fix" is off.
    void setRunning(bool running);
    void setCounts(const OutcomeCounts& counts);
    void clearCellText();
    // Hides the columns of environments not in `checked` (the results stay: a report still has them); `hide` false
    // shows every column (a report's results, which the form did not choose).
    void showEnvironments(const QStringList& checked, bool hide);
    // The selected finding's id, severity and text, and the fixes that can be tried here.
    void showFinding();
    // Whose findings these are, over the list (cut in the middle to its width, whole in the tooltip).
    void setFindingsHeading(const QString& heading);
    QString findingsHeading() const;
    // False while the findings are another machine's: "Try this fix" runs the failing probes here, so it is off and
    // says why.
    void setFixesTriable(bool triable);

Q_SIGNALS:
    void tryFixClicked();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The hint over an empty grid, as wide as the grid's viewport.
    void updateGridHint();
    void createGridWidgets();
    QWidget* createFindingsBox();
    void arrangePanes(QWidget* findingsBox);
    void showCell(const QModelIndex& index);
    void updateTryFix();

    ProbeGridModel* m_grid = nullptr;
    FindingsModel* m_findings = nullptr;
    bool m_running = false;
    bool m_triable = true;
    ElidedLabel* m_findingsHeading = nullptr;
    QTableView* m_gridView = nullptr;
    QLabel* m_gridHint = nullptr; // over the grid while it is empty
    QPlainTextEdit* m_cellText = nullptr;
    OutcomeChart* m_chart = nullptr;
    QTableView* m_findingsView = nullptr;
    QComboBox* m_fixes = nullptr;
    QPushButton* m_tryFixButton = nullptr;
    QLabel* m_findingText = nullptr;
    PythonEnvPicker* m_picker = nullptr;
};

} // namespace stackscope::ui
