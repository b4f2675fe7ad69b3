// The coloured bar above the pages while a report is open: whose machine, when, and the way back. One line by default
// (at 1024x640 with the Monitor dock four lines left little page: walkthrough 2026-11-27 third, problem 8); the
// report's path and what the other pages got from it are in the headline's tooltip and under "Details".
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace stackscope::ui {

class ReplayBanner : public QFrame {
    Q_OBJECT
public:
    explicit ReplayBanner(QWidget* parent = nullptr);

    // "Viewing a report from <host>, captured <time>. ..." and shows the bar.
    void showReport(const QString& host, const QString& capturedAt, const QString& source, bool hasProbes);
    // "Loading <name>…" while a report is read in the background: Close stops it, Run here waits for the report.
    void showLoading(const QString& name);
    // The headline and the details, as rich text (whether the details are shown or not).
    QString text() const;
    // A second line saying what the other pages got from the report ("VPOC (20 sessions) · Training (3 epochs)").
    void setPagesNote(const QString& note);
    QPushButton* runHereButton() const { return m_runHere; }
    QPushButton* detailsButton() const { return m_detailsButton; }

Q_SIGNALS:
    void runHereRequested();
    void closeRequested();

private:
    void setDetails(const QString& html);

    QLabel* m_text;
    QLabel* m_details;
    QString m_source; // the details' first line, set by showReport
    QPushButton* m_detailsButton;
    QPushButton* m_runHere;
    QPushButton* m_close;
};

} // namespace stackscope::ui
