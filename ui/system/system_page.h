// The System page, a view: the heading with Paste a log and Refresh, the "not this machine" banner, the verdict, the
// GPU cards, the links, device access and environment, the findings (FindingsBox) above the stack and kernel coverage
// tabs (StackTabs). What it shows is SystemController's: the snapshot and its one diagnosis, in the models.
#pragma once

#include "ui/system/system_controller.h"

#include <QWidget>

class QGroupBox;
class QHBoxLayout;
class QLabel;
class QScrollArea;

namespace stackscope::ui {

class CardStrip;
class FindingsBox;
class LinksPanel;
class StackTabs;
class VerdictPanel;

class SystemPage : public QWidget {
    Q_OBJECT
public:
    explicit SystemPage(QWidget* parent = nullptr);

    SystemController* controller() const { return m_controller; }
    StackModel* stackModel() const { return m_controller->stackModel(); }
    FindingsModel* findingsModel() const { return m_controller->findingsModel(); }
    CoverageModel* coverageModel() const { return m_controller->coverageModel(); }
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
    void rebuildGpuCards(const Snapshot& s);
    void showDiagnosis();

    QLabel* m_banner;
    VerdictPanel* m_verdict;
    LinksPanel* m_links = nullptr;
    CardStrip* m_cardsScroll = nullptr;
    QWidget* m_cards;
    QHBoxLayout* m_cardsLayout;
    QLabel* m_access;
    SystemController* m_controller;
    StackTabs* m_stackTabs;
    FindingsBox* m_findings;
};

} // namespace stackscope::ui
