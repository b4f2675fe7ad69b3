// The System page: GPU cards, the stack table, device access and environment, findings with fixes.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"
#include "ui/system/snapshot_controller.h"

#include <QWidget>

class QGroupBox;
class QHBoxLayout;
class QLabel;
class QScrollArea;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace stackscope::ui {

class CoverageModel;
class FindingsModel;
class StackModel;
class LinksPanel;
class VerdictPanel;

class SystemPage : public QWidget {
    Q_OBJECT
public:
    explicit SystemPage(QWidget* parent = nullptr);

    StackModel* stackModel() const { return m_stackModel; }
    FindingsModel* findingsModel() const { return m_findingsModel; }
    CoverageModel* coverageModel() const { return m_coverageModel; }
    VerdictPanel* verdict() const { return m_verdict; }
    LinksPanel* links() const { return m_links; }
    int gpuCardCount() const;
    // For a picture at `width` (the report's screenshot): the findings and stack tables as tall as their rows (up to
    // a bound), every box at the height its text needs, and the page as tall as all of that (the 780-pixel page gave
    // each table two rows). Returns the height.
    int fitForPicture(int width);

public Q_SLOTS:
    void showSnapshot(stackscope::ui::SnapshotPtr snapshot, const QString& origin);
    void setBusy(bool busy);
    // An inspection started: the verdict says what is being read (this machine, the recorded root DIR).
    void showInspecting(const QString& what);
    // What the session adds to the snapshot's diagnosis: the logs pasted or dropped (or an opened report's) and the
    // probe results measured on the machine shown (none when they were measured elsewhere). Re-diagnoses.
    void setSessionInputs(std::vector<stackscope::ReadLogText> logs, std::vector<stackscope::ProbeOutcome> probes);

Q_SIGNALS:
    void refreshRequested();
    void pasteLogRequested();
    // The findings and verdict were drawn again (a snapshot shown, or the session's logs or probe results changed).
    void diagnosisShown();

private:
    QHBoxLayout* createTopBar();
    QScrollArea* createCardsScroll();
    QGroupBox* createAccessBox();
    QTabWidget* createStackTabs();
    QWidget* createStackTab();
    void showStackRow(int row);
    QGroupBox* createFindingsBox();
    void rebuildGpuCards(const Snapshot& s);
    void showFinding(int row);
    void showDiagnosis();

    SnapshotPtr m_shown;
    std::vector<ReadLogText> m_sessionLogs;
    std::vector<ProbeOutcome> m_sessionProbes;
    QLabel* m_banner;
    VerdictPanel* m_verdict;
    LinksPanel* m_links = nullptr;
    QScrollArea* m_cardsScroll = nullptr;
    QWidget* m_cards;
    QHBoxLayout* m_cardsLayout;
    QLabel* m_access;
    StackModel* m_stackModel;
    FindingsModel* m_findingsModel;
    CoverageModel* m_coverageModel;
    QTableView* m_stackView;
    QTextBrowser* m_stackDetail;
    QTableView* m_coverageView;
    QLabel* m_coverageNote;
    QTableView* m_findingsView;
    QTextBrowser* m_findingDetail;
};

} // namespace stackscope::ui
