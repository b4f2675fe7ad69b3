// "Paste a log or error": the one diagnosis (diagnoseMachine, the call behind `stackscope-cli diagnose --log`) over
// pasted or dropped text and the machine shown, with the facts the text states, the findings, their evidence lines
// and their fixes.
#pragma once

#include "ui/jobs/job_tracker.h"
#include "ui/system/snapshot_controller.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QTableView;
class QTextBrowser;

namespace stackscope::ui {

class FindingsModel;

class LogDiagnosisDialog : public QDialog {
    Q_OBJECT
public:
    // Larger texts are read from their end: a traceback's cause sits in its last lines.
    static constexpr qsizetype kMaxChars = 8 * 1024 * 1024;

    // The snapshot (may be null) tells the rules which GPUs and versions they apply to.
    explicit LogDiagnosisDialog(SnapshotPtr snapshot, QWidget* parent = nullptr);

    // Puts the text in the box and diagnoses it; origin names it in the evidence ("pasted text", a path).
    void diagnoseText(const QString& text, const QString& origin);
    // Reads a text file and diagnoses it; false (with the message shown) when it cannot be read.
    bool diagnoseFile(const QString& path);

    FindingsModel* findingsModel() const { return m_model; }
    QString summary() const;
    // The facts the text states (GPU, arch, versions), one per line, as `diagnose` prints them.
    QStringList facts() const { return m_facts; }
    QTableView* findingsView() const { return m_table; }
    bool isRunning() const { return m_jobs.isRunning(); }

Q_SIGNALS:
    void diagnosed();
    // A text is being diagnosed: the window keeps it for the support report (the Report page lists it).
    void logKept(const QString& origin, const QString& text);

private:
    QWidget* createResults();
    void run();
    void showFacts(const QStringList& facts, const QString& against);
    void showFactsPending();
    void fitFacts(const QString& html);
    void showFinding(int row);

    SnapshotPtr m_snapshot;
    QString m_origin;
    QPlainTextEdit* m_text;
    QPushButton* m_diagnose;
    QLabel* m_summary;
    QLabel* m_factsLabel;
    QScrollArea* m_factsArea;
    QStringList m_facts;
    FindingsModel* m_model;
    QTableView* m_table;
    QTextBrowser* m_detail;
    JobTracker m_jobs {this};
};

} // namespace stackscope::ui
