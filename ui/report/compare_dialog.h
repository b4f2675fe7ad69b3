// Compare two snapshots or reports: pick A and B, see only the differences that matter, filter them.
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

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    DiffModel* model() const { return m_model; }
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
    bool inspectingThisMachine() const { return m_jobs.isRunning(); }

public Q_SLOTS:
    // False (and the reason in the status line) when either side cannot be read.
    bool compare();

private:
    void browse(QLineEdit* edit);
    void applyFilter();

    QLineEdit* m_a;
    QLineEdit* m_b;
    QLineEdit* m_filter;
    QComboBox* m_area;
    QLabel* m_status;
    DiffModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    std::shared_ptr<const Snapshot> m_thisMachine;
    JobTracker m_jobs;
};

} // namespace stackscope::ui
