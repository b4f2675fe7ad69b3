// The verdict at the top of the System page, rendered from the one diagnosis (diagnoseMachine): what blocks GPU work
// with its fix as a command to copy; no GPU visible and why; what could not be checked and how to check it; or
// "all good". The detail table stays below it.
#pragma once

#include "core/diagnosis/machine_diagnosis.h"

#include <QFrame>
#include <QList>

class QLabel;
class QVBoxLayout;

namespace stackscope::ui {

struct VerdictItem {
    QString id; // the finding's or the unknown's (GPU_ACCESS_UNKNOWN)
    Severity severity = Severity::Error;
    bool notChecked = false; // a check that could not be made (unknown), not a finding
    QString title;
    QString fix; // the fix (or, for an unknown, why and how to check), `command` spans included
    QString command; // what the Copy button copies; empty when the text has no command
    // Where to run the command, shown before its box: "On that machine:" for a recorded machine (the CLI's words),
    // empty for this machine.
    QString where;
};

// What the panel shows for a diagnosis: its state, the rows (the errors; for no GPU the warnings that say why; what
// could not be checked) and the line under the headline.
struct VerdictView {
    VerdictState state = VerdictState::Unknown;
    QList<VerdictItem> items;
    QList<VerdictItem> notChecked; // also shown, below the problems, when something blocks GPU work
    int warnings = 0;
    // The warnings the verdict does not treat as blocking (named in the headline; none for no GPU, whose warnings are
    // its rows): their ids and titles, in the diagnosis's order.
    QStringList warningIds;
    QStringList warningTitles;
    bool recorded = false; // the diagnosis is of a recorded machine (a root, a snapshot file, a report), not this one
};
VerdictView verdictView(const MachineDiagnosis& d, bool recorded = false);

class VerdictPanel : public QFrame {
    Q_OBJECT
public:
    static constexpr int kMaxShown = 3; // more go to "and N more in the table below"

    explicit VerdictPanel(QWidget* parent = nullptr);

    void showDiagnosis(const MachineDiagnosis& d);
    // Whether the next diagnoses are of a recorded machine: the headline says "on that machine", not "here", and each
    // command says to run it there (walkthrough 2026-11-27 problem 12: the checks were offered as if to run here).
    void setRecordedMachine(bool recorded) { m_recorded = recorded; }
    // While an inspection runs: "Inspecting <what>…" (this machine, the recorded root DIR).
    void showInspecting(const QString& what);
    VerdictState state() const { return m_view.state; }
    const VerdictView& view() const { return m_view; }
    QString headline() const;
    // The rows shown (problems, no-GPU reasons or unknowns), not counting those past kMaxShown.
    int itemCount() const { return m_view.items.size(); }
    // The commands offered with a Copy button, in order.
    QStringList commands() const;

private:
    QWidget* makeRow(const VerdictItem& item);
    void addRows(const QList<VerdictItem>& items);
    void addRowWidget(QWidget* row);
    void clearRows();

    QLabel* m_headline;
    QVBoxLayout* m_rows;
    VerdictView m_view;
    bool m_recorded = false;
};

} // namespace stackscope::ui
