// Compare two snapshots or reports: pick A and B, see each side's findings (which only on A, which only on B) and only
// the differences that matter, filtered. Both sides are read on the task runner (ui::JobTracker), never on the GUI thread.
#pragma once

#include "core/snapshot/snapshot.h"
#include "ui/jobs/job_tracker.h"

#include <QDialog>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace stackscope::ui {

class DiffModel;
class FindingsCompareModel;
struct CompareResult;

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    DiffModel* model() const { return m_model; }
    FindingsCompareModel* findingsModel() const { return m_findings; }
    QTableView* findingsView() const { return m_findingsView; }
    QString findingsSummary() const;
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QString statusText() const;
    // Fills A (and B when given) and compares when both are set.
    void setFiles(const QString& a, const QString& b = {});
    void setFilterText(const QString& text);
    void setArea(const QString& area); // "" for every area
    // B is this machine: `known` where the window has inspected it, else an inspection in the background; compares
    // once it is there when A is set. The field reads "this machine" (a path typed over it replaces it).
    void setThisMachineAsB(std::shared_ptr<const Snapshot> known);
    static QString thisMachineText();
    bool inspectingThisMachine() const { return m_inspect.isRunning(); }
    // Both sides are being read and diagnosed (compare() started; compared() has not come yet).
    bool isLoading() const { return m_load.isRunning(); }

public Q_SLOTS:
    // Starts reading both sides in the background: the status line says "Loading …" and the tables are greyed until
    // compared() comes. False (and what to give in the status line) when a side is missing or this machine is not
    // inspected yet; then no compared() follows.
    bool compare();

Q_SIGNALS:
    // The sides were read and compared (ok), or one could not be read (the status line says which, why and what to do).
    void compared(bool ok);

private:
    void browse(QLineEdit* edit);
    void applyFilter();
    void setLoading(bool loading);
    void showResult(CompareResult result, const QString& a, const QString& b);
    void showError(const CompareResult& result);
    QWidget* createFindingsBox();
    void fitFindingsTable();

    QLineEdit* m_a;
    QLineEdit* m_b;
    QLineEdit* m_filter;
    QComboBox* m_area;
    QLabel* m_status;
    DiffModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    FindingsCompareModel* m_findings;
    QTableView* m_findingsView;
    QLabel* m_findingsSummary;
    std::shared_ptr<const Snapshot> m_thisMachine;
    // Last: destroyed first, so no queued result reaches a half-destroyed dialog.
    JobTracker m_inspect; // this machine, for B
    JobTracker m_load; // both sides read, diagnosed and diffed
};

} // namespace stackscope::ui
